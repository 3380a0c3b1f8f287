#!/usr/bin/env bash
# Runs the hostile-client suite (Tests/hostile) against the debug server CI already built.
# Builds nothing; fails when a case fails or the suite overruns its time bound.
#   HOSTILE_TIMEOUT   seconds before the whole suite is stopped (default 300)
set -euo pipefail
cd "$(dirname "$0")/.."
binary=.build/debug/understudy
if ! [ -x "$binary" ]; then
  echo "hostile: $binary not found; run \`swift build\` first" >&2
  exit 2
fi
# 10,000 client sockets plus the server's own: use the hard limit.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
exec timeout --kill-after=10 "${HOSTILE_TIMEOUT:-300}" python3 Tests/hostile/run.py --binary "$binary"
