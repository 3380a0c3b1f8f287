#!/usr/bin/env bash
# The journal's HAR export through a HAR reader: the debug server CI built, with the demo project,
# SDK traffic of every platform sent (a JSON POST, a GET with a query, a refusal), then
# GET /__admin/projects/demo/requests.har loaded by PyPI haralyzer (pinned, in a venv) as the
# network panels' importers read it. Fails when it does not load or an entry does not say what was
# sent. Ends with `N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=.build/debug/understudy
[ -x "$binary" ] || { echo "build first: $binary is missing"; exit 1; }
version=2.4.0
venv=.build/har-venv
if ! "$venv/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('haralyzer') != '$version')" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "haralyzer==$version"
fi
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

work=$(mktemp -d)
"$binary" serve --port 0 --https-port 0 --proxy-port 0 --database "$work/har.sqlite" --no-request-log \
  --ready-file "$work/ready.json" >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 600); do
  [ -s "$work/ready.json" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
[ -s "$work/ready.json" ] || { echo "the server did not get ready:"; tail -20 "$work/server.log"; echo "0 passed, 1 failed"; exit 1; }
"$venv/bin/python" .ci/har/check.py "$work/ready.json"
