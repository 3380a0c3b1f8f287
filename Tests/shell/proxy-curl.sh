#!/usr/bin/env bash
# The intercepting proxy as a user drives it: the built `understudy` on free ports with a temporary
# database, its CA exported with `understudy ca export`, and curl through `--proxy` with `--cacert`.
# Loopback only: curl hands host names to the proxy, and nothing here leaves the machine.
# Prints one line per check and ends with `N passed, N failed`; exits 1 when a check failed.
#   UNDERSTUDY_BINARY   the server binary (default .build/debug/understudy)
set -uo pipefail
cd "$(dirname "$0")/../.."
binary="${UNDERSTUDY_BINARY:-.build/debug/understudy}"
[ -x "$binary" ] || { echo "proxy-curl: $binary not found; run \`swift build\` first" >&2; exit 2; }
command -v curl >/dev/null || { echo "proxy-curl: curl is not installed" >&2; exit 2; }
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY no_proxy NO_PROXY

work=$(mktemp -d)
servers=()
cleanup() {
  for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

passed=0
failed=0
check() { # check NAME CONDITION-RESULT DETAIL
  if [ "$2" = yes ]; then echo "PASS $1"; passed=$((passed + 1)); else echo "FAIL $1: $3"; failed=$((failed + 1)); fi
}

# start NAME EXTRA-ARGS…: starts a server, sets $plain and $proxy from its log.
start() {
  local name=$1; shift
  mkdir -p "$work/$name"
  "$binary" serve --port 0 --https-port 0 --proxy-port 0 --database "$work/$name/db.sqlite" \
    --log-format json --no-request-log "$@" > "$work/$name/server.log" 2>&1 &
  servers+=($!)
  plain="" proxy=""
  for _ in $(seq 300); do
    plain=$(grep -o '"url":"http://[^"]*"' "$work/$name/server.log" | head -1 | sed 's/.*:\([0-9]*\)"$/\1/')
    proxy=$(grep '"message":"proxy listening"' "$work/$name/server.log" | grep -o '"port":[0-9]*' | head -1 | cut -d: -f2)
    [ -n "$plain" ] && [ -n "$proxy" ] && return 0
    sleep 0.1
  done
  echo "proxy-curl: server $name did not report its ports:"; tail -20 "$work/$name/server.log"
  exit 1
}

demo_key="wl_live_demo0000000000000000000000000000"

# --- passthrough mode (the default) ---
start passthrough
"$binary" ca export --database "$work/passthrough/db.sqlite" --output "$work/ca.pem"
check "understudy ca export writes a PEM certificate" "$(grep -q 'BEGIN CERTIFICATE' "$work/ca.pem" && echo yes)" "$(head -c 200 "$work/ca.pem")"

out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$proxy" --cacert "$work/ca.pem" \
  -H "Authorization: Bearer $demo_key" -w '\n%{http_code} %{http_connect}' https://api.warplink.app/v1/sdk/validate 2>&1)
check "curl --proxy --cacert https://api.warplink.app/v1/sdk/validate → 200 from Understudy" \
  "$( [ "$(tail -1 <<<"$out")" = "200 200" ] && grep -q '"valid"' <<<"$out" && echo yes)" "$out"

out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$proxy" -H "Authorization: Bearer $demo_key" -w '\n%{http_code}' \
  http://api.warplink.app/v1/sdk/validate 2>&1)
check "curl --proxy http://api.warplink.app/… (absolute form) → 200" "$( [ "$(tail -1 <<<"$out")" = 200 ] && echo yes)" "$out"

out=$(curl -sS --max-time 10 "http://127.0.0.1:$plain/__admin/requests?via=proxy&proxyHost=api.warplink.app" 2>&1)
check "the journal shows both requests came through the proxy for api.warplink.app" \
  "$( [ "$(grep -o '"via":"proxy"' <<<"$out" | wc -l)" -ge 3 ] && grep -q '"method":"CONNECT"' <<<"$out" && echo yes)" "$out"

out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$proxy" --cacert "$work/ca.pem" -w '\n%{http_code}' \
  "https://api.warplink.app/v1/sdk/validate" -H "Authorization: Bearer wl_live_nope" 2>&1)
check "a bad key through the proxy gets WarpLink's own 401" "$( [ "$(tail -1 <<<"$out")" = 401 ] && echo yes)" "$out"

out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$proxy" -w '\n%{http_code}' "http://127.0.0.1:$plain/__admin/health" 2>&1)
check "an absolute-form request for Understudy's own port is served by Understudy itself" \
  "$( [ "$(tail -1 <<<"$out")" = 200 ] && echo yes)" "$out"

out=$(curl -sS --max-time 10 --proxytunnel --proxy "http://127.0.0.1:$proxy" -w '\n%{http_code} %{http_connect}' "http://127.0.0.1:$plain/__admin/health" 2>&1)
check "CONNECT to Understudy's own plain port is served in process" "$( [ "$(tail -1 <<<"$out")" = "200 200" ] && echo yes)" "$out"

out=$(curl -sS --max-time 10 --proxytunnel --proxy "http://127.0.0.1:$proxy" -w '\n%{http_connect}' "http://localhost:$proxy/" 2>&1)
check "CONNECT to the proxy's own port is refused (403)" "$( [ "$(tail -1 <<<"$out")" = 403 ] && echo yes)" "$out"
passthrough_plain=$plain passthrough_proxy=$proxy

out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$proxy" --cacert "$work/ca.pem" -w '\n%{http_connect}' https://api.warplink.app:8443/ 2>&1)
check "CONNECT to an emulated host on another port → 400" "$( [ "$(tail -1 <<<"$out")" = 400 ] && echo yes)" "$out"

# --- refuse mode ---
start refuse --proxy-mode refuse
out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$proxy" -w '\n%{http_connect}' https://example.org/ 2>&1)
check "--proxy-mode refuse: CONNECT example.org:443 → 403" "$( [ "$(tail -1 <<<"$out")" = 403 ] && echo yes)" "$out"
out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$proxy" -w '\n%{http_code}' http://example.org/ 2>&1)
check "--proxy-mode refuse: http://example.org/ → 403 naming the host" \
  "$( [ "$(tail -1 <<<"$out")" = 403 ] && grep -q 'example.org' <<<"$out" && echo yes)" "$out"
"$binary" ca export --database "$work/refuse/db.sqlite" --output "$work/refuse-ca.pem"
out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$proxy" --cacert "$work/refuse-ca.pem" -H "Authorization: Bearer $demo_key" \
  -w '\n%{http_code}' https://api.warplink.app/v1/sdk/validate 2>&1)
check "--proxy-mode refuse still intercepts emulated hosts" "$( [ "$(tail -1 <<<"$out")" = 200 ] && echo yes)" "$out"

# --- what passthrough may reach: public addresses only, unless --proxy-allow-private ---
start private --proxy-allow-private
for host in 127.0.0.1 localhost 127.1 2130706433 0x7f000001 0.0.0.0 '[::ffff:127.0.0.1]'; do
  out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$passthrough_proxy" -w '\n%{http_code}' "http://$host:$plain/__admin/health" 2>&1)
  check "default passthrough refuses http://$host:<another server> with 403 naming --proxy-allow-private" \
    "$( [ "$(tail -1 <<<"$out")" = 403 ] && grep -q -- '--proxy-allow-private' <<<"$out" && echo yes)" "$out"
done
out=$(curl -sS --max-time 10 --proxytunnel --proxy "http://127.0.0.1:$passthrough_proxy" -w '\n%{http_connect}' "http://localhost:$plain/__admin/health" 2>&1)
check "default passthrough refuses CONNECT localhost:<another server> (403)" "$( [ "$(tail -1 <<<"$out")" = 403 ] && echo yes)" "$out"
out=$(curl -sS --max-time 10 --proxytunnel --proxy "http://127.0.0.1:$proxy" -w '\n%{http_code} %{http_connect}' "http://127.0.0.1:$passthrough_plain/__admin/health" 2>&1)
check "--proxy-allow-private: CONNECT to another local server tunnels to it" "$( [ "$(tail -1 <<<"$out")" = "200 200" ] && echo yes)" "$out"

# --- the proxy password ---
start password --proxy-password curl-secret
out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$proxy" -w '\n%{http_code}' -H "Authorization: Bearer $demo_key" \
  http://api.warplink.app/v1/sdk/validate 2>&1)
check "--proxy-password: no credentials → 407" "$( [ "$(tail -1 <<<"$out")" = 407 ] && echo yes)" "$out"
"$binary" ca export --database "$work/password/db.sqlite" --output "$work/password-ca.pem"
out=$(curl -sS --max-time 10 --proxy "http://127.0.0.1:$proxy" --proxy-user "phone:curl-secret" --cacert "$work/password-ca.pem" \
  -H "Authorization: Bearer $demo_key" -w '\n%{http_code} %{http_connect}' https://api.warplink.app/v1/sdk/validate 2>&1)
check "--proxy-password: curl --proxy-user any-user:password reaches the emulated host" "$( [ "$(tail -1 <<<"$out")" = "200 200" ] && echo yes)" "$out"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
