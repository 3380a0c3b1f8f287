#!/usr/bin/env bash
# Checks formatting against the checked-in .swift-format; exits 1 on any finding, with a count
# per rule at the end.
#
#   .ci/format.sh                    # lint Sources, Tests and Package.swift
#   .ci/format.sh PATH...            # lint only these files or folders
#   .ci/format.sh --fix [PATH...]    # rewrite them in place instead
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

mode=lint
if [ "${1:-}" = "--fix" ]; then mode=fix; shift; fi
if [ "$#" -eq 0 ]; then set -- Sources Tests Package.swift; fi

if [ "$mode" = fix ]; then
  exec swift format format --configuration .swift-format --in-place --recursive --parallel "$@"
fi

findings=$(mktemp)
trap 'rm -f "$findings"' EXIT
set +e
# --strict turns every finding into an error, so the exit status says whether there were any.
swift format lint --configuration .swift-format --strict --recursive --parallel "$@" 2>"$findings"
status=$?
set -e
cat "$findings" >&2
if [ "$status" -ne 0 ]; then
  echo "swift format: $(grep -c ': error: \[' "$findings" || true) finding(s); by rule:" >&2
  grep -oE ': error: \[[A-Za-z]+\]' "$findings" | sed -E 's/.*\[(.*)\]/\1/' | sort | uniq -c | sort -rn >&2 || true
  echo "fix with: .ci/format.sh --fix $*" >&2
fi
exit "$status"
