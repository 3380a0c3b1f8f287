#!/usr/bin/env bash
# A big bundle import must not hold an event loop: builds a bundle of MEGABYTES MB (the demo project's
# WarpLink links copied), then ROUNDS times imports it into a fresh server (release build) while another
# process polls /__admin/health every 2 ms, and prints the longest event-loop busy stretch from the
# server's metrics and the slowest health probe; then the same with the bundle in a --seed-dir at start.
#
#   Benchmarks/bundle_import.sh                      # build release, then 3 rounds of a 30 MB bundle
#   SKIP_BUILD=1 ROUNDS=5 Benchmarks/bundle_import.sh
#   BIN=.build/debug/understudy MEGABYTES=5 ROUNDS=1 Benchmarks/bundle_import.sh   # try the script quickly
#   SERVER_NICE=-10 SKIP_BUILD=1 Benchmarks/bundle_import.sh   # the server ahead of other work (root) on a shared machine
set -euo pipefail
cd "$(dirname "$0")/.."
MEGABYTES=${MEGABYTES:-30}
ROUNDS=${ROUNDS:-3}
WORK=$(mktemp -d /tmp/understudy-bundle-import.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ -z "${BIN:-}" ]; then
  [ -n "${SKIP_BUILD:-}" ] || swift build -c release --product understudy 2>&1 | tail -1
  BIN="$(swift build -c release --show-bin-path)/understudy"
fi
[ -x "$BIN" ] || { echo "FAILED: no binary at $BIN" >&2; exit 1; }
echo "bundle import of $BIN: $MEGABYTES MB, $ROUNDS rounds"
python3 Benchmarks/bundle_import.py "$BIN" "$WORK" "$MEGABYTES" "$ROUNDS"
