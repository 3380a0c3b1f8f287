#!/usr/bin/env bash
# Fails when Sources/ uses a numeric form that traps on values a request, a bundle, a stored row or
# the clock can carry: `abs(` (traps on Int64.min; use `.magnitude`), and an integer conversion of a
# floating-point expression (`Int64((x * 1000).rounded())`, `Int(date.timeIntervalSince1970)`),
# which traps on NaN, ±∞ and anything past ±9.22e18 (use `roundedInt64()`/`roundedInt()`,
# `Int64(exactly:)`, `Date.epochMilliseconds`). Prints `file:line: form — line` per finding and
# exits 1 when there is any.
#
# A line that is safe for a reason the pattern cannot see carries `// checked: <why>` (for example
# a value already bounded a few lines up). The check is lexical: it sees the conversion and the
# floating-point hints on the same line (`rounded(`, `timeInterval`, `Double`, `* 1e`, `/ 1e`), not
# types, so `Int(seconds)` of a Double named without a hint is not caught; the extremes fuzzer
# (.ci/extremes.sh) is the net for what it misses.
#
#   scripts/check-numbers.sh               # Sources/
#   scripts/check-numbers.sh --self-test   # its fixtures: flags exactly the marked lines
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PYTHON'
import os, re, sys

CONVERSION = re.compile(r"\b(?:U?Int(?:8|16|32|64)?)\((?!exactly:|bitPattern:|truncatingIfNeeded:|clamping:|ascii:)")
FLOATING = re.compile(r"rounded\(|timeInterval|\bDouble\b|\bFloat\b|[*/] ?1e\d")
ABS = re.compile(r"(?<![\w.])abs\(")
MARKER = "// checked:"


def code_of(line):
    """The line without its comment and with string literals blanked (a lexical approximation)."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    index = line.find("//")
    return line if index < 0 else line[:index]


def findings(path):
    found = []
    with open(path, encoding="utf-8") as file:
        for number, line in enumerate(file, 1):
            if MARKER in line:
                continue
            code = code_of(line)
            if ABS.search(code):
                found.append((number, "abs(", line.strip()))
            elif CONVERSION.search(code) and FLOATING.search(code):
                found.append((number, "integer conversion of a floating-point value", line.strip()))
    return found


def self_test():
    fixture = os.path.join("scripts", "fixtures", "numbers.swift")
    expected = {n for n, line in enumerate(open(fixture, encoding="utf-8"), 1) if "// flagged" in line}
    actual = {n for n, _, _ in findings(fixture)}
    if expected != actual:
        print(f"self-test: expected lines {sorted(expected)}, flagged {sorted(actual)}")
        return 1
    print(f"self-test: {len(expected)} flagged lines as expected")
    return 0


if sys.argv[1:] == ["--self-test"]:
    sys.exit(self_test())
failed = 0
for root, _, files in os.walk("Sources"):
    for name in sorted(files):
        if name.endswith(".swift"):
            path = os.path.join(root, name)
            for number, form, line in findings(path):
                print(f"{path}:{number}: {form} — {line}")
                failed += 1
if failed:
    print(f"{failed} unchecked numeric conversions (see scripts/check-numbers.sh for the checked forms)")
sys.exit(1 if failed else 0)
PYTHON
