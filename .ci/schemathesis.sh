#!/usr/bin/env bash
# Property-based tests of every served OpenAPI document with schemathesis (PyPI, in a venv),
# against the debug server CI built: the control plane's document and each platform's, positive
# and negative data, a bounded number of examples per operation. Fails on any 5xx, any status the
# document does not declare, any body that does not fit its schema and any wrong Content-Type.
# Ends with a plain `N passed, N failed` line (one check per document).
#
#   SCHEMATHESIS_EXAMPLES  examples per operation and phase (default 10)
#   SCHEMATHESIS_SEED      the seed (default fixed, so a CI failure reproduces; set another to explore)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
binary=.build/debug/understudy
[ -x "$binary" ] || { echo "build first: $binary is missing"; exit 1; }
# Pinned: checks and data generation change between releases, and CI must not move by itself.
version=4.32.5
venv=.build/schemathesis-venv
if ! "$venv/bin/schemathesis" --version 2>/dev/null | grep -q "$version"; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q "schemathesis==$version"
fi
examples=${SCHEMATHESIS_EXAMPLES:-10}
seed=${SCHEMATHESIS_SEED:-20261201}
checks=not_a_server_error,status_code_conformance,response_schema_conformance,content_type_conformance

work=$(mktemp -d)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" serve --port "$port" --https-port 0 --proxy-port 0 --database "$work/schemathesis.sqlite" --no-request-log \
  >"$work/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do
  curl -sf "http://127.0.0.1:$port/__admin/ready" >/dev/null && break
  sleep 0.1
done

"$venv/bin/python" .ci/schemathesis/prepare.py "http://127.0.0.1:$port" "$work" >"$work/documents.txt"

passed=0
failed=0
# Runs schemathesis over one document; extra arguments select operations.
run() {
  local name=$1 url=$2 config=$3
  shift 3
  # From $work, so nothing schemathesis writes lands in the checkout.
  (cd "$work" && "$root/$venv/bin/schemathesis" --no-color --config-file "$config" run "$url" \
    --checks "$checks" --mode all --max-examples "$examples" --seed "$seed" "$@")
}
# The control plane's document runs last: its global fault rules apply to every platform route.
while read -r name url config last; do
  echo
  echo "--- $name ($url)"
  started=$(date +%s)
  status=0
  if [ "$last" = "-" ]; then
    run "$name" "$url" "$config" || status=$?
  else
    run "$name" "$url" "$config" --exclude-operation-id "$last" || status=$?
    # Operations that revoke the run's own credentials, on their own once everything else is done.
    run "$name" "$url" "$config" --include-operation-id "$last" || status=$?
  fi
  if [ "$status" -eq 0 ]; then
    echo "ok    $name ($(( $(date +%s) - started )) s)"
    passed=$((passed + 1))
  else
    echo "FAIL  $name (schemathesis exit $status)"
    failed=$((failed + 1))
  fi
done <"$work/documents.txt"

if ! kill -0 "$server" 2>/dev/null; then
  echo "the server exited during the run"; tail -20 "$work/server.log"
  failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -eq 5 ]
