#!/usr/bin/env bash
# Foundation benchmark: Understudy vs nginx serving the same JSON on loopback, in the same run.
# Prints req/s, p50 and p99 for both and the ratio; time to ready; idle RSS; the journal's cost;
# and whether 1,000 idle keep-alive connections are held while others are served.
#
#   Benchmarks/run.sh              # build release, then measure
#   SKIP_BUILD=1 Benchmarks/run.sh # reuse the last release build
#   DURATION=5 THREADS=2 CONNECTIONS=32 Benchmarks/run.sh
#
# Timings on shared machines are noisy: read the ratios, not the absolute numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-5}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
PORT=${PORT:-18180}
NGINX_PORT=${NGINX_PORT:-18181}
WORK=$(mktemp -d /tmp/understudy-bench.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]:-}"; do kill "$pid" 2>/dev/null || true; done
  # nginx daemonizes, so it is stopped through its own pid file.
  [ -f "$WORK/nginx/nginx.pid" ] && kill "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

need() { command -v "$1" >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }
need wrk wrk
need nginx nginx-light
need curl curl

if [ -z "${SKIP_BUILD:-}" ]; then swift build -c release --product understudy 2>&1 | tail -1; fi
BIN="$(swift build -c release --show-bin-path)/understudy"

# wrk → "req/s p50_ms p99_ms"
measure() {
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$1" > "$WORK/wrk.txt"
  awk '
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    /Requests\/sec/ { rps=$2 }
    $1=="50%" { p50=ms($2) }
    $1=="99%" { p99=ms($2) }
    /Non-2xx/ { bad=$NF }
    END { printf "%.0f %.3f %.3f %s\n", rps, p50, p99, (bad==""?0:bad) }' "$WORK/wrk.txt"
}

# nginx serving the same body as /__admin/health, keep-alive on, no access log.
mkdir -p "$WORK/nginx"
cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path $WORK/nginx; proxy_temp_path $WORK/nginx; fastcgi_temp_path $WORK/nginx; uwsgi_temp_path $WORK/nginx; scgi_temp_path $WORK/nginx;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location / { default_type application/json; return 200 '{"status":"ok"}'; }
  }
}
CONF
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx"
sleep 0.3

start_understudy() { # $1: extra flags
  local started=$(date +%s%N)
  "$BIN" --port "$PORT" --https-port 0 --proxy-port 0 --database "$WORK/db-$RANDOM.sqlite" --no-request-log $1 2> "$WORK/understudy.log" &
  UPID=$!
  PIDS+=("$UPID")
  until curl -sf "http://127.0.0.1:$PORT/__admin/ready" >/dev/null 2>&1; do sleep 0.005; done
  READY_MS=$(( ($(date +%s%N) - started) / 1000000 ))
}
# A graceful stop must exit 0: a release-only heap corruption once showed up only as exit 134 here.
STOP_CODES=""
stop_understudy() { kill "$UPID"; local code=0; wait "$UPID" 2>/dev/null || code=$?; STOP_CODES="$STOP_CODES $code"; }

start_understudy ""
sleep 1
IDLE_RSS_KB=$(awk '/VmRSS/ {print $2}' /proc/$UPID/status)
IDLE_ANON_KB=$(awk '/RssAnon/ {print $2}' /proc/$UPID/status)
IDLE_FILE_KB=$(awk '/RssFile/ {print $2}' /proc/$UPID/status)
INTERNAL_READY=$(grep -o 'readyMs=[0-9.]*' "$WORK/understudy.log" | head -1 | cut -d= -f2)

echo "warming up…"; wrk -t1 -c4 -d1s "http://127.0.0.1:$PORT/__admin/health" >/dev/null; wrk -t1 -c4 -d1s "http://127.0.0.1:$NGINX_PORT/" >/dev/null
# nginx and Understudy alternate, ROUNDS times; medians smooth out what the shared machine does.
ROUNDS=${ROUNDS:-3}
: > "$WORK/rounds.txt"
for round in $(seq "$ROUNDS"); do
  read -r a b c d < <(measure "http://127.0.0.1:$NGINX_PORT/")
  read -r e f g h < <(measure "http://127.0.0.1:$PORT/__admin/health")
  echo "$a $b $c $d $e $f $g $h" >> "$WORK/rounds.txt"
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
N_RPS=$(cut -d' ' -f1 "$WORK/rounds.txt" | median); N_P50=$(cut -d' ' -f2 "$WORK/rounds.txt" | median)
N_P99=$(cut -d' ' -f3 "$WORK/rounds.txt" | median); N_BAD=$(cut -d' ' -f4 "$WORK/rounds.txt" | median)
U_RPS=$(cut -d' ' -f5 "$WORK/rounds.txt" | median); U_P50=$(cut -d' ' -f6 "$WORK/rounds.txt" | median)
U_P99=$(cut -d' ' -f7 "$WORK/rounds.txt" | median); U_BAD=$(cut -d' ' -f8 "$WORK/rounds.txt" | median)
RATIOS=$(awk '{ printf "%.2f ", $5 / $1 }' "$WORK/rounds.txt")
# A journalled control-plane read (the demo project's clock), journal on…
read -r J_RPS J_P50 J_P99 J_BAD < <(measure "http://127.0.0.1:$PORT/__admin/projects/demo/clock")
BUSY_RSS_KB=$(awk '/VmRSS/ {print $2}' /proc/$UPID/status)

# 1,000 idle keep-alive connections held while wrk measures the rest.
python3 Benchmarks/hold_connections.py 127.0.0.1 "$PORT" 1000 $((DURATION + 3)) > "$WORK/hold.txt" &
HOLD=$!
PIDS+=("$HOLD")
sleep 2
read -r H_RPS H_P50 H_P99 H_BAD < <(measure "http://127.0.0.1:$PORT/__admin/health")
HOLD_RSS_KB=$(awk '/VmRSS/ {print $2}' /proc/$UPID/status)
wait "$HOLD" || true
stop_understudy

# …and journal off, same route, fresh process.
start_understudy "--no-journal"
wrk -t1 -c4 -d1s "http://127.0.0.1:$PORT/__admin/projects/demo/clock" >/dev/null
read -r O_RPS O_P50 O_P99 O_BAD < <(measure "http://127.0.0.1:$PORT/__admin/projects/demo/clock")
stop_understudy

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo
echo "Understudy foundation benchmark — wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, keep-alive, loopback"
printf "%-44s %10s %9s %9s %6s\n" "target" "req/s" "p50 ms" "p99 ms" "non2xx"
printf "%-44s %10s %9s %9s %6s\n" "nginx (same JSON), median of $ROUNDS" "$N_RPS" "$N_P50" "$N_P99" "$N_BAD"
printf "%-44s %10s %9s %9s %6s\n" "understudy /__admin/health, median of $ROUNDS" "$U_RPS" "$U_P50" "$U_P99" "$U_BAD"
printf "%-44s %10s %9s %9s %6s\n" "understudy journalled route, journal on" "$J_RPS" "$J_P50" "$J_P99" "$J_BAD"
printf "%-44s %10s %9s %9s %6s\n" "understudy journalled route, journal off" "$O_RPS" "$O_P50" "$O_P99" "$O_BAD"
printf "%-44s %10s %9s %9s %6s\n" "understudy health, 1,000 idle conns held" "$H_RPS" "$H_P50" "$H_P99" "$H_BAD"
echo
echo "ratio understudy/nginx req/s (medians):    $(ratio "$U_RPS" "$N_RPS")   (target ≥ 0.60; per round: $RATIOS)"
echo "journal cost (on/off req/s):               $(ratio "$J_RPS" "$O_RPS")   (target ≥ 0.80)"
echo "health with 1,000 idle conns / without:    $(ratio "$H_RPS" "$U_RPS")   ($(cat "$WORK/hold.txt" | tr '\n' ' '))"
echo "time to ready (spawn → /__admin/ready):    ${READY_MS} ms (server's own: ${INTERNAL_READY:-?} ms; target ≤ 200 ms)"
echo "exit codes after SIGTERM:                 ${STOP_CODES# } (expected 0 each)"
echo "idle RSS:                                  $((IDLE_RSS_KB / 1024)) MiB (target ≤ 25 MB) = $((IDLE_ANON_KB / 1024)) MiB private + $((IDLE_FILE_KB / 1024)) MiB shared-library pages; after load $((BUSY_RSS_KB / 1024)) MiB; with 1,000 conns $((HOLD_RSS_KB / 1024)) MiB"
