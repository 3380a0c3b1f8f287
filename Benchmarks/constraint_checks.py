#!/usr/bin/env python3
"""What a CHECK constraint's IN list costs an insert, with SQLite as the server links it.

SQLite 3.40 (Debian's) checks `x IN ('a', 'b', 'c')` of three or more constants by building a
temporary B-tree of the list for every row it inserts, and for every update of `x`; the same
check written `x = 'a' OR x = 'b' OR x = 'c'` compares in place. Migration 0220 rewrote the
schema's lists that way. This builds two real schemas in WAL files, one from the migrations
before 0220 and one from all of them, and inserts WarpLink resolve clicks (the statement and
values `WarpLinkStore.insert` uses, six to a transaction as a loop turn commits them) into each
in alternating rounds, so that the machine's speed weighs on both alike. Prints each schema's
median µs per insert and their ratio.

  python3 Benchmarks/constraint_checks.py                  # 9 rounds of 30,000 clicks each
  python3 Benchmarks/constraint_checks.py --rounds 15 --clicks 50000

Python's sqlite3 module must link the system's libsqlite3 (Debian's python3 does); the version
is printed. It times SQLite alone: what the change is worth to a whole request is measured by
`Benchmarks/compare.sh` with each side on its own migrations (`--migrations`).
"""
import argparse
import os
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
MIGRATIONS = os.path.join(HERE, "..", "Migrations")
INSERT = """
    INSERT OR IGNORE INTO warplink_clicks (project_id, id, link_id, app_id, source, ip, accept_language, language, timezone,
        timezone_offset, device_id, fingerprint, user_agent, tap_id, destination_url, ios_url, android_url, custom_params, clicked_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""


def schema(path, before):
    """A WAL database migrated with every SQLite migration whose id is below `before`."""
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = NORMAL")
    connection.execute("PRAGMA foreign_keys = ON")
    # The server checkpoints on a thread of its own; SQLite's automatic checkpoint would sync the
    # files inside every thousandth commit here and time the disk instead of the inserts.
    connection.execute("PRAGMA wal_autocheckpoint = 0")
    names = sorted(name for name in os.listdir(MIGRATIONS) if name.endswith(".sql") and name[:4].isdigit())
    for name in names:
        if int(name[:4]) >= before:
            continue
        with open(os.path.join(MIGRATIONS, name), encoding="utf-8") as file:
            connection.executescript("BEGIN;" + file.read() + ";COMMIT;")
    connection.execute("INSERT INTO projects (id, name, created_at) VALUES ('p1', 'bench', '2026-01-01T00:00:00Z')")
    return connection


def opens_temporary_table(connection):
    return any(row[1] == "OpenEphemeral" for row in connection.execute("EXPLAIN " + INSERT, [None] * 19))


def round_of_clicks(connection, count, start):
    """µs per insert (the statements, not their commits) over `count` resolve clicks, six to a transaction."""
    rows = [("p1", str(uuid.uuid4()), "link-1", None, "resolve", "127.0.0.1", "en-US", None, None, None, None, None,
             "WarpLinkSDK/1.1.0", None, "https://example.com/p", "app://p", None, '{"campaign":"spring"}', 1.8e9 + (start + i) / 1000)
            for i in range(count)]
    spent = 0.0
    for first in range(0, count, 6):
        connection.execute("BEGIN IMMEDIATE")
        began = time.perf_counter()
        for row in rows[first:first + 6]:
            connection.execute(INSERT, row)
        spent += time.perf_counter() - began
        connection.execute("COMMIT") # the commit writes the log whatever the checks: not timed
    return spent / count * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--clicks", type=int, default=30_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="constraint-checks-") as directory:
        lists = schema(os.path.join(directory, "in-lists.sqlite"), before=220)
        equalities = schema(os.path.join(directory, "equalities.sqlite"), before=10_000)
        print(f"SQLite {sqlite3.sqlite_version}; temporary B-tree per click insert: "
              f"IN list {opens_temporary_table(lists)}, OR of equalities {opens_temporary_table(equalities)}")
        if not opens_temporary_table(lists) or opens_temporary_table(equalities):
            print("this SQLite builds no temporary table for the IN list (or builds one for both): nothing to compare")
        times = {"in": [], "or": []}
        for index in range(args.rounds):
            pair = [("in", lists), ("or", equalities)] if index % 2 == 0 else [("or", equalities), ("in", lists)]
            for key, connection in pair:
                times[key].append(round_of_clicks(connection, args.clicks, index * args.clicks))
        before, after = statistics.median(times["in"]), statistics.median(times["or"])
        ratios = sorted(b / a for a, b in zip(times["in"], times["or"]))
        print("| schema | µs per click insert (median of rounds) |")
        print("|---|---|")
        print(f"| CHECK (source IN (…)), before 0220 | {before:.2f} |")
        print(f"| CHECK (source = … OR …), 0220 | {after:.2f} |")
        print(f"after ÷ before: {after / before:.3f} (per-round range {ratios[0]:.3f}–{ratios[-1]:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
