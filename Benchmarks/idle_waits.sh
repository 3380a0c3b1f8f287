#!/usr/bin/env bash
# What idle journal waits cost: CPU of N open long polls and waits, other clients' latency beside
# them, and how fast one matching request wakes them all (Benchmarks/idle_waits.py says what each
# column is). On SQLite, then on PostgreSQL when DATABASE_URL names a database it may use.
#
#   Benchmarks/idle_waits.sh                                   # build release, 100/1000/5000 waits on SQLite
#   SKIP_BUILD=1 WAITERS=100 Benchmarks/idle_waits.sh
#   DATABASE_URL=postgres://understudy@127.0.0.1:5433/bench SKIP_BUILD=1 Benchmarks/idle_waits.sh
#   BIN=/tmp/old/understudy Benchmarks/idle_waits.sh         # another build, for a before/after in one run
set -euo pipefail
cd "$(dirname "$0")/.."
WAITERS=${WAITERS:-100,1000,5000}
WORK=$(mktemp -d /tmp/understudy-idle-waits.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ -z "${BIN:-}" ]; then
  [ -n "${SKIP_BUILD:-}" ] || swift build -c release --product understudy 2>&1 | tail -1
  BIN="$(swift build -c release --show-bin-path)/understudy"
fi
[ -x "$BIN" ] || { echo "FAILED: no binary at $BIN" >&2; exit 1; }
python3 Benchmarks/idle_waits.py "$BIN" "$WORK" --waiters "$WAITERS"
if [ -n "${DATABASE_URL:-}" ]; then
  python3 Benchmarks/idle_waits.py "$BIN" "$WORK" --waiters "$WAITERS" --database "$DATABASE_URL"
fi
