#!/usr/bin/env bash
# Reads SQLite's query plan for every statement the test suite prepares, and reports what costs
# writes or reads for nothing: non-unique indexes that no statement reads (each still costs every
# insert an entry and a page in the log), and statements that scan a table or sort in a temporary
# B-tree. Found so far: three WarpLink indexes the attribution indexes had replaced (migration
# 0260), the control-plane lists' `(? IS NULL OR …)` filters (0250), a manual event's lookups by
# start time (0270).
#
#   scripts/query-plans.sh                                   # the whole suite (about a minute)
#   scripts/query-plans.sh --filter HistoryIndependentLookupTests
#
# Arguments go to `swift test --skip-build` (build the tests first). Linux only: statements are
# logged by a small library preloaded into the test process (`LD_PRELOAD`, built here with `cc`)
# that wraps `sqlite3_prepare_v2`/`_v3`. Plans are read against a fresh file migrated with
# Migrations/ and Migrations/journal/, without the statistics a used database would gather, so a
# scan here may be an index search on real data and the other way round: each finding is a
# lead to check with `EXPLAIN QUERY PLAN`, not a verdict. Tests' own scratch tables and schema
# statements are left out. Exits 0 whatever it finds (it is a report), 1 when the suite fails.
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(uname -s)" = Linux ] || { echo "query-plans.sh: Linux only (LD_PRELOAD)" >&2; exit 2; }
work=$(mktemp -d /tmp/query-plans.XXXXXX)
trap 'rm -rf "$work"' EXIT

cat > "$work/log_prepare.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef int (*prepare3)(void *, const char *, int, unsigned int, void **, const char **);
typedef int (*prepare2)(void *, const char *, int, void **, const char **);
static int logFile = -2;

/* One statement per line, its line breaks and tabs made spaces; one write(2) so threads do not interleave. */
static void logStatement(const char *sql, int length) {
    if (logFile == -2) {
        const char *path = getenv("QUERY_PLANS_LOG");
        logFile = path ? open(path, O_WRONLY | O_CREAT | O_APPEND, 0644) : -1;
    }
    if (logFile < 0 || sql == NULL) return;
    size_t count = length < 0 ? strlen(sql) : (size_t)length;
    char *line = malloc(count + 1);
    if (line == NULL) return;
    for (size_t i = 0; i < count; i++) line[i] = (sql[i] == '\n' || sql[i] == '\r' || sql[i] == '\t') ? ' ' : sql[i];
    line[count] = '\n';
    ssize_t written = write(logFile, line, count + 1);
    (void)written;
    free(line);
}

int sqlite3_prepare_v3(void *db, const char *sql, int length, unsigned int flags, void **statement, const char **tail) {
    static prepare3 next;
    if (next == NULL) next = (prepare3)dlsym(RTLD_NEXT, "sqlite3_prepare_v3");
    logStatement(sql, length);
    return next(db, sql, length, flags, statement, tail);
}

int sqlite3_prepare_v2(void *db, const char *sql, int length, void **statement, const char **tail) {
    static prepare2 next;
    if (next == NULL) next = (prepare2)dlsym(RTLD_NEXT, "sqlite3_prepare_v2");
    logStatement(sql, length);
    return next(db, sql, length, statement, tail);
}
C
cc -shared -fPIC -O2 -o "$work/log_prepare.so" "$work/log_prepare.c" -ldl

echo "running the tests with every prepared statement logged…" >&2
if ! QUERY_PLANS_LOG="$work/statements.log" LD_PRELOAD="$work/log_prepare.so" swift test --skip-build "$@" > "$work/tests.log" 2>&1; then
  tail -20 "$work/tests.log" >&2
  echo "query-plans.sh: the tests failed (log above); no report" >&2
  exit 1
fi

python3 - "$work" <<'PYTHON'
import os, re, sqlite3, sys

work = sys.argv[1]

def migrated(path, directory):
    connection = sqlite3.connect(path, isolation_level=None)
    for name in sorted(n for n in os.listdir(directory) if n.endswith(".sql") and n[:4].isdigit()):
        with open(os.path.join(directory, name), encoding="utf-8") as file:
            connection.executescript("BEGIN;" + file.read() + ";COMMIT;")
    return connection

databases = [migrated(os.path.join(work, "main.sqlite"), "Migrations"),
             migrated(os.path.join(work, "journal.sqlite"), "Migrations/journal")]

def plan(sql):
    """The plan's lines on whichever schema knows the statement's tables; None for neither."""
    for connection in databases:
        try:
            return [row[3] for row in connection.execute("EXPLAIN QUERY PLAN " + sql, [None] * sql.count("?"))]
        except sqlite3.Error:
            continue
    return None

with open(os.path.join(work, "statements.log"), encoding="utf-8", errors="replace") as file:
    statements = sorted({line.strip() for line in file if line.strip()})
data = [s for s in statements if re.match(r"(SELECT|INSERT|UPDATE|DELETE|WITH)\b", s, re.I)
        and not re.search(r"\b(sqlite_master|sqlite_schema|pragma_\w+|schema_migrations)\b", s)]

read, findings, unplanned = set(), [], 0
for sql in data:
    lines = plan(sql)
    if lines is None:
        unplanned += 1 # a test's scratch table, or a table dropped by a later migration
        continue
    for line in lines:
        read.update(re.findall(r"INDEX (\w+)", line))
    costly = [line for line in lines if "TEMP B-TREE" in line or re.match(r"SCAN \w+( USING (COVERING )?INDEX \w+)?$", line)]
    if costly:
        findings.append((" | ".join(costly), " ".join(sql.split())))

print(f"{len(statements)} distinct statements prepared, {len(data)} reading or writing rows ({unplanned} on tables the migrated schema lacks)")
print()
print("Non-unique indexes no statement reads:")
unread = 0
for connection in databases:
    for name, table in connection.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY tbl_name, name"):
        unique = connection.execute("SELECT \"unique\" FROM pragma_index_list(?) WHERE name = ?", (table, name)).fetchone()[0]
        if not unique and name not in read:
            print(f"  {table}.{name}")
            unread += 1
print("  (none)" if unread == 0 else "")
print()
print("Statements that scan a table or sort in a temporary B-tree (control-plane lists of a whole project may):")
for costly, sql in sorted(findings):
    print(f"  {costly}\n      {sql[:300]}")
PYTHON
