#!/usr/bin/env bash
# The metrics endpoint through a strict reader: the debug server CI built, with the demo project,
# traffic sent (SDK 2xx/4xx, a header fault, an unmatched route, a proxied CONNECT), then
# GET /__admin/metrics parsed by PyPI prometheus_client's text parser (in a venv). Fails on a parse
# error, a missing family or a counter that did not move. Ends with `N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=.build/debug/understudy
[ -x "$binary" ] || { echo "build first: $binary is missing"; exit 1; }
# Pinned, like schemathesis: the parser's strictness must not change under CI.
version=0.21.1
venv=.build/metrics-venv
if ! "$venv/bin/python" -c "import prometheus_client, sys; sys.exit(prometheus_client.__version__ != '$version')" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "prometheus-client==$version"
fi
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

work=$(mktemp -d)
"$binary" serve --port 0 --https-port 0 --proxy-port 0 --database "$work/metrics.sqlite" --log-format json --no-request-log \
  >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
plain="" proxy=""
for _ in $(seq 300); do
  plain=$(grep -o '"url":"http://[^"]*"' "$work/server.log" | head -1 | sed 's/.*:\([0-9]*\)"$/\1/' || true)
  proxy=$(grep '"message":"proxy listening"' "$work/server.log" | grep -o '"port":[0-9]*' | head -1 | cut -d: -f2 || true)
  [ -n "$plain" ] && [ -n "$proxy" ] && curl -sf "http://127.0.0.1:$plain/__admin/ready" >/dev/null && break
  sleep 0.1
done
[ -n "$plain" ] && [ -n "$proxy" ] || { echo "the server did not report its ports:"; tail -20 "$work/server.log"; echo "0 passed, 1 failed"; exit 1; }
"$venv/bin/python" .ci/metrics/check.py "http://127.0.0.1:$plain" "$proxy"
