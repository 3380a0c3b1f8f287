#!/usr/bin/env bash
# Foundation benchmark: Understudy vs nginx serving the same JSON on loopback, in the same run.
# Prints req/s, p50 and p99 for both and the ratio; time to ready; idle RSS; the journal's cost;
# and whether 1,000 idle keep-alive connections are held while others are served. Then, for each
# event loop (LOOPS), /__admin/health and WarpLink resolve as ratios to nginx measured in the same
# rounds, with the server's CPU time per request (/proc/<pid>/stat) and its context switches per
# request (/proc/<pid>/task/*/status: how often its threads slept and were woken).
#
#   Benchmarks/run.sh              # build release, then measure
#   SKIP_BUILD=1 Benchmarks/run.sh # reuse the last release build
#   DURATION=5 THREADS=2 CONNECTIONS=32 LOOPS="epoll dispatch" Benchmarks/run.sh
#   SKIP_BUILD=1 BIN=.build/debug/understudy DURATION=1 ROUNDS=1 Benchmarks/run.sh  # try the script quickly
#
# Timings on shared machines are noisy: read the ratios, not the absolute numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-5}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
PORT=${PORT:-18180}
NGINX_PORT=${NGINX_PORT:-18181}
LOOPS=${LOOPS:-"epoll dispatch"}
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
BIN=${BIN:-"$(swift build -c release --show-bin-path)/understudy"} # BIN=… measures another build (e.g. a debug one, to try the script)

# wrk URL [wrk flags…] → "req/s p50_ms p99_ms non2xx requests"
measure() {
  local url=$1; shift
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@" "$url" > "$WORK/wrk.txt"
  awk '
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /s$/) return v*1000; return v }
    /Requests\/sec/ { rps=$2 }
    / requests in / { total=$1 }
    $1=="50%" { p50=ms($2) }
    $1=="99%" { p99=ms($2) }
    /Non-2xx/ { bad=$NF }
    END { printf "%.0f %.3f %.3f %s %d\n", rps, p50, p99, (bad==""?0:bad), total }' "$WORK/wrk.txt"
}

# CPU ticks (user + system, every thread that ever ran) of the processes given.
cpu_ticks() { local t=0 pid; for pid in "$@"; do t=$((t + $(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat"))); done; echo "$t"; }
# Context switches (voluntary + involuntary) summed over the live threads of the processes given.
context_switches() {
  local pid
  for pid in "$@"; do cat /proc/"$pid"/task/*/status 2>/dev/null; done |
    awk '/^(non)?voluntary_ctxt_switches/ { n += $2 } END { print n + 0 }'
}
TICKS_PER_SECOND=$(getconf CLK_TCK)
# measure, also charging the CPU and context switches of PIDS (a space-separated list) to its requests:
# PIDS URL [wrk flags…] → "req/s p50_ms p99_ms non2xx requests cpu_us_per_request switches_per_request"
measure_cost() {
  local pids=$1; shift
  # shellcheck disable=SC2086
  local ticks0 switches0 ticks1 switches1 result
  ticks0=$(cpu_ticks $pids); switches0=$(context_switches $pids)
  result=$(measure "$@")
  ticks1=$(cpu_ticks $pids); switches1=$(context_switches $pids)
  echo "$result" | awk -v dt=$((ticks1 - ticks0)) -v ds=$((switches1 - switches0)) -v hz="$TICKS_PER_SECOND" \
    '{ n = ($5 > 0 ? $5 : 1); printf "%s %s %s %s %s %.1f %.2f\n", $1, $2, $3, $4, $5, dt * 1e6 / hz / n, ds / n }'
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
NGINX_PIDS="$(cat "$WORK/nginx/nginx.pid") $(pgrep -P "$(cat "$WORK/nginx/nginx.pid")" | tr '\n' ' ')"

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
  read -r a b c d _ < <(measure "http://127.0.0.1:$NGINX_PORT/")
  read -r e f g h _ < <(measure "http://127.0.0.1:$PORT/__admin/health")
  echo "$a $b $c $d $e $f $g $h" >> "$WORK/rounds.txt"
done
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
N_RPS=$(cut -d' ' -f1 "$WORK/rounds.txt" | median); N_P50=$(cut -d' ' -f2 "$WORK/rounds.txt" | median)
N_P99=$(cut -d' ' -f3 "$WORK/rounds.txt" | median); N_BAD=$(cut -d' ' -f4 "$WORK/rounds.txt" | median)
U_RPS=$(cut -d' ' -f5 "$WORK/rounds.txt" | median); U_P50=$(cut -d' ' -f6 "$WORK/rounds.txt" | median)
U_P99=$(cut -d' ' -f7 "$WORK/rounds.txt" | median); U_BAD=$(cut -d' ' -f8 "$WORK/rounds.txt" | median)
RATIOS=$(awk '{ printf "%.2f ", $5 / $1 }' "$WORK/rounds.txt")
# A journalled control-plane read (the demo project's clock), journal on…
read -r J_RPS J_P50 J_P99 J_BAD _ < <(measure "http://127.0.0.1:$PORT/__admin/projects/demo/clock")
BUSY_RSS_KB=$(awk '/VmRSS/ {print $2}' /proc/$UPID/status)

# 1,000 idle keep-alive connections held while wrk measures the rest.
python3 Benchmarks/hold_connections.py 127.0.0.1 "$PORT" 1000 $((DURATION + 3)) > "$WORK/hold.txt" &
HOLD=$!
PIDS+=("$HOLD")
sleep 2
read -r H_RPS H_P50 H_P99 H_BAD _ < <(measure "http://127.0.0.1:$PORT/__admin/health")
HOLD_RSS_KB=$(awk '/VmRSS/ {print $2}' /proc/$UPID/status)
wait "$HOLD" || true
stop_understudy

# …and journal off, same route, fresh process.
start_understudy "--no-journal"
wrk -t1 -c4 -d1s "http://127.0.0.1:$PORT/__admin/projects/demo/clock" >/dev/null
read -r O_RPS O_P50 O_P99 O_BAD _ < <(measure "http://127.0.0.1:$PORT/__admin/projects/demo/clock")
stop_understudy

# --- each event loop: health and one SDK route (WarpLink resolve), alternating with nginx -------------
WL_HEADERS=(-H "User-Agent: WarpLink-Android/1.1.0")
seed_warplink() { # creates a project with one link; sets WL_KEY
  local project
  project=$(curl -sf -X POST -H "Content-Type: application/json" -d '{"name":"loop-bench"}' "http://127.0.0.1:$PORT/__admin/projects")
  read -r WL_PROJECT WL_KEY < <(echo "$project" | python3 -c 'import json,sys; p=json.load(sys.stdin); print(p["id"], p["credentials"]["warplink"]["sdkKey"])')
  curl -sf -o /dev/null -X POST -H "Content-Type: application/json" \
    -d '{"slug":"bench0","destination_url":"https://example.com/bench0","custom_params":{"a":"1"}}' \
    "http://127.0.0.1:$PORT/__admin/projects/$WL_PROJECT/warplink/links"
}
RESOLVE_PATH="/warplink/v1/links/resolve/bench0?domain=aplnk.to"
for loop in $LOOPS; do
  start_understudy "--event-loop $loop"
  seed_warplink
  curl -sf -H "Authorization: Bearer $WL_KEY" "${WL_HEADERS[@]}" "http://127.0.0.1:$PORT$RESOLVE_PATH" | grep -q '"slug":"bench0"' \
    || { echo "WarpLink resolve does not answer on the $loop loop" >&2; exit 1; }
  wrk -t1 -c4 -d1s "http://127.0.0.1:$PORT/__admin/health" >/dev/null
  wrk -t1 -c4 -d1s -H "Authorization: Bearer $WL_KEY" "${WL_HEADERS[@]}" "http://127.0.0.1:$PORT$RESOLVE_PATH" >/dev/null
  : > "$WORK/loop-$loop.txt"
  for round in $(seq "$ROUNDS"); do
    nginx_row=$(measure_cost "$NGINX_PIDS" "http://127.0.0.1:$NGINX_PORT/")
    health_row=$(measure_cost "$UPID" "http://127.0.0.1:$PORT/__admin/health")
    resolve_row=$(measure_cost "$UPID" "http://127.0.0.1:$PORT$RESOLVE_PATH" -H "Authorization: Bearer $WL_KEY" "${WL_HEADERS[@]}")
    echo "$nginx_row $health_row $resolve_row" >> "$WORK/loop-$loop.txt"
  done
  THREADS_AFTER=$(ls "/proc/$UPID/task" | wc -l)
  echo "$THREADS_AFTER" > "$WORK/threads-$loop.txt"
  stop_understudy
done

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

echo
echo "Per event loop — wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, median of $ROUNDS rounds, each round nginx then health then resolve"
printf "%-10s %-22s %10s %7s %9s %12s %11s %7s\n" "loop" "route" "req/s" "×nginx" "p99 ms" "CPU µs/req" "ctxsw/req" "non2xx"
for loop in $LOOPS; do
  file="$WORK/loop-$loop.txt"
  col() { cut -d' ' -f"$1" "$file" | median; }
  # columns: nginx 1-7, health 8-14, resolve 15-21 (req/s p50 p99 non2xx requests cpu switches)
  printf "%-10s %-22s %10s %7s %9s %12s %11s %7s\n" "$loop" "nginx (same rounds)" "$(col 1)" "1.00" "$(col 3)" "$(col 6)" "$(col 7)" "$(col 4)"
  printf "%-10s %-22s %10s %7s %9s %12s %11s %7s\n" "" "/__admin/health" "$(col 8)" \
    "$(awk '{ print $8 / $1 }' "$file" | median | xargs printf '%.2f')" "$(col 10)" "$(col 13)" "$(col 14)" "$(col 11)"
  printf "%-10s %-22s %10s %7s %9s %12s %11s %7s\n" "" "WarpLink resolve" "$(col 15)" \
    "$(awk '{ print $15 / $1 }' "$file" | median | xargs printf '%.2f')" "$(col 17)" "$(col 20)" "$(col 21)" "$(col 18)"
  echo "           ($(cat "$WORK/threads-$loop.txt") server threads after the load)"
done
echo "×nginx is the median of each round's ratio; CPU and context switches are the server's (nginx's for its row) per request served."
