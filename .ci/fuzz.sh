#!/usr/bin/env bash
# Builds the HTTP parser fuzz target (libFuzzer + AddressSanitizer), replays every input in
# Fuzz/regressions/, then fuzzes for a bounded time with the seed corpus and the dictionary.
# Fails on any crash, sanitizer report or split disagreement.
#   FUZZ_SECONDS   length of the fuzzing run (default 120)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-120}
binary=.build/fuzz/fuzz-http-parser
Fuzz/build.sh "$binary"

# The Swift runtime's own crash reporter runs inside AddressSanitizer and reports itself;
# libFuzzer's handler is the one that writes the crashing input.
export SWIFT_BACKTRACE=enable=no
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1}

failed=0
shopt -s nullglob
for input in Fuzz/regressions/*; do
  [ -f "$input" ] || continue
  case "$input" in *.md) continue ;; esac
  if "$binary" "$input" > .build/fuzz/regression.log 2>&1; then
    echo "regression ok: $input"
  else
    echo "regression FAILED: $input"
    grep -E -A12 "FUZZ DISAGREEMENT|ERROR: AddressSanitizer|Fatal error" .build/fuzz/regression.log | grep -v '^    #' | head -30 || true
    failed=1
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: regression inputs fail; not starting the timed run"
  exit 1
fi

# New inputs go to a scratch folder, so the checked-in seed corpus only changes by hand.
work=.build/fuzz/ci-corpus
artifacts=.build/fuzz/artifacts
mkdir -p "$work" "$artifacts"
set +e
"$binary" "$work" Fuzz/corpus -dict=Fuzz/http.dict -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$artifacts/" > .build/fuzz/ci.log 2>&1
status=$?
set -e
grep -E '^#[0-9]+[[:space:]]+(DONE|pulse|NEW)' .build/fuzz/ci.log | tail -1 || true
grep -E '^stat::(number_of_executed_units|average_exec_per_sec|peak_rss_mb)' .build/fuzz/ci.log || true
if [ "$status" -ne 0 ]; then
  grep -E -A20 "FUZZ DISAGREEMENT|ERROR: AddressSanitizer|ERROR: libFuzzer|Fatal error" .build/fuzz/ci.log | grep -v '^    #' | head -60 || true
  grep -E "Test unit written to" .build/fuzz/ci.log || true
  echo "fuzz: FAILED (minimise with: $binary -minimize_crash=1 -max_total_time=60 <crash file>; keep it in Fuzz/regressions/)"
  exit 1
fi
echo "fuzz: passed (${seconds}s, no crash)"
