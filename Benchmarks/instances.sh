#!/usr/bin/env bash
# Two Understudy instances on one PostgreSQL database behind nginx, against one instance on the same
# database, in the same run: req/s and the instances' CPU per request (all Understudy processes,
# from /proc) for a read and a write SDK route. On two cores a second instance cannot add
# throughput; this shows what balancing across instances costs and that nothing breaks.
#
#   Benchmarks/instances.sh                      # build release, then measure (~3 minutes)
#   BIN=/tmp/understudy DURATION=5 Benchmarks/instances.sh
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-4}
WORK=$(mktemp -d /tmp/understudy-instances.XXXXXX)
PIDS=()
fail() { echo "FAILED: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }
need wrk wrk; need nginx nginx-light; need curl curl
if [ -z "${BIN:-}" ]; then
  swift build -c release --product understudy 2>&1 | tail -1
  BIN="$(swift build -c release --show-bin-path)/understudy"
fi
eval "$(bash .ci/postgres.sh start --watch $$)"
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
  bash .ci/postgres.sh stop "$UNDERSTUDY_TEST_POSTGRES_DIR"; rm -rf "$WORK"
}
trap cleanup EXIT
"$(cat "$UNDERSTUDY_TEST_POSTGRES_DIR/bindir")/psql" -q "$UNDERSTUDY_TEST_POSTGRES_URL" -c "CREATE DATABASE bench" >/dev/null
DB="${UNDERSTUDY_TEST_POSTGRES_URL%/postgres}/bench"

start_instance() { # NAME: starts it (pid joins PIDS) and sets PORT
  "$BIN" --port 0 --https-port 0 --proxy-port 0 --database "$DB" --ca-dir "$WORK/ca-$1" --no-request-log > "$WORK/$1.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 400); do grep -q 'listening url=http://' "$WORK/$1.log" && break; sleep 0.025; done
  PORT=$(sed -n 's/.* listening url=http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$WORK/$1.log" | head -1)
  [ -n "$PORT" ] || fail "instance $1 did not start: $(cat "$WORK/$1.log")"
}
start_instance a; A=$PORT
start_instance b; B=$PORT
LB=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$WORK/nginx.conf" <<NGINX
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events {}
http {
  access_log off;
  upstream understudy { server 127.0.0.1:$A; server 127.0.0.1:$B; keepalive 32; }
  server {
    listen 127.0.0.1:$LB;
    location / { proxy_pass http://understudy; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_set_header Host \$http_host; }
  }
}
NGINX
nginx -c "$WORK/nginx.conf" -p "$WORK" || fail "nginx"

SDK_KEY=$(curl -sf -X POST "http://127.0.0.1:$A/__admin/projects" -d '{"name":"bench"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["credentials"]["warplink"]["sdkKey"])')
printf '{"platform":"android","sdk_version":"1.1.0","fingerprint_version":"enriched_tz","is_reinstall":false,"accept_language":"en-US","timezone_offset":-300,"timezone":"America/Toronto"}' > "$WORK/match.json"
cat > "$WORK/post.lua" <<'LUA'
local file = io.open(os.getenv("BODY_FILE"), "rb"); local body = file:read("*a"); file:close()
wrk.method = "POST"; wrk.body = body; wrk.headers["Content-Type"] = "application/json"
LUA
for port in $A $B $LB; do
  curl -sf -H "Authorization: Bearer $SDK_KEY" "http://127.0.0.1:$port/warplink/v1/sdk/validate" | grep -q '"valid":true' || fail "validate on port $port"
  curl -sf -H "Authorization: Bearer $SDK_KEY" -H "Content-Type: application/json" --data-binary @"$WORK/match.json" \
    "http://127.0.0.1:$port/warplink/v1/attribution/match" | grep -q '"matched"' || fail "match on port $port"
done

ticks() { local t=0 pid; for pid in "${PIDS[@]}"; do t=$((t + $(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat"))); done; echo "$t"; }
HZ=$(getconf CLK_TCK)
run() { # LABEL PORT ROUTE [lua]
  local t0 t1 out rps requests
  t0=$(ticks)
  out=$(BODY_FILE="$WORK/match.json" wrk -t1 -c16 -d"${DURATION}s" ${4:+-s "$4"} -H "Authorization: Bearer $SDK_KEY" -H "User-Agent: WarpLink-Android/1.1.0" "http://127.0.0.1:$2$3")
  t1=$(ticks)
  rps=$(echo "$out" | awk '/Requests\/sec/ { print $2 }'); requests=$(echo "$out" | awk '/requests in/ { print $1 }')
  printf "| %s | %s | %.0f | %.1f |\n" "$1" "$3" "$rps" "$(awk -v t=$((t1 - t0)) -v n="$requests" -v hz="$HZ" 'BEGIN { print t * 1e6 / hz / n }')"
}
echo "| setup | route | req/s | Understudy CPU µs/req (both instances) |"
echo "|---|---|---|---|"
for round in 1 2; do
  run "one instance (A)" "$A" /warplink/v1/sdk/validate
  run "A and B behind nginx" "$LB" /warplink/v1/sdk/validate
  run "one instance (A)" "$A" /warplink/v1/attribution/match "$WORK/post.lua"
  run "A and B behind nginx" "$LB" /warplink/v1/attribution/match "$WORK/post.lua"
done
