#!/usr/bin/env bash
# Behaviour-unchanged check for refactors: records the replay corpus against two server binaries
# (.ci/replay/record.py: each platform's document, credentials, deliberate errors and every
# operation's examples, then a few control-plane calls; each binary on a fresh database with the
# demo clock frozen; answers and journal entries normalized) and diffs the two recordings
# (.ci/replay/compare.py). Prints the diff and one line `N exchanges, M journal entries, K differ`.
# Exit 0 when identical, 1 when they differ, 2 when a recording could not be made.
#
#   .ci/replay.sh BIN_A BIN_B [OUT]     OUT (default .build/replay) keeps a/ and b/: each
#                                       recording.jsonl and server.log, for a closer look
#
# In .ci/run it replays the debug build against itself (the recording must be deterministic); a
# refactor compares a build of its base with its own. See docs/notes/replay.md.
set -euo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
binary_a=$(realpath "$1")
binary_b=$(realpath "$2")
cd "$(dirname "$0")/.."
out=${3:-.build/replay}
for binary in "$binary_a" "$binary_b"; do
  [ -x "$binary" ] || { echo "not an executable: $binary"; exit 2; }
done
rm -rf "$out/a" "$out/b"
# Recorded one after the other: two servers at once would compete for the same two cores.
python3 .ci/replay/record.py --binary "$binary_a" --out "$out/a" || { echo "recording $binary_a failed"; exit 2; }
python3 .ci/replay/record.py --binary "$binary_b" --out "$out/b" || { echo "recording $binary_b failed"; exit 2; }
exec python3 .ci/replay/compare.py "$out/a/recording.jsonl" "$out/b/recording.jsonl" --label-a "A ($1)" --label-b "B ($2)"
