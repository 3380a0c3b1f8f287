#!/usr/bin/env bash
# Two builds of Understudy side by side: both servers run at once, seeded alike, and every route is
# measured on each in short interleaved runs (A B, then B A, RUNS times), so that a machine getting
# slower or faster between runs weighs on both builds alike. Prints, per route, each build's median
# server CPU µs per request (utime + stime of the process from /proc) and req/s, and B ÷ A with the
# range of the per-pair ratios: a change is real when that whole range is on one side of 1.
#
#   Benchmarks/compare.sh /tmp/understudy-before /tmp/understudy-after
#   ROUTES="me voucher" RUNS=12 DURATION=2 CONNS=16 Benchmarks/compare.sh A B
#
# For a change of a few percent that hotpaths.sh's ratios to nginx cannot resolve on a shared machine.
#
# SEED_A and SEED_B are shell run against that side's server once it is seeded (with BASE and the
# seeding's variables set), to measure one build on two kinds of data: for instance an Asleep upload
# with 2,000 other devices tracking at once against one without them:
#   SEED_B='python3 Benchmarks/platforms/seed.py sessions "$BASE" "$ASLEEP_KEY" 2000 > /dev/null' \
#     ROUTES="upload report" Benchmarks/compare.sh .build/release/understudy .build/release/understudy
# ARGS_A and ARGS_B are extra command-line arguments for that side's server, to measure what a setting
# costs on one build: for instance what recording the journal adds to each route:
#   ARGS_B=--no-journal Benchmarks/compare.sh .build/release/understudy .build/release/understudy
# Routes: health resolve resolve-tap validate voucher appconfig report me trips match upload sensor (hotpaths.sh's), and
# the ingest routes telemetry and readings (wrk -t$INGEST_THREADS, 2 by default; a request is a
# 1,000-sample gzip batch, and every telemetry run sends fresh users' samples, as hotpaths.sh's do).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 BIN_A BIN_B" >&2; exit 2; }
BIN_A=$1; BIN_B=$2
ROUTES=${ROUTES:-"health me validate voucher appconfig report trips"}
RUNS=${RUNS:-8}
DURATION=${DURATION:-2}
CONNS=${CONNS:-16}
WRK_TIMEOUT=${WRK_TIMEOUT:-10s}
INGEST_THREADS=${INGEST_THREADS:-2}
HERE=Benchmarks/hotpaths
PLAT=Benchmarks/platforms
WORK=$(mktemp -d /tmp/understudy-compare.XXXXXX)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]:-}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() { echo "FAILED: $*" >&2; exit 1; }
command -v wrk >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq wrk >/dev/null; }
for bin in "$BIN_A" "$BIN_B"; do [ -x "$bin" ] || fail "no binary at $bin"; done

# start SIDE BIN: a server on a free port with its own database, seeded as hotpaths.sh seeds it.
start() {
  local side=$1 bin=$2 dir="$WORK/$1" args="ARGS_$1"
  mkdir -p "$dir"
  # shellcheck disable=SC2086 # the extra arguments are words
  "$bin" --port 0 --https-port 0 --proxy-port 0 --database "$dir/bench.sqlite" --no-request-log ${!args:-} > "$dir/understudy.log" 2>&1 &
  PIDS+=($!); echo "$!" > "$dir/pid"
  for _ in $(seq 400); do grep -q 'listening url=http://' "$dir/understudy.log" && break; sleep 0.025; done
  local port; port=$(sed -n 's/.* listening url=http:\/\/127\.0\.0\.1:\([0-9]*\).*/\1/p' "$dir/understudy.log" | head -1)
  [ -n "$port" ] || { cat "$dir/understudy.log" >&2; fail "server $side did not start"; }
  for _ in $(seq 200); do curl -sf "http://127.0.0.1:$port/__admin/ready" >/dev/null && break; sleep 0.05; done
  python3 "$HERE/prepare.py" setup "http://127.0.0.1:$port" "$dir" > "$dir/env.sh" || fail "seeding $side"
  echo "BASE=http://127.0.0.1:$port" >> "$dir/env.sh"
  local extra="SEED_$side"
  if [ -n "${!extra:-}" ]; then
    # shellcheck disable=SC1091
    (source "$dir/env.sh" && eval "${!extra}") || fail "$extra on $side"
  fi
}
# use SIDE: the route helpers now talk to that server.
use() {
  # shellcheck disable=SC1090
  source "$WORK/$1/env.sh"
  route_env
  mkdir -p "$WORK/$1/static"
  SIDE_WORK="$WORK/$1"; UPID=$(cat "$WORK/$1/pid")
}
# shellcheck source=Benchmarks/hotpaths/routes.sh
source "$HERE/routes.sh"

echo "starting and seeding both servers…"
start A "$BIN_A"; start B "$BIN_B"
for side in A B; do
  use "$side"
  for name in $ROUTES; do WORK=$SIDE_WORK check "$name" > /dev/null || fail "sanity check of $name on $side"; done
done
HZ=$(getconf CLK_TCK)
ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
# run SIDE NAME PAIR: one wrk run of the route on that side, appended to RESULTS as
# "NAME PAIR SIDE cpu_us_per_request req_per_s p99_us errors". Not in a subshell: prep's telemetry run
# counter must carry over to the next run, or every run would send the first one's samples again.
run() {
  use "$1"
  local threads=1 t0 t1 line
  case $2 in telemetry|readings) threads=$INGEST_THREADS ;; esac
  WORK=$SIDE_WORK prep "$2" "$threads"
  t0=$(ticks "$UPID")
  WORK=$SIDE_WORK wrk_route "$2" -t"$threads" -c"$CONNS" -d"${DURATION}s" > "$WORK/wrk.txt" 2>&1 || { cat "$WORK/wrk.txt" >&2; fail "wrk $2 on $1"; }
  t1=$(ticks "$UPID")
  line=$(grep '^wrkstats' "$WORK/wrk.txt" | tail -1)
  echo "$2 $3 $1 $(echo "$line" | awk -v dt=$((t1 - t0)) -v hz="$HZ" '{ n = ($2 > 0 ? $2 : 1); printf "%.2f %.1f %d %d\n", dt * 1e6 / hz / n, $2 * 1e6 / $3, $5, $8 + $9 }')" >> "$RESULTS"
}

echo "warming up…"
# (Not telemetry: its first measured run warms it, with users no other run sends.)
for side in A B; do for name in $ROUTES; do
  [ "$name" = telemetry ] && continue
  use "$side"; WORK=$SIDE_WORK prep "$name" 1; WORK=$SIDE_WORK wrk_route "$name" -t1 -c4 -d1s > /dev/null 2>&1
done; done

RESULTS="$WORK/results.txt"; : > "$RESULTS"
echo "measuring: $RUNS pairs × wrk -t1 -c$CONNS -d${DURATION}s per route (-t$INGEST_THREADS for telemetry and readings), A and B interleaved"
for pair in $(seq "$RUNS"); do
  order="A B"; [ $((pair % 2)) -eq 0 ] && order="B A"
  for name in $ROUTES; do
    for side in $order; do run "$side" "$name" "$pair"; done
  done
  echo "  pair $pair of $RUNS done"
done

python3 - "$RESULTS" "$BIN_A${ARGS_A:+ $ARGS_A}" "$BIN_B${ARGS_B:+ $ARGS_B}" "$CONNS" "$DURATION" <<'PY'
import collections, statistics, sys
path, bin_a, bin_b, conns, duration = sys.argv[1:]
runs = collections.defaultdict(dict)
bad = collections.Counter()
order = []
for line in open(path):
    name, pair, side, cpu, rps, p99, errors = line.split()
    if name not in order: order.append(name)
    runs[(name, int(pair))][side] = (float(cpu), float(rps), int(p99))
    bad[name] += int(errors)
print(f"\n## Understudy A/B, interleaved\n\nA = `{bin_a}` · B = `{bin_b}` · wrk -t1 -c{conns} -d{duration}s per run\n")
print("| route | pairs | A CPU µs/req | B CPU µs/req | B ÷ A CPU | per-pair range | A req/s | B req/s | A p99 ms | B p99 ms | non-2xx |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for name in order:
    pairs = [v for (n, _), v in sorted(runs.items()) if n == name and "A" in v and "B" in v]
    med = lambda side, i: statistics.median(p[side][i] for p in pairs)
    ratios = sorted(p["B"][0] / p["A"][0] for p in pairs if p["A"][0] > 0)
    print(f"| {name} | {len(pairs)} | {med('A', 0):.1f} | {med('B', 0):.1f} | **{statistics.median(ratios):.3f}** | {ratios[0]:.3f}–{ratios[-1]:.3f} "
          f"| {med('A', 1):,.0f} | {med('B', 1):,.0f} | {med('A', 2) / 1000:.2f} | {med('B', 2) / 1000:.2f} | {bad[name]} |")
print("\nCPU is the whole server process per request answered; B ÷ A is the median of each pair's ratio, the range its lowest and highest.")
if any(name in ("telemetry", "readings") for name in order):
    print("telemetry and readings: a request is one 1,000-sample gzip batch (CPU µs a sample is the column ÷ 1,000; samples/s is req/s × 1,000), "
          "sent by INGEST_THREADS wrk threads rather than the one in the header.")
PY
