#!/usr/bin/env bash
# The dashboard in a real browser: headless Chromium (Debian's chromium + chromium-driver) and
# Selenium (PyPI, in a venv) drive `understudy serve` (the debug build CI made before calling
# this) on a free port with a temporary database. Screenshots of every page go to
# $UNDERSTUDY_ARTIFACTS (default .build/dashboard-artifacts). Ends with "N passed, N failed"
# and exits non-zero when a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

binary=.build/debug/understudy
if [ ! -x "$binary" ]; then
  echo "dashboard: $binary is missing; run 'swift build' first" >&2
  exit 2
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi

venv=.build/dashboard-venv
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
  "$venv/bin/pip" install -q selenium
fi

artifacts=${UNDERSTUDY_ARTIFACTS:-.build/dashboard-artifacts}
mkdir -p "$artifacts"
work=$(mktemp -d)
port=$("$venv/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" serve --port "$port" --https-port 0 --proxy-port 0 --database "$work/dashboard.sqlite" --no-request-log >"$work/server.log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  cp "$work/server.log" "$artifacts/server.log" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

for _ in $(seq 1 150); do
  if "$venv/bin/python" -c "import urllib.request, sys; urllib.request.urlopen(sys.argv[1], timeout=2)" "http://127.0.0.1:$port/__admin/ready" 2>/dev/null; then break; fi
  if ! kill -0 "$server" 2>/dev/null; then cat "$work/server.log" >&2; echo "dashboard: the server exited" >&2; exit 2; fi
  sleep 0.2
done

# Selenium finds the drivers given to it; it must not try to download any.
export SE_OFFLINE=true PYTHONDONTWRITEBYTECODE=1
"$venv/bin/python" Tests/dashboard/run.py --url "http://127.0.0.1:$port" --binary "$binary" --artifacts "$artifacts" "$@"
