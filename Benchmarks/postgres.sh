#!/usr/bin/env bash
# The SDK hot paths served from PostgreSQL, against the same binary on its SQLite file, in the same
# run: Benchmarks/hotpaths.sh once per backend (a throwaway PostgreSQL cluster on loopback, from
# .ci/postgres.sh), then one table of CPU per request and req/s as PostgreSQL ÷ SQLite. The
# server's CPU is its own process only: PostgreSQL's backends spend more on top, reported apart.
#
#   Benchmarks/postgres.sh                                  # build release, measure (~10 minutes)
#   BIN=/tmp/understudy ROUTES="health validate match" Benchmarks/postgres.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROUTES=${ROUTES:-"health resolve validate voucher appconfig me match sensor"}
export DURATION=${DURATION:-3} ROUNDS=${ROUNDS:-1} SKIP_FLATNESS=1 ROUTES
WORK=$(mktemp -d /tmp/understudy-pgbench.XXXXXX)
if [ -z "${BIN:-}" ]; then
  swift build -c release --product understudy 2>&1 | tail -1
  BIN="$(swift build -c release --show-bin-path)/understudy"
fi
export BIN
cluster=$(bash .ci/postgres.sh start --watch $$)
eval "$cluster"
trap 'bash .ci/postgres.sh stop "$UNDERSTUDY_TEST_POSTGRES_DIR"; rm -rf "$WORK"' EXIT
psql_url="$UNDERSTUDY_TEST_POSTGRES_URL"
bindir=$(cat "$UNDERSTUDY_TEST_POSTGRES_DIR/bindir")
"$bindir/psql" -q "$psql_url" -c "CREATE DATABASE bench" >/dev/null
postgres_db="${psql_url%/postgres}/bench"
# The cluster's CPU: the postmaster's reaped children (cutime + cstime: backends that ended, as
# the benchmark's own do when its server stops) plus the live ones (utime + stime).
postmaster=$(head -1 "$UNDERSTUDY_TEST_POSTGRES_DIR/data/postmaster.pid")
backend_ticks() { local total pid
  total=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$postmaster/stat")
  for pid in $(pgrep -P "$postmaster"); do
    total=$(( total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0) )); done; echo "$total"; }

echo "== SQLite file"
OUT="$WORK/sqlite.md" bash Benchmarks/hotpaths.sh | tee "$WORK/sqlite.log"
echo "== PostgreSQL (one instance)"
before=$(backend_ticks)
DATABASE="$postgres_db" OUT="$WORK/postgres.md" bash Benchmarks/hotpaths.sh | tee "$WORK/postgres.log"
after=$(backend_ticks)

echo
echo "## PostgreSQL ÷ SQLite, same binary, same run"
echo
echo "| route | conns | SQLite CPU µs/req | PostgreSQL CPU µs/req | ratio | SQLite req/s | PostgreSQL req/s | ratio |"
echo "|---|---|---|---|---|---|---|---|"
python3 - "$WORK/sqlite.log" "$WORK/postgres.log" <<'PY'
import re, sys
line = re.compile(r"round \d+ (.+?)\s+c(\d+)\s+([\d.]+) req/s .* CPU\s+([\d.]+) µs/req")
def read(path):
    rows = {}
    for text in open(path, encoding="utf-8", errors="replace"):
        m = line.search(text)
        if m: rows[(m.group(1).strip(), m.group(2))] = (float(m.group(4)), float(m.group(3)))
    return rows
sqlite, postgres = read(sys.argv[1]), read(sys.argv[2])
for key in sqlite:
    if key not in postgres: continue
    (sc, sr), (pc, pr) = sqlite[key], postgres[key]
    print(f"| {key[0]} | {key[1]} | {sc:.1f} | {pc:.1f} | {pc / sc:.2f}× | {sr:.0f} | {pr:.0f} | {pr / sr:.2f} |")
PY
hz=$(getconf CLK_TCK)
echo
requests=$(awk '/^  round / { for (i = 1; i <= NF; i++) if ($(i + 1) == "req/s") total += $i * '"$DURATION"' } END { printf "%d", total }' "$WORK/postgres.log")
echo "PostgreSQL's own CPU over the PostgreSQL run: $(( (after - before) * 1000 / hz )) ms for about $requests requests" \
  "($(awk -v t=$(( (after - before) * 1000000 / hz )) -v n="$requests" 'BEGIN { printf "%.0f", (n > 0 ? t / n : 0) }') µs each, on top of Understudy's; set-up and warm-up included)."
