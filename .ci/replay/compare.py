#!/usr/bin/env python3
"""Diffs two replay recordings (record.py's recording.jsonl) and says whether they are identical.

Records are aligned as whole lines (difflib), so an added or missing exchange shifts nothing
after it. For each run of records that differ it prints a header naming them (kind, number,
section, case, request) and a unified diff of their indented renderings, then one summary line:

  N exchanges, M journal entries, K differ

N and M count recording A (B's counts follow in parentheses when they are not the same); K is
the number of records without an identical counterpart on the other side. Exit 0 when the two are
identical, 1 otherwise.

Usage: compare.py A/recording.jsonl B/recording.jsonl [--label-a NAME] [--label-b NAME]
"""
import argparse
import difflib
import json
import sys


def read(path):
    with open(path, encoding="utf-8") as file:
        return [line.rstrip("\n") for line in file if line.strip()]


def title(line):
    """One line naming a record, for the header of its hunk."""
    record = json.loads(line)
    if record["kind"] == "journal":
        entry = record["entry"]
        return f"journal {record['section']} #{record['n']}: {entry.get('method')} {entry.get('path')} -> {entry.get('status')}"
    query = f"?{record['query']}" if record["query"] else ""
    return (f"exchange {record['n']} {record['section']} ({record['case']}): "
            f"{record['method']} {record['path']}{query} -> {record['status']}")


def rendering(line):
    """A record as indented JSON lines (members in recorded order), so a diff points at the member."""
    return json.dumps(json.loads(line), ensure_ascii=False, indent=1).splitlines()


def counts(lines):
    kinds = [json.loads(line)["kind"] for line in lines]
    return kinds.count("exchange"), kinds.count("journal")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--label-a", default="A")
    parser.add_argument("--label-b", default="B")
    arguments = parser.parse_args()
    a, b = read(arguments.a), read(arguments.b)
    differing = 0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, a_start, a_end, b_start, b_end in matcher.get_opcodes():
        if tag == "equal":
            continue
        differing += max(a_end - a_start, b_end - b_start)
        print("=" * 100)
        for line in a[a_start:a_end]:
            print(f"{arguments.label_a}: {title(line)}")
        for line in b[b_start:b_end]:
            print(f"{arguments.label_b}: {title(line)}")
        old = [text for line in a[a_start:a_end] for text in rendering(line)]
        new = [text for line in b[b_start:b_end] for text in rendering(line)]
        for text in difflib.unified_diff(old, new, arguments.label_a, arguments.label_b, n=3, lineterm=""):
            print(text)
    exchanges, journal = counts(a)
    other_exchanges, other_journal = counts(b)
    note = lambda mine, theirs: f"{mine}" if mine == theirs else f"{mine} ({arguments.label_b}: {theirs})"  # noqa: E731
    print(f"{note(exchanges, other_exchanges)} exchanges, {note(journal, other_journal)} journal entries, {differing} differ")
    return 0 if differing == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
