#!/usr/bin/env bash
# SDK hot paths against nginx serving a static JSON of the same byte size, in the same run: for each route,
# at 16 connections and at 1 (wrk -t1, keep-alive), req/s, p50/p99/p99.9 and the worst request, the server's
# CPU per request (utime + stime of the whole process from /proc/<pid>/stat) and its context switches per
# request, each against nginx measured the same way (master + workers) just before it; the upload also against
# nginx taking its same bodies (read and dropped; stored in a file by the WebDAV module). Then telemetry and
# readings ingest (1,000-sample gzip batches; telemetry from 16 users in turn) as samples/s and CPU µs per sample;
# flatness (resolve, voucher lookup and a trips list in a project with 10 and in one with 100,000
# links/vouchers/trips and as many other devices' items and warranties, measured alternately); RSS idle and
# after every round, with the heap's live bytes from the server's metrics; from the server's shutdown log,
# how long each SQLite writer spent in its checkpoint turns; with WAITS=1, where the server's threads waited
# off the CPU (Benchmarks/waits.py, which costs CPU: the run's figures are then not comparable). Journal on
# (the default). Prints Markdown and writes it to OUT.
#
#   Benchmarks/hotpaths.sh                               # build release, then measure (12–14 minutes)
#   BIN=/tmp/bench-bin/understudy Benchmarks/hotpaths.sh # measure that binary (no build)
#   SKIP_BUILD=1 ROUTES="health resolve voucher" SKIP_FLATNESS=1 DURATION=2 ROUNDS=1 Benchmarks/hotpaths.sh
#   WAITS=1 SKIP_FLATNESS=1 Benchmarks/hotpaths.sh         # and sample where the server's threads block
#   DATABASE=postgres://user:pass@127.0.0.1:5432/bench SKIP_FLATNESS=1 Benchmarks/hotpaths.sh   # serve from PostgreSQL
#
# Routes: health resolve validate voucher appconfig report me trips (reads); match upload sensor (writes).
# Not measured unless named in ROUTES: resolve-tap, a resolve with a fresh X-WarpLink-Tap-Id each request as the
# 1.1 SDKs send it (the server keeps it as the click's id, so these clicks are keyed by random ids).
# Timings on shared machines are noisy: read the ratios (CPU per request is the steadiest), not the numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-3}
ROUNDS=${ROUNDS:-3}
ROUTES=${ROUTES:-"health resolve validate voucher appconfig report me trips match upload sensor"}
INGEST_THREADS=${INGEST_THREADS:-2}
FLAT_ROWS=${FLAT_ROWS:-100000}
WRK_TIMEOUT=${WRK_TIMEOUT:-10s}
HERE=Benchmarks/hotpaths
PLAT=Benchmarks/platforms
WORK=$(mktemp -d /tmp/understudy-hotpaths.XXXXXX)
OUT=${OUT:-/tmp/understudy-hotpaths-$(date -u +%Y%m%dT%H%M%SZ).md}
UPID=""
cleanup() {
  if [ -n "$UPID" ]; then kill "$UPID" 2>/dev/null || true; wait "$UPID" 2>/dev/null || true; fi
  [ -f "$WORK/nginx/nginx.pid" ] && kill "$(cat "$WORK/nginx/nginx.pid")" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() { echo "FAILED: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }
need wrk wrk; need nginx nginx-light; need curl curl; need python3 python3

if [ -z "${BIN:-}" ]; then
  [ -n "${SKIP_BUILD:-}" ] || swift build -c release --product understudy 2>&1 | tail -1
  BIN="$(swift build -c release --show-bin-path)/understudy"
fi
[ -x "$BIN" ] || fail "no binary at $BIN"
STARTED=$(date +%s)

# --- the server (any free port: other benchmarks and test servers may hold the usual ones) ------------
"$BIN" --port 0 --https-port 0 --proxy-port 0 --database "${DATABASE:-$WORK/bench.sqlite}" --no-request-log > "$WORK/understudy.log" 2>&1 &
UPID=$!
WAITS_PID=""
if [ -n "${WAITS:-}" ]; then
  python3 Benchmarks/waits.py "$UPID" --out "$WORK/waits.md" > /dev/null &
  WAITS_PID=$!
fi
for _ in $(seq 400); do grep -q 'listening url=http://' "$WORK/understudy.log" && break; kill -0 "$UPID" 2>/dev/null || break; sleep 0.025; done
PORT=$(sed -n 's/.* listening url=http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$WORK/understudy.log" | head -1)
[ -n "$PORT" ] || { cat "$WORK/understudy.log" >&2; fail "understudy did not start"; }
BASE="http://127.0.0.1:$PORT"
curl -sf "$BASE/__admin/ready" >/dev/null || fail "understudy is not ready on $BASE"
# rss_kb → "RSS_KB HEAP_KB": the resident set, and the heap's live bytes as the server's metrics
# report them ("-" without glibc): RSS that rises while the live heap does not is freed memory the
# allocator keeps, not a leak.
rss_kb() {
  local heap
  heap=$(curl -s "$BASE/__admin/metrics" | awk '$1 == "understudy_heap_in_use_bytes" { printf "%d", $2 / 1024 }')
  echo "$(awk '/VmRSS/ { print $2 }' "/proc/$UPID/status") ${heap:--}"
}
sleep 1
echo "idle $(rss_kb)" > "$WORK/rss.txt"

echo "seeding (project, 10 links, Asleep user + open and finished sessions, WarrantyLife user/voucher/item/event, trips)…"
python3 "$HERE/prepare.py" setup "$BASE" "$WORK" > "$WORK/env.sh" || fail "seeding"
# shellcheck disable=SC1091
source "$WORK/env.sh"
# shellcheck source=Benchmarks/hotpaths/routes.sh
source "$HERE/routes.sh"
route_env

cpu_ticks() { local t=0 pid; for pid in "$@"; do t=$((t + $(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$pid/stat"))); done; echo "$t"; }
# Context switches per live thread ("tid count"): a run's count is the growth of each thread alive at its
# end (threads that exit during a run take theirs with them, so this never goes negative, it may undercount).
context_switches() {
  local pid
  for pid in "$@"; do
    awk '/^(non)?voluntary_ctxt_switches/ { split(FILENAME, p, "/"); n[p[3] "/" p[5]] += $2 } END { for (t in n) print t, n[t] }' /proc/"$pid"/task/*/status 2>/dev/null || true
  done
}
HZ=$(getconf CLK_TCK)
# measure PIDS COMMAND… → "rps p50_us p99_us p999_us max_us status_errors socket_errors requests cpu_us/req ctxsw/req"
measure() {
  local pids=$1; shift
  local t0 t1 s1
  # shellcheck disable=SC2086
  t0=$(cpu_ticks $pids); context_switches $pids > "$WORK/ctx0.txt"
  "$@" > "$WORK/wrk.txt" 2>&1 || { cat "$WORK/wrk.txt" >&2; fail "wrk: $*"; }
  # shellcheck disable=SC2086
  t1=$(cpu_ticks $pids); context_switches $pids > "$WORK/ctx1.txt"
  s1=$(awk 'NR == FNR { b[$1] = $2; next } { d += $2 - ($1 in b ? b[$1] : 0) } END { print d + 0 }' "$WORK/ctx0.txt" "$WORK/ctx1.txt")
  grep '^wrkstats' "$WORK/wrk.txt" | tail -1 | awk -v dt=$((t1 - t0)) -v ds="$s1" -v hz="$HZ" \
    '{ n = ($2 > 0 ? $2 : 1); printf "%.1f %d %d %d %d %d %d %d %.2f %.3f\n", $2 * 1e6 / $3, $4, $5, $6, $7, $8, $9, $2, dt * 1e6 / hz / n, ds / n }'
}
# tail_marks → "STEAL_TICKS SLOW_25MS SLOW_100MS LOOP_25MS LOOP_100MS WRITES TRANSACTIONS", to tell a slow request's cause: the
# machine's stolen CPU time so far (/proc/stat: time the hypervisor ran something else while this machine's
# CPUs had work); how many requests the server itself timed at 25 ms or more and at 100 ms or more (its
# request-duration histogram, every platform), from its arrival to its answer; and how often one of its
# event loops stayed busy 25 ms or more and 100 ms or more at a stretch (requests arriving meanwhile wait
# unread, before their timing starts). A wrk worst request that none of these account for waited outside
# the server: in the kernel, behind the CPU, or in wrk. The last two count the main database's committed writes and the
# transactions that held them (0 where the server does not count them), for the report's writes per request.
tail_marks() {
  local steal
  steal=$(awk '$1 == "cpu" { print $9 + 0 }' /proc/stat)
  curl -s "$BASE/__admin/metrics" | awk -v steal="$steal" '
    /^understudy_request_duration_seconds_count/ { n += $NF }
    /^understudy_request_duration_seconds_bucket/ && /le="0.025"/ { a += $NF }
    /^understudy_request_duration_seconds_bucket/ && /le="0.1"/ { b += $NF }
    /^understudy_event_loop_busy_stretches_total/ && /over="0.025"/ { c += $NF }
    /^understudy_event_loop_busy_stretches_total/ && /over="0.1"/ { d += $NF }
    /^understudy_database_writes_total/ && /database="main"/ { w += $NF }
    /^understudy_database_transactions_total/ && /database="main"/ { t += $NF }
    END { printf "%d %d %d %d %d %d %d\n", steal, n - a, n - b, c, d, w, t }'
}
# tail_delta BEFORE AFTER → "STEAL_MS SLOW_25MS SLOW_100MS LOOP_25MS LOOP_100MS WRITES TRANSACTIONS" of the run between the two marks.
tail_delta() {
  local s0 a0 b0 c0 d0 w0 t0 s1 a1 b1 c1 d1 w1 t1
  read -r s0 a0 b0 c0 d0 w0 t0 <<< "$1"; read -r s1 a1 b1 c1 d1 w1 t1 <<< "$2"
  echo "$(( (s1 - s0) * 1000 / HZ )) $((a1 - a0)) $((b1 - b0)) $((c1 - c0)) $((d1 - d0)) $((w1 - w0)) $((t1 - t0))"
}
# Wait until the server has answered what a run left queued (wrk stops waiting, the server does not).
settle() {
  local quiet=0 t
  for _ in $(seq 60); do
    t=$(curl -s -o /dev/null -w '%{time_total}' "$BASE/__admin/health")
    if awk -v t="$t" 'BEGIN { exit !(t < 0.005) }'; then quiet=$((quiet + 1)); [ $quiet -ge 3 ] && return; else quiet=0; fi
    sleep 0.05
  done
}

mkdir -p "$WORK/static" "$WORK/nginx"
# nginx's workers run as an unprivileged user: they must be able to walk into WORK and read the files.
chmod o+x "$WORK"; chmod 755 "$WORK/static"
echo "sanity checks (curl; each response is kept as nginx's file of the same size):"
for name in $ROUTES; do check "$name"; done
echo "sanity checks (the wrk scripts' first request):"
CHECK_PIDS=()
for name in $ROUTES; do
  prep "$name" 1
  ( WRK_CHECK=1 wrk_route "$name" -t1 -c1 -d1s > "$WORK/wrk-check-$name.txt" 2>&1 ) &
  CHECK_PIDS+=($!)
done
for pid in "${CHECK_PIDS[@]}"; do wait "$pid" || true; done
for name in $ROUTES; do
  spec "$name"
  line=$(grep -m1 '^wrk-check' "$WORK/wrk-check-$name.txt" || true)
  [ "$(echo "$line" | cut -d' ' -f2)" = "$EXPECT" ] || { cat "$WORK/wrk-check-$name.txt" >&2; fail "wrk's request for $name did not answer $EXPECT"; }
  echo "  ✓ $LABEL → ${line#wrk-check }" | cut -c1-150
done

# --- nginx: the captured bodies as static files, keep-alive, no access log ---------------------------
NGINX_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$WORK/nginx/nginx.conf" <<CONF
worker_processes auto;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  types { application/json json; }
  client_body_temp_path $WORK/nginx; proxy_temp_path $WORK/nginx; fastcgi_temp_path $WORK/nginx; uwsgi_temp_path $WORK/nginx; scgi_temp_path $WORK/nginx;
  server {
    listen 127.0.0.1:$NGINX_PORT; root $WORK/static;
    # The upload's own references: the same 30 KB bodies, read and dropped, or stored in a file each.
    location /sink/ { client_body_buffer_size 64k; default_type application/json; return 200 '{"detail":"success"}'; }
    location /dav/ { root $WORK; client_body_buffer_size 64k; dav_methods PUT; }
  }
}
CONF
mkdir -p "$WORK/dav"; chmod 777 "$WORK/dav"
chmod o+r "$WORK"/static/*.json
nginx -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx"
sleep 0.3
NGINX_PIDS="$(cat "$WORK/nginx/nginx.pid") $(pgrep -P "$(cat "$WORK/nginx/nginx.pid")" | tr '\n' ' ')"
for name in $ROUTES; do
  [ "$(curl -s -o /dev/null -w '%{http_code} %{size_download}' "http://127.0.0.1:$NGINX_PORT/$name.json")" = "200 $(wc -c < "$WORK/static/$name.json")" ] \
    || fail "nginx does not serve $name.json"
done
# nginx_upload KIND wrk-flags… : the upload's bodies to nginx, as PUTs to /KIND/ (sink: read and dropped; dav: stored).
nginx_upload() {
  local kind=$1; shift
  PUT_PREFIX="/$kind/" WRK_INNER="$PLAT/asleep_upload.lua" wrk "$@" --timeout "$WRK_TIMEOUT" -s "$HERE/stats.lua" "http://127.0.0.1:$NGINX_PORT/"
}
if [[ " $ROUTES " == *" upload "* ]]; then
  head -c 30720 /dev/zero > "$WORK/upload-probe"
  for kind in sink dav; do
    status=$(curl -s -o /dev/null -w '%{http_code}' -X PUT --data-binary @"$WORK/upload-probe" "http://127.0.0.1:$NGINX_PORT/$kind/probe.npy")
    [[ $status == 20[01] ]] || fail "nginx's $kind reference answers a 30 KB PUT with $status"
  done
  [ "$(wc -c < "$WORK/dav/probe.npy")" = 30720 ] || fail "nginx's dav reference did not store the body"
fi

echo "warming up…"
for name in $ROUTES; do prep "$name" 1; wrk_route "$name" -t1 -c4 -d1s > /dev/null 2>&1; done
wrk -t1 -c4 -d1s "http://127.0.0.1:$NGINX_PORT/$(echo "$ROUTES" | awk '{ print $1 }').json" > /dev/null 2>&1

# --- the rounds: for each route and connection count, nginx (same-size file) then the route ------------
RESULTS="$WORK/results.txt"; : > "$RESULTS"
echo "measuring: ROUNDS=$ROUNDS × wrk -t1 -c16 and -c1, -d${DURATION}s, nginx then the route"
for round in $(seq "$ROUNDS"); do
  for name in $ROUTES; do
    for conns in 16 1; do
      nginx_row=$(measure "$NGINX_PIDS" wrk -t1 -c"$conns" -d"${DURATION}s" --timeout "$WRK_TIMEOUT" -s "$HERE/stats.lua" "http://127.0.0.1:$NGINX_PORT/$name.json")
      if [ "$name" = upload ]; then
        for kind in sink dav; do
          echo "reference $round $name $conns $kind $(measure "$NGINX_PIDS" nginx_upload "$kind" -t1 -c"$conns" -d"${DURATION}s")" >> "$RESULTS"
        done
      fi
      prep "$name" 1
      marks=$(tail_marks)
      route_row=$(measure "$UPID" wrk_route "$name" -t1 -c"$conns" -d"${DURATION}s")
      echo "main $round $name $conns $(wc -c < "$WORK/static/$name.json") $nginx_row $route_row $(tail_delta "$marks" "$(tail_marks)")" >> "$RESULTS"
      read -r rps p50 p99 _ _ bad sock _ cpu _ <<< "$route_row"
      printf "  round %s %-28s c%-2s %9s req/s  p50 %6s µs  p99 %7s µs  CPU %7s µs/req  (nginx %s µs/req)%s\n" "$round" "$(spec "$name"; echo "$LABEL")" \
        "$conns" "$rps" "$p50" "$p99" "$cpu" "$(echo "$nginx_row" | cut -d' ' -f9)" "$([ "$bad$sock" = 00 ] || echo "  !! $bad non-2xx, $sock socket errors")"
      case $name in match|upload|sensor) settle ;; esac
    done
  done
  echo "round$round $(rss_kb)" >> "$WORK/rss.txt"
  # And at rest: an idle server hands the heap a round freed back (report.py's REST_SECONDS).
  sleep 3; echo "rest$round $(rss_kb)" >> "$WORK/rss.txt"
done
# What the failed answers were (wrk only counts them): the journal keeps each one with its body.
python3 "$HERE/prepare.py" failures "$BASE" "$PROJECT" >> "$RESULTS" || echo "  (could not read the journal's failures)" >&2

# --- ingest: 1,000-sample gzip batches, wrk -t$INGEST_THREADS -c16 (telemetry: one fresh user per connection) -
echo "ingest (1,000 samples per batch):"
check telemetry; check readings
wrk_route readings -t1 -c4 -d1s > /dev/null 2>&1
for round in $(seq "$ROUNDS"); do
  for name in telemetry readings; do
    prep "$name" "$INGEST_THREADS"
    row=$(measure "$UPID" wrk_route "$name" -t"$INGEST_THREADS" -c16 -d"${DURATION}s")
    read -r rps _ p99 _ _ bad sock reqs cpu _ <<< "$row"
    note=""
    if [ "$name" = telemetry ]; then
      read -r first n < "$WORK/last-users"
      read -r batches _ short < <(python3 "$PLAT/seed.py" batches "$BASE" "$PROJECT" "$(seq -s, "$first" $((first + n - 1)))")
      [ "$short" -eq 0 ] || fail "telemetry: $short batches accepted fewer than 1,000 samples"
      [ "$batches" -ge $((reqs - bad)) ] || fail "telemetry: $batches batches stored for $reqs answered uploads"
      note="  ($batches batches stored)"
    fi
    echo "ingest $round $name $row" >> "$RESULTS"
    printf "  round %s %-10s %9.0f samples/s  %6s µs CPU/sample  p99 %s µs%s%s\n" "$round" "$name" "$(awk -v r="$rps" 'BEGIN { print r * 1000 }')" \
      "$(awk -v c="$cpu" 'BEGIN { printf "%.3f", c / 1000 }')" "$p99" "$note" "$([ "$bad$sock" = 00 ] || echo "  !! $bad non-2xx, $sock socket errors")"
    settle
  done
done
echo "ingest $(rss_kb)" >> "$WORK/rss.txt"

# --- flatness: the same requests in a project with 10 and in one with FLAT_ROWS links / vouchers / trips ----
# Both projects live in the same server and are measured alternately in every round (small then large,
# then large then small), so that the machine's drift weighs on both alike: measured one after the other,
# a single route's ratio swung by ±30 % from run to run.
if [ -z "${SKIP_FLATNESS:-}" ]; then
  python3 "$HERE/prepare.py" flat "$BASE" SMALL flatness-10 > "$WORK/flat-small.sh" || fail "seeding the small flatness project"
  python3 "$HERE/prepare.py" flat "$BASE" LARGE "flatness-$FLAT_ROWS" > "$WORK/flat-large.sh" || fail "seeding the large flatness project"
  # shellcheck disable=SC1091
  source "$WORK/flat-small.sh"; source "$WORK/flat-large.sh"
  flat_var() { local name="$1_$2"; echo "${!name}"; } # SIDE NAME → $SIDE_NAME
  flat_wrk() { # SIDE NAME wrk-flags…
    local side=$1 name=$2; shift 2
    case $name in
      resolve) wrk "$@" -s "$HERE/stats.lua" -H "Authorization: Bearer $(flat_var "$side" WL_SDK_KEY)" -H "User-Agent: WarpLink-Android/1.1.0" \
                 "$BASE/warplink/v1/links/resolve/flat3?domain=aplnk.to" ;;
      voucher) wrk "$@" -s "$HERE/stats.lua" -H "X-WL-Developer-Key: $(flat_var "$side" WL_DEV_KEY)" -H "Authorization: $(flat_var "$side" WL_AUTH)" \
                 "$WLM/vouchers/FLAT3?isPlanTransfer=false&activeWarrantiesInCurrentDevice=0&deviceId=FLAT-DEVICE" ;;
      trips)   wrk "$@" -s "$HERE/stats.lua" -H "Authorization: Bearer $(flat_var "$side" TM_TOKEN)" "$BASE/telematics/api/v1/trips" ;;
    esac
  }
  flat_check() { # SIDE: each request answers what it did with 10 rows
    local a b c
    a=$(curl -s -H "Authorization: Bearer $(flat_var "$1" WL_SDK_KEY)" "$BASE/warplink/v1/links/resolve/flat3?domain=aplnk.to" | grep -c '"slug":"flat3"' || true)
    b=$(curl -s -H "X-WL-Developer-Key: $(flat_var "$1" WL_DEV_KEY)" -H "Authorization: $(flat_var "$1" WL_AUTH)" \
      "$WLM/vouchers/FLAT3?isPlanTransfer=false&activeWarrantiesInCurrentDevice=0&deviceId=FLAT-DEVICE" | grep -c '"voucherCode":"FLAT3"' || true)
    c=$(curl -s -H "Authorization: Bearer $(flat_var "$1" TM_TOKEN)" "$BASE/telematics/api/v1/trips" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
    [ "$a$b$c" = "1110" ] || fail "flatness ($1 project): resolve $a, voucher $b, trips $c (expected 1 1 10)"
  }
  bulk() { # ROUTE BODY COUNT [ALLOWED-FAILURES] → "<created> <seconds>"
    local started out=$WORK/bulk.out w
    started=$(date +%s%N); : > "$out"
    PATH_=$1 BODY=$2 COUNT=$3 wrk -t1 -c16 -d3600s --timeout 30s -s "$HERE/bulk.lua" "$BASE" > "$out" 2>&1 &
    w=$!
    until grep -q '^bulk [0-9]' "$out"; do kill -0 "$w" 2>/dev/null || break; sleep 0.1; done
    kill -INT "$w" 2>/dev/null || true; wait "$w" 2>/dev/null || true
    read -r _ created failed < <(grep -m1 '^bulk [0-9]' "$out" || echo "bulk 0 $3")
    [ "$failed" -le "${4:-0}" ] || { cat "$out" >&2; fail "bulk seeding of $1: $failed failures"; }
    echo "$created $(awk -v ns=$(( $(date +%s%N) - started )) 'BEGIN { printf "%.1f", ns / 1e9 }')"
  }
  FADMIN="/__admin/projects/$LARGE_PROJECT"
  MORE=$((FLAT_ROWS - 10))
  echo "flatness: seeding $MORE more links, vouchers, trips, items and warranties into the large project through the control plane (16 connections)…"
  read -r L_N L_S < <(bulk "$FADMIN/warplink/links" '{"slug":"many%d","destination_url":"https://example.com/m%d"}' "$MORE")
  read -r V_N V_S < <(bulk "$FADMIN/warrantylife/vouchers" '{"code":"MANY%d"}' "$MORE")
  read -r T_N T_S < <(bulk "$FADMIN/telematics/trips" '{"userId":8,"startedAt":"%t","endedAt":"%e","distanceKm":12}' "$MORE")
  # Other devices registered and covered: a voucher lookup reads its own device's warranties among theirs.
  read -r I_N I_S < <(bulk "$FADMIN/warrantylife/items" '{"deviceId":"MANY-DEVICE-%d","ownerEmail":"many@example.com"}' "$MORE")
  # 16 fewer, so that the requests in flight when the count is reached name devices that exist; and a
  # few 404s allowed: now and then wrk drops a request it made (its device number is never sent), so
  # that device has no item to cover.
  read -r W_N W_S < <(bulk "$FADMIN/warrantylife/warranties" '{"deviceId":"MANY-DEVICE-%d"}' "$((MORE - 16))" 64)
  LINKS=$(curl -s "$BASE$FADMIN/warplink/links?limit=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["total"])')
  [ "$LINKS" -ge "$FLAT_ROWS" ] || fail "the large flatness project has $LINKS links, expected ≥ $FLAT_ROWS"
  echo "seed links $L_N $L_S $LINKS" >> "$RESULTS"; echo "seed vouchers $V_N $V_S" >> "$RESULTS"; echo "seed trips $T_N $T_S" >> "$RESULTS"
  echo "seed items $I_N $I_S" >> "$RESULTS"; echo "seed warranties $W_N $W_S" >> "$RESULTS"
  echo "  links: $L_N in $L_S s ($LINKS in the project); vouchers: $V_N in $V_S s; trips: $T_N in $T_S s"
  for side in SMALL LARGE; do
    flat_check "$side"
    for name in resolve voucher trips; do flat_wrk "$side" "$name" -t1 -c4 -d1s > /dev/null 2>&1; done
  done
  echo "flatness: 10 against $FLAT_ROWS rows of each, alternating"
  for round in $(seq "$ROUNDS"); do
    order="SMALL LARGE"; [ $((round % 2)) -eq 0 ] && order="LARGE SMALL"
    for name in resolve voucher trips; do
      for conns in 16 1; do
        for side in $order; do
          rows=10; [ "$side" = LARGE ] && rows=$FLAT_ROWS
          row=$(measure "$UPID" flat_wrk "$side" "$name" -t1 -c"$conns" -d"${DURATION}s" --timeout "$WRK_TIMEOUT")
          echo "flat $round $rows $name $conns $row" >> "$RESULTS"
        done
      done
    done
    echo "  round $round: measured"
  done
  echo "flatness $(rss_kb)" >> "$WORK/rss.txt"
fi

ELAPSED=$(( $(date +%s) - STARTED ))
# The sampler stops first, so that the shutdown is not in its figures; then the server, whose shutdown
# log says how long each writer spent in its checkpoint turns (every write queued meanwhile waited).
if [ -n "$WAITS_PID" ]; then kill -INT "$WAITS_PID" 2>/dev/null || true; wait "$WAITS_PID" 2>/dev/null || true; fi
kill -TERM "$UPID" 2>/dev/null || true; wait "$UPID" 2>/dev/null || true; UPID=""
echo
{
  python3 "$HERE/report.py" "$RESULTS" "$WORK/rss.txt" "$ROUNDS" "$DURATION" "$ELAPSED" "$BIN" "$INGEST_THREADS"
  # "database writes writes=… longest_writer_checkpoint_ms=…" → one line per SQLite file.
  grep -E ' INFO (database|journal) writes ' "$WORK/understudy.log" | sed 's/.* INFO //' | awk '
    { for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
      name = ($1 == "database" ? "main database" : "journal file")
      if (!shown++) print ""
      printf "- %s: %s writes in %s transactions; %s checkpoints, of which the writer copied %s of %s frames", name, v["writes"],
        v["transactions"], v["checkpoints"], v["writer_checkpoint_frames"], v["writer_checkpoint_frames"] + v["background_checkpoint_frames"]
      printf " in turns of %s ms in all, the longest %s ms (writes queued meanwhile waited)\n", v["writer_checkpoint_ms"], v["longest_writer_checkpoint_ms"] }'
  if [ -s "$WORK/waits.md" ]; then echo; cat "$WORK/waits.md"; fi
} | tee "$OUT"
echo
echo "written to $OUT"
