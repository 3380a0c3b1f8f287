#!/usr/bin/env bash
# Validates every OpenAPI document the server serves (the control plane's and each platform's)
# with openapi-spec-validator from PyPI, against the debug server CI built. Ends with a plain
# `N passed, N failed` line.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=.build/debug/understudy
[ -x "$binary" ] || { echo "build first: $binary is missing"; exit 1; }
venv=.build/openapi-venv
if [ ! -x "$venv/bin/openapi-spec-validator" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q openapi-spec-validator
fi
work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" serve --port "$port" --https-port 0 --proxy-port 0 --database "$work/openapi.sqlite" --no-request-log >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/__admin/ready" >/dev/null && break
  sleep 0.1
done
passed=0
failed=0
# The platform list comes from the control plane's own document, so a new platform is covered.
documents=(openapi.json)
while read -r name; do documents+=("openapi/$name.json"); done < <(
  curl -sf "http://127.0.0.1:$port/__admin/openapi.json" | python3 -c '
import json, re, sys
summary = json.load(sys.stdin)["paths"]["/__admin/openapi/{document}"]["get"]["summary"]
print("\n".join(re.findall(r"`([a-z0-9]+)\.json`", summary)))')
for document in "${documents[@]}"; do
  curl -sf "http://127.0.0.1:$port/__admin/$document" >"$work/document.json"
  if "$venv/bin/openapi-spec-validator" "$work/document.json" >"$work/result.txt" 2>&1; then
    echo "ok    /__admin/$document"
    passed=$((passed + 1))
  else
    echo "FAIL  /__admin/$document"; sed 's/^/      /' "$work/result.txt" | head -20
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -ge 2 ]
