#!/usr/bin/env bash
# The README's and the guides' shell examples, run as written against the debug build: first the
# doc-test's own tests (.ci/doctest/test_doctest.py: the extractor, and the runner on made-up
# pages), then every shell block of README.md and docs/*.md, page by page, each page in a network
# namespace of its own with only loopback and a fresh server (.ci/doctest/run.py; the markers that
# skip a block or change how it runs are in .ci/doctest/extract.py and docs/architecture.md's
# conventions). Ends with `N passed, N failed`: the tests and the blocks.
#
#   bash .ci/doctest.sh                       everything
#   bash .ci/doctest.sh docs/warplink.md      one page (no self-tests); --verbose prints every block's output
set -uo pipefail
cd "$(dirname "$0")/.."
binary=.build/debug/understudy
[ -x "$binary" ] || { echo "build first: $binary is missing"; echo "0 passed, 1 failed"; exit 1; }
for tool in jq curl openssl unshare; do
  command -v "$tool" >/dev/null || { echo "the doc-test needs $tool (the docs' examples use it)"; echo "0 passed, 1 failed"; exit 1; }
done

if [ $# -gt 0 ]; then
  exec python3 .ci/doctest/run.py "$@"
fi

tests=$(mktemp)
trap 'rm -f "$tests"' EXIT
python3 .ci/doctest/test_doctest.py 2>&1 | tee "$tests"
unit=${PIPESTATUS[0]}
ran=$(grep -oE '^Ran [0-9]+ tests?' "$tests" | grep -oE '[0-9]+' || echo 0)
skipped=$(grep -oE 'skipped=[0-9]+' "$tests" | grep -oE '[0-9]+' || echo 0)
if [ "$unit" -ne 0 ] || [ "$ran" -eq 0 ] || [ "$skipped" -ne 0 ]; then
  # Skipped would mean the runner's own tests did not run: here the debug build exists.
  echo "the doc-test's own tests failed (exit $unit, $ran ran, $skipped skipped)"
  echo "0 passed, 1 failed"
  exit 1
fi

python3 .ci/doctest/run.py | tee "$tests"
blocks=${PIPESTATUS[0]}
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tests" | tail -1)
block_passed=$(echo "${line:-0 passed, 1 failed}" | awk '{print $1}')
block_failed=$(echo "${line:-0 passed, 1 failed}" | awk '{print $3}')
[ "$blocks" -eq 0 ] || [ "$block_failed" -gt 0 ] || block_failed=1
echo "$((ran + block_passed)) passed, $block_failed failed"
[ "$blocks" -eq 0 ]
