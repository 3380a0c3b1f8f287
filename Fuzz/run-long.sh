#!/usr/bin/env bash
# Long fuzzing run by hand: N executions (or a time bound) over J parallel processes that share
# one corpus in .build/fuzz/long-corpus. Prints executions, coverage and time at the end.
# Usage: Fuzz/run-long.sh [-n EXECUTIONS] [-t SECONDS] [-j JOBS] [-- extra libFuzzer flags]
#   defaults: -n 10000000 -j 1, no time bound. Set FUZZ_TOLERATE_SPLIT_LIMITS=1 to explore past
#   issue 11 item 8 while it is open (see Fuzz/FuzzHTTPParser.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=10000000; seconds=0; jobs=1
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs=$2; shift 2 ;;
    -t) seconds=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: $0 [-n EXECUTIONS] [-t SECONDS] [-j JOBS] [-- libFuzzer flags]" >&2; exit 2 ;;
  esac
done
binary=.build/fuzz/fuzz-http-parser
[ -x "$binary" ] && [ "${FUZZ_REBUILD:-0}" != 1 ] || Fuzz/build.sh "$binary"
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1}
corpus=.build/fuzz/long-corpus
artifacts=.build/fuzz/long-artifacts
mkdir -p "$corpus" "$artifacts"
per_job=$(( (runs + jobs - 1) / jobs ))
bound=()
[ "$seconds" -gt 0 ] && bound=(-max_total_time="$seconds")
started=$(date +%s)
pids=()
for job in $(seq 1 "$jobs"); do
  "$binary" "$corpus" Fuzz/corpus -dict=Fuzz/http.dict -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
    -runs="$per_job" "${bound[@]}" -reload=30 -print_final_stats=1 -artifact_prefix="$artifacts/job$job-" "$@" \
    > ".build/fuzz/long-$job.log" 2>&1 &
  pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
elapsed=$(( $(date +%s) - started ))
total=0
for job in $(seq 1 "$jobs"); do
  log=".build/fuzz/long-$job.log"
  done_runs=$(grep -oE '^stat::number_of_executed_units: [0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  total=$(( total + done_runs ))
  echo "job $job: $(grep -E '^#[0-9]+[[:space:]]' "$log" | tail -1)"
  grep -E -A20 "FUZZ DISAGREEMENT|ERROR: AddressSanitizer|Fatal error" "$log" | grep -v '^    #' | head -40 || true
done
echo "executions: $total in ${elapsed}s over $jobs job(s); crashes in $artifacts: $(ls "$artifacts" | wc -l)"
exit "$status"
