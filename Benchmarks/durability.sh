#!/usr/bin/env bash
# kill -9 durability: TRIALS times, SDK writers on two or more platforms record every write the server
# acknowledged (2xx), the server is killed with SIGKILL at a random moment under that load, restarted on the
# same SQLite file, and every acknowledged write is read back through the control plane. Prints per-trial
# acked/found/lost per platform and a total; exits non-zero if anything acknowledged was lost.
#
#   Benchmarks/durability.sh                                 # build release, then 30 trials (~3 minutes)
#   BIN=/tmp/bench-bin/understudy TRIALS=5 Benchmarks/durability.sh
#   WRITERS=4 KILL_AFTER_MIN=0.2 KILL_AFTER_MAX=4 SKIP_BUILD=1 Benchmarks/durability.sh
#
# WRITERS is the number of writer threads per platform (each with its own keep-alive connection);
# the kill comes KILL_AFTER_MIN…KILL_AFTER_MAX seconds (uniformly random) after the load starts.
set -euo pipefail
cd "$(dirname "$0")/.."
TRIALS=${TRIALS:-30}
WRITERS=${WRITERS:-2}
KILL_AFTER_MIN=${KILL_AFTER_MIN:-0.5}
KILL_AFTER_MAX=${KILL_AFTER_MAX:-3}
WORK=$(mktemp -d /tmp/understudy-durability.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
command -v python3 >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq python3 >/dev/null; }
if [ -z "${BIN:-}" ]; then
  [ -n "${SKIP_BUILD:-}" ] || swift build -c release --product understudy 2>&1 | tail -1
  BIN="$(swift build -c release --show-bin-path)/understudy"
fi
[ -x "$BIN" ] || { echo "FAILED: no binary at $BIN" >&2; exit 1; }
echo "kill -9 durability of $BIN: $TRIALS trials, $WRITERS writers per platform, kill after ${KILL_AFTER_MIN}–${KILL_AFTER_MAX} s"
python3 Benchmarks/durability.py "$BIN" "$WORK" "$TRIALS" "$WRITERS" "$KILL_AFTER_MIN" "$KILL_AFTER_MAX" || {
  code=$?; echo "server log (last lines):" >&2; tail -20 "$WORK/understudy.log" >&2; exit "$code"; }
