#!/usr/bin/env bash
# Platform hot-path benchmark: each platform's busiest SDK route against a release build, as a ratio to
# GET /__admin/health measured in the same run (health runs alternate with the targets; medians of ROUNDS).
# Journal on (the default). wrk with keep-alive on loopback.
#
#   Benchmarks/platforms.sh                 # build release, then measure (~4 minutes)
#   SKIP_BUILD=1 Benchmarks/platforms.sh    # reuse the last release build
#   DURATION=4 THREADS=2 CONNECTIONS=16 ROUNDS=3 PORT=18190 Benchmarks/platforms.sh
#
# Targets: WarpLink resolve (10 links, then 10,000) and attribution match; Asleep 30 KB multipart upload
# (distinct seq_num per request); WarrantyLife gzip readings (1,000 per batch) and voucher lookup;
# Telematics telemetry (1,000 samples per batch, distinct batchId and sample times) and the trips list
# (1,000 trips). "c1" rows are single-connection latency probes (their ratio is not comparable).
# Timings on shared machines are noisy: read the ratios, not the absolute numbers.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-4}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-16}
ROUNDS=${ROUNDS:-3}
PROBE_DURATION=${PROBE_DURATION:-2}
PORT=${PORT:-18190}
WRK_TIMEOUT=${WRK_TIMEOUT:-10s}
HERE=Benchmarks/platforms
BASE="http://127.0.0.1:$PORT"
WORK=$(mktemp -d /tmp/understudy-platforms.XXXXXX)
UPID=""
cleanup() {
  if [ -n "$UPID" ]; then kill "$UPID" 2>/dev/null || true; wait "$UPID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() { echo "FAILED: $*" >&2; exit 1; }

need() { command -v "$1" >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq "$2" >/dev/null; }; }
need wrk wrk
need curl curl
need python3 python3

if [ -z "${SKIP_BUILD:-}" ]; then swift build -c release --product understudy 2>&1 | tail -1; fi
BIN="$(swift build -c release --show-bin-path)/understudy"
[ -x "$BIN" ] || fail "no release binary at $BIN (run without SKIP_BUILD)"
STARTED=$(date +%s)

"$BIN" --port "$PORT" --https-port 0 --proxy-port 0 --database "$WORK/bench.sqlite" --no-request-log 2> "$WORK/understudy.log" &
UPID=$!
for _ in $(seq 400); do curl -sf "$BASE/__admin/ready" >/dev/null 2>&1 && break; kill -0 "$UPID" 2>/dev/null || break; sleep 0.025; done
curl -sf "$BASE/__admin/ready" >/dev/null || { cat "$WORK/understudy.log" >&2; fail "understudy did not become ready on port $PORT"; }

echo "seeding a fresh project (10 links, Asleep user + session, WarrantyLife user/voucher/item/event, 1,000 trips)…"
python3 "$HERE/seed.py" setup "$BASE" "$WORK" > "$WORK/env.sh" || fail "seeding"
# shellcheck disable=SC1091
source "$WORK/env.sh"
ADMIN="$BASE/__admin/projects/$PROJECT"
WLM="/warrantylife/mapi/wi/100"
echo "  project $PROJECT; readings batch: $WL_READINGS_RAW bytes of JSON, $WL_READINGS_GZ gzipped"

# --- sanity: every endpoint answers what the docs say before anything is measured ----------------------
# check NAME EXPECTED_STATUS BODY_GREP curl-args…
check() {
  local name=$1 expected=$2 pattern=$3; shift 3
  local status
  status=$(curl -s -o "$WORK/check.body" -w '%{http_code}' "$@") || status="curl-error"
  if [ "$status" != "$expected" ] || ! grep -q -- "$pattern" "$WORK/check.body"; then
    echo "  ✗ $name: HTTP $status (expected $expected with /$pattern/): $(head -c 400 "$WORK/check.body")" >&2
    fail "sanity check of $name"
  fi
  echo "  ✓ $name → $status $(head -c 110 "$WORK/check.body" | tr '\n' ' ')…"
}
echo "sanity checks (curl):"
check "health" 200 '"ok"' "$BASE/__admin/health"
check "warplink resolve" 200 '"slug":"bench3"' -H "Authorization: Bearer $WL_SDK_KEY" -H "User-Agent: WarpLink-Android/1.1.0" \
  "$BASE/warplink/v1/links/resolve/bench3?domain=aplnk.to"
check "warplink match" 200 '"matched"' -X POST -H "Authorization: Bearer $WL_SDK_KEY" -H "User-Agent: WarpLink-Android/1.1.0" \
  -H "Content-Type: application/json" --data-binary @"$WORK/match.json" "$BASE/warplink/v1/attribution/match"
check "asleep upload" 200 '"seq_num":0' -X POST -H "x-api-key: $ASLEEP_KEY" -H "x-user-id: $ASLEEP_USER" -H "User-Agent: AsleepSDK/3.3.0" \
  -F seq_num=0 -F "file=@$WORK/chunk.npy;filename=0.npy;type=application/octet-stream" "$BASE/asleep/ai/v1/sessions/$ASLEEP_SESSION/upload"
check "warrantylife readings" 201 '"received":1000' -X POST -H "X-WL-Developer-Key: $WL_DEV_KEY" -H "Authorization: $WL_AUTH" \
  -H "Content-Encoding: gzip" -H "Content-Type:" --data-binary @"$WORK/readings.json.gz" "$BASE$WLM/items/$WL_ITEM/events/$WL_EVENT/readings"
check "warrantylife voucher" 200 '"voucherCode":"BENCH"' -H "X-WL-Developer-Key: $WL_DEV_KEY" -H "Authorization: $WL_AUTH" \
  "$BASE$WLM/vouchers/BENCH?isPlanTransfer=false&activeWarrantiesInCurrentDevice=0&deviceId=BENCH-DEVICE"
check "telematics telemetry" 202 '"accepted":1000' -X POST -H "Authorization: Bearer $TM_SANITY_TOKEN" -H "Content-Type: application/json" \
  --data-binary @"$WORK/telemetry-sanity.json" "$BASE/telematics/api/v1/telemetry"
check "telematics telemetry (same batchId)" 200 '"duplicate":true' -X POST -H "Authorization: Bearer $TM_SANITY_TOKEN" \
  -H "Content-Type: application/json" --data-binary @"$WORK/telemetry-sanity.json" "$BASE/telematics/api/v1/telemetry"
check "telematics trips" 200 '"distanceKm"' -H "Authorization: Bearer $TM_TRIPS_TOKEN" "$BASE/telematics/api/v1/trips"
TRIPS=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$WORK/check.body")
[ "$TRIPS" -ge 1000 ] || fail "trips list has $TRIPS trips, expected ≥ 1000"
echo "  ✓ trips list holds $TRIPS trips"

# --- targets ------------------------------------------------------------------------------------------
# Each target is a function that runs wrk with "$@" (duration/threads/connections flags) and may do
# per-run preparation (fresh sessions or tokens) and a post-check (export CHECK_NOTE / fail).
RUN=0
ASLEEP_H=(-H "x-api-key: $ASLEEP_KEY" -H "User-Agent: AsleepSDK/3.3.0")
t_health()   { wrk "$@" -s "$HERE/static.lua" "$BASE/__admin/health"; }
t_resolve()  { wrk "$@" -s "$HERE/static.lua" -H "Authorization: Bearer $WL_SDK_KEY" -H "User-Agent: WarpLink-Android/1.1.0" \
                 "$BASE/warplink/v1/links/resolve/bench3?domain=aplnk.to"; }
t_match()    { WRK_METHOD=POST WRK_BODY_FILE="$WORK/match.json" wrk "$@" -s "$HERE/static.lua" -H "Authorization: Bearer $WL_SDK_KEY" \
                 -H "User-Agent: WarpLink-Android/1.1.0" -H "Content-Type: application/json" "$BASE/warplink/v1/attribution/match"; }
t_readings() { WRK_METHOD=POST WRK_BODY_FILE="$WORK/readings.json.gz" wrk "$@" -s "$HERE/static.lua" -H "X-WL-Developer-Key: $WL_DEV_KEY" \
                 -H "Authorization: $WL_AUTH" -H "Content-Encoding: gzip" "$BASE$WLM/items/$WL_ITEM/events/$WL_EVENT/readings"; }
t_voucher()  { wrk "$@" -s "$HERE/static.lua" -H "X-WL-Developer-Key: $WL_DEV_KEY" -H "Authorization: $WL_AUTH" \
                 "$BASE$WLM/vouchers/BENCH?isPlanTransfer=false&activeWarrantiesInCurrentDevice=0&deviceId=BENCH-DEVICE"; }
t_trips()    { wrk "$@" -s "$HERE/static.lua" -H "Authorization: Bearer $TM_TRIPS_TOKEN" "$BASE/telematics/api/v1/trips"; }
t_upload() {
  local threads sessions
  threads=$(printf '%s\n' "$@" | sed -n 's/^-t//p' | head -1)
  sessions=$(python3 "$HERE/seed.py" sessions "$BASE" "$ASLEEP_KEY" $((threads * 4)))
  THREAD_COUNT=$threads SESSIONS=$sessions wrk "$@" -s "$HERE/asleep_upload.lua" "${ASLEEP_H[@]}" "$BASE/"
  [ -n "${WRK_CHECK:-}" ] || echo "$sessions" > "$WORK/last-sessions"
}
t_telemetry() {
  local threads connections tokens per
  threads=$(printf '%s\n' "$@" | sed -n 's/^-t//p' | head -1)
  connections=$(printf '%s\n' "$@" | sed -n 's/^-c//p' | head -1)
  # One user per connection, taken in turn by its thread, so each user's batches arrive in order.
  per=$(( ${connections:-$threads} / threads )); [ "$per" -ge 1 ] || per=1
  RUN=$((RUN + 1))
  tokens=$(python3 "$HERE/seed.py" tokens "$BASE" "$PROJECT" $((1000 + RUN * 100)) $((threads * per)))
  [ -n "${WRK_CHECK:-}" ] || echo "$((1000 + RUN * 100)) $((threads * per))" > "$WORK/last-users"
  # Sample times: 30 days back, whole 1,000 s batches; every run has its own users, so no sample repeats.
  TOKENS=$tokens USERS_PER_THREAD=$per RUN=$RUN START_MS=$(( ($(date +%s) - 30 * 86400) / 1000 * 1000000 )) \
    wrk "$@" -s "$HERE/telemetry.lua" "$BASE/telematics/api/v1/telemetry"
}

# After a run, verify the writes really happened (wrk only sees statuses).
postcheck() { # $1 target, $2 completed requests, $3 non-2xx
  case $1 in
    upload)
      local got; got=$(python3 "$HERE/seed.py" chunks "$BASE" "$PROJECT" "$(cat "$WORK/last-sessions")")
      # the WRK_CHECK probe and requests in flight when wrk stopped may add a few
      [ "$got" -ge $(($2 - $3)) ] || fail "asleep: $got chunks stored for $2 completed uploads ($3 non-2xx)"
      POSTCHECK="${got} chunks stored" ;;
    telemetry)
      local first n users
      read -r first n < "$WORK/last-users"
      users=$(seq -s, "$first" $((first + n - 1)))
      read -r batches accepted short < <(python3 "$HERE/seed.py" batches "$BASE" "$PROJECT" "$users")
      [ "$short" -eq 0 ] || fail "telematics: $short batches accepted fewer than 1,000 samples"
      [ "$batches" -ge $(($2 - $3)) ] || fail "telematics: $batches batches stored for $2 completed uploads"
      POSTCHECK="${batches} batches, ${accepted} samples stored" ;;
    *) POSTCHECK="" ;;
  esac
}

# wrk output → "rps p50_ms p99_ms non2xx socket_errors requests"
parse() {
  awk '
    function ms(v) { if (v ~ /us$/) return v/1000; if (v ~ /ms$/) return v+0; if (v ~ /m$/) return v*60000; if (v ~ /s$/) return v*1000; return v }
    /Requests\/sec/ { rps=$2 }
    $1=="50%" { p50=ms($2) }
    $1=="99%" { p99=ms($2) }
    /Non-2xx/ { bad=$NF }
    /Socket errors/ { gsub(",", ""); err=$4+$6+$8+$10 }
    / requests in / { reqs=$1 }
    END { printf "%.1f %.3f %.3f %d %d %d\n", rps, p50, p99, bad, err, reqs }' "$1"
}

# Wait until the server has drained what a slow target left queued (wrk stops waiting, the server does not).
settle() {
  local quiet=0 t
  for _ in $(seq 100); do
    t=$(curl -s -o /dev/null -w '%{time_total}' "$BASE/__admin/health")
    if awk -v t="$t" 'BEGIN { exit !(t < 0.004) }'; then quiet=$((quiet + 1)); [ $quiet -ge 3 ] && return; else quiet=0; fi
    sleep 0.05
  done
}

RESULTS="$WORK/results.txt"
: > "$RESULTS"
SEQ=0
# measure ROUND LABEL TARGET PER_REQ UNIT [probe]
measure() {
  local round=$1 label=$2 target=$3 per=$4 unit=$5 probe=${6:-}
  local flags=(-t"$THREADS" -c"$CONNECTIONS" -d"${DURATION}s")
  [ -n "$probe" ] && flags=(-t1 -c1 -d"${PROBE_DURATION}s")
  "t_$target" "${flags[@]}" --latency --timeout "$WRK_TIMEOUT" > "$WORK/wrk.txt" 2>&1 || { cat "$WORK/wrk.txt" >&2; fail "wrk on $label"; }
  read -r rps p50 p99 bad err reqs < <(parse "$WORK/wrk.txt")
  postcheck "$target" "$reqs" "$bad"
  SEQ=$((SEQ + 1))
  echo "$round $SEQ $label $rps $p50 $p99 $bad $err $reqs $per $unit ${probe:-t}" >> "$RESULTS"
  printf "  round %s %-34s %9s req/s  p50 %8s ms  p99 %8s ms  non2xx %s  sockerr %s  %s\n" "$round" "$label" "$rps" "$p50" "$p99" "$bad" "$err" "$POSTCHECK"
  [ "$bad" = 0 ] || echo "    ! $bad non-2xx responses on $label" >&2
  [ "$target" = health ] || settle
}

# The exact requests wrk will send (Lua-built bodies included) must succeed too: one request each.
echo "sanity checks (the wrk scripts' first request):"
# (in parallel: wrk waits out -d1s even after the first answer; RUN=900 keeps their batch ids and users apart)
CHECKS=("health 200" "resolve 200" "match 200" "upload 200" "readings 201" "voucher 200" "telemetry 202" "trips 200")
CHECK_PIDS=()
for spec in "${CHECKS[@]}"; do
  read -r target want <<< "$spec"
  ( RUN=900; WRK_CHECK=1 "t_$target" -t1 -c1 -d1s > "$WORK/wrk-check-$target.txt" 2>&1 ) &
  CHECK_PIDS+=($!)
done
for pid in "${CHECK_PIDS[@]}"; do wait "$pid" || true; done
for spec in "${CHECKS[@]}"; do
  read -r target want <<< "$spec"
  line=$(grep -m1 '^wrk-check' "$WORK/wrk-check-$target.txt" || true)
  [ "$(echo "$line" | cut -d' ' -f2)" = "$want" ] || { cat "$WORK/wrk-check-$target.txt" >&2; fail "wrk request for $target did not answer $want"; }
  echo "  ✓ $target → ${line#wrk-check }" | cut -c1-150
done

echo "warming up…"
for target in health resolve match voucher; do "t_$target" -t1 -c4 -d1s > /dev/null 2>&1; done

echo "phase 1: 10 links — ROUNDS=$ROUNDS × wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, health between every two targets"
for round in $(seq "$ROUNDS"); do
  measure "$round" health health 1 -
  measure "$round" "warplink_resolve_(10_links)" resolve 1 -
  measure "$round" "warplink_resolve_(10_links)_c1" resolve 1 - probe
  measure "$round" warplink_attribution_match match 1 -
  measure "$round" health health 1 -
  measure "$round" "asleep_upload_(30_KB_multipart)" upload 1 -
  measure "$round" "warrantylife_readings_(1,000/batch)" readings 1000 readings/s
  measure "$round" health health 1 -
  measure "$round" warrantylife_voucher_lookup voucher 1 -
  measure "$round" "telematics_telemetry_(1,000/batch)" telemetry 1000 samples/s
  measure "$round" health health 1 -
  measure "$round" "telematics_trips_list_(1,000_trips)" trips 1 -
  measure "$round" health health 1 -
done

echo "seeding 9,990 more links (10,000 in the project)…"
LINKS=$(python3 "$HERE/seed.py" links "$BASE" "$PROJECT" 9990) || fail "seeding links"
[ "$LINKS" -eq 10000 ] || fail "the project has $LINKS links, expected 10,000"
check "warplink resolve (10,000 links)" 200 '"slug":"bench3"' -H "Authorization: Bearer $WL_SDK_KEY" -H "User-Agent: WarpLink-Android/1.1.0" \
  "$BASE/warplink/v1/links/resolve/bench3?domain=aplnk.to"
check "warplink resolve of a new link" 200 '"slug":"many9989"' -H "Authorization: Bearer $WL_SDK_KEY" "$BASE/warplink/v1/links/resolve/many9989?domain=aplnk.to"
t_resolve -t1 -c4 -d1s > /dev/null 2>&1

echo "phase 2: 10,000 links"
for round in $(seq "$ROUNDS"); do
  measure "r$round" health health 1 -
  measure "r$round" "warplink_resolve_(10,000_links)" resolve 1 -
  measure "r$round" "warplink_resolve_(10,000_links)_c1" resolve 1 - probe
  measure "r$round" health health 1 -
done

# Rounds of phase 2 are labelled r1… so their health runs bracket only phase-2 targets.
ELAPSED=$(( $(date +%s) - STARTED ))
echo
python3 - "$RESULTS" "wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s, keep-alive, loopback, journal on, median of $ROUNDS rounds; ${ELAPSED}s after the build" <<'PY'
import math, sys
path, title = sys.argv[1], sys.argv[2]
runs = []
for line in open(path):
    r, seq, label, rps, p50, p99, bad, err, reqs, per, unit, kind = line.split()
    runs.append(dict(round=r, seq=int(seq), label=label, rps=float(rps), p50=float(p50), p99=float(p99), bad=int(bad),
                     err=int(err), reqs=int(reqs), per=float(per), unit=unit, kind=kind))
def median(v):
    v = sorted(v); n = len(v)
    return (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2) if v else math.nan
for run in runs:
    same = [h for h in runs if h["label"] == "health" and h["round"] == run["round"]]
    refs = [h for h in same if h["seq"] < run["seq"]][-1:] + [h for h in same if h["seq"] > run["seq"]][:1]
    run["ref"] = sum(h["rps"] for h in refs) / len(refs) if refs else math.nan
order, by = [], {}
for run in runs:
    if run["label"] not in by: order.append(run["label"])
    by.setdefault(run["label"], []).append(run)
print("Understudy platform hot paths — " + title)
print("ratio = target req/s ÷ mean of the health runs just before and after it (same round); medians over rounds")
head = f"{'target':<40} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'non2xx':>6} {'sockerr':>7} {'ratio':>6}  {'ratio per round':<20} {'units':>20}"
print(head); print("-" * len(head))
for label in order:
    rs = by[label]
    rps = median([r["rps"] for r in rs]); p50 = median([r["p50"] for r in rs]); p99 = median([r["p99"] for r in rs])
    bad = sum(r["bad"] for r in rs); err = sum(r["err"] for r in rs)
    if label == "health":
        ratio, each, units = "1.00", "(reference)", ""
    elif rs[0]["kind"] == "probe":
        ratio, each, units = "—", "(1 connection)", ""
    else:
        ratios = [r["rps"] / r["ref"] for r in rs]
        ratio, each = f"{median(ratios):.4f}", " ".join(f"{x:.4f}" for x in ratios)
        units = f"{rps * rs[0]['per']:,.0f} {rs[0]['unit']}" if rs[0]["unit"] != "-" else ""
    print(f"{label.replace('_', ' '):<40} {rps:>8.0f} {p50:>8.2f} {p99:>8.2f} {bad:>6} {err:>7} {ratio:>6}  {each:<20} {units:>20}")
def find(label): return by.get(label, [])
small, large = find("warplink_resolve_(10_links)_c1"), find("warplink_resolve_(10,000_links)_c1")
if small and large:
    print(f"\nresolve latency, 1 connection: p50 {median([r['p50'] for r in small]):.3f} ms with 10 links vs "
          f"{median([r['p50'] for r in large]):.3f} ms with 10,000 (×{median([r['p50'] for r in large]) / median([r['p50'] for r in small]):.2f}); "
          f"p99 {median([r['p99'] for r in small]):.3f} vs {median([r['p99'] for r in large]):.3f} ms")
tel = find("telematics_telemetry_(1,000/batch)")
if tel:
    rate = median([r["rps"] for r in tel]) * 1000
    print(f"telemetry ingest: {rate:,.0f} samples/s (issue target ≥ 200,000 samples/s: {'met' if rate >= 200000 else 'NOT met'})")
PY
