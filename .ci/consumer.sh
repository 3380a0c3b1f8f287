#!/usr/bin/env bash
# Consumes this repository the way an app team does: a throwaway package outside the checkout
# depends on it through a file:// git URL (SwiftPM clones it like any remote package), and its test
# target — built from every ```swift block of README.md and docs/*.md — is built and run in debug.
# Ends with a plain `N passed, N failed` line. Only committed work is seen (the dependency is the
# HEAD commit); CI runs on a clean clone, so that is everything.
#
# Each block becomes one file of the consumer's test target:
#   - a block with its own `import` lines is a complete file, copied as is (the README example;
#     one that declares no test, like a helper function, is compiled only);
#   - any other block is the body of an `async throws` Swift Testing test, with Foundation,
#     Testing, UnderstudyClient and UnderstudyTesting imported;
#   - a block whose first line is `// fragment` (an SDK's own code, a protocol outline) is skipped.
#
#   .ci/consumer.sh                                   # throwaway consumer, removed afterwards
#   CONSUMER_DIR=/tmp/understudy-consumer .ci/consumer.sh   # keep (and reuse) its build
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
root=$PWD
revision=$(git rev-parse HEAD)
started=$(date +%s)
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "consumer: note: uncommitted changes are not part of $revision and are not tested"
fi

if [ -n "${CONSUMER_DIR:-}" ]; then
  work=$CONSUMER_DIR
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
case "$work" in "$root"/*) echo "consumer: $work is inside the checkout"; echo "0 passed, 1 failed"; exit 1 ;; esac

# The URL's last path component is the package identity; a link named `understudy` makes it the
# same whatever the checkout's folder is called. SwiftPM still clones it with git. It refuses a
# git worktree (whose .git is a file), so a worktree is first cloned bare, with all its commits.
rm -rf "$work/understudy"
if [ "$(git rev-parse --git-dir)" = ".git" ]; then
  ln -s "$root" "$work/understudy"
else
  git clone --quiet --bare "$root" "$work/understudy"
fi
mkdir -p "$work/consumer/Tests/ConsumerTests"
cat >"$work/consumer/Package.swift" <<EOF
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "UnderstudyConsumer",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(url: "file://$work/understudy", revision: "$revision"),
    ],
    targets: [
        .testTarget(name: "ConsumerTests", dependencies: [
            .product(name: "UnderstudyTesting", package: "understudy"),
            .product(name: "UnderstudyClient", package: "understudy"),
        ]),
    ]
)
EOF

# A Migrations/ and a Config/ of the consumer's own, as an app's repository may have: the test
# servers must use Understudy's (from the clone in .build/checkouts), not whatever the working
# directory holds.
mkdir -p "$work/consumer/Migrations" "$work/consumer/Config/fixtures"
echo "CREATE TABLE this_is_the_consumers_own_schema (id INTEGER);" >"$work/consumer/Migrations/001_consumer.sql"
echo '{"id": "not-understudys-demo", "name": "The consumer'\''s own fixture"}' >"$work/consumer/Config/fixtures/project.json"

rm -f "$work/consumer/Tests/ConsumerTests/"*.swift
snippets=$(python3 - "$work/consumer/Tests/ConsumerTests" README.md docs <<'PYTHON'
import os, re, sys

out, sources = sys.argv[1], sys.argv[2:]
files = []
for source in sources:
    if os.path.isdir(source):
        for folder, _, names in sorted(os.walk(source)):
            files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    else:
        files.append(source)

written = skipped = tests = 0
for path in files:
    lines = open(path, encoding="utf-8").read().split("\n")
    index = 0
    while index < len(lines):
        if lines[index].strip() != "```swift":
            index += 1
            continue
        start = index + 1
        end = start
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = lines[start:end]
        index = end + 1
        if body and re.match(r"\s*//\s*fragment\b", body[0]):
            skipped += 1
            continue
        name = re.sub(r"\W", "_", path) + f"_{start + 1}"
        header = f"// Extracted by .ci/consumer.sh from {path}, line {start + 1}.\n"
        if any(re.match(r"import\s+\w", line) for line in body):
            text = header + "\n".join(body) + "\n"
            # A complete file runs as many tests as it declares; one with none is only compiled.
            tests += sum(1 for line in body if re.search(r"@Test\b|\bfunc test\w*\(", line))
        else:
            indented = "\n".join(("    " + line) if line.strip() else "" for line in body)
            text = (header + "import Foundation\nimport Testing\nimport UnderstudyClient\nimport UnderstudyTesting\n\n"
                    f"@Test(\"{path}:{start + 1}\")\nfunc snippet_{name}() async throws {{\n{indented}\n}}\n")
            tests += 1
        with open(os.path.join(out, f"Snippet_{name}.swift"), "w", encoding="utf-8") as handle:
            handle.write(text)
        written += 1
        print(f"{path}:{start + 1}", file=sys.stderr)
print(f"{written} {skipped} {tests}")
PYTHON
)
read -r written skipped tests <<<"$snippets"
echo "consumer: $written Swift blocks compiled ($tests tests among them), $skipped marked as fragments"
if [ "$written" -eq 0 ]; then echo "consumer: no Swift blocks found"; echo "0 passed, 1 failed"; exit 1; fi

cd "$work/consumer"
log="$work/consumer.log"
set +e
{ swift package resolve --disable-dependency-cache && swift build --build-tests --disable-dependency-cache && swift test --skip-build; } 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# Swift Testing and XCTest report separately; both count.
testing=$(grep -oE 'Test run with [0-9]+ tests?( in [0-9]+ suites?)? passed' "$log" | tail -1 | grep -oE '[0-9]+' | head -1 || true)
xctest=$(grep -oE 'Executed [0-9]+ tests?, with 0 failures' "$log" | tail -1 | grep -oE '[0-9]+' | head -1 || true)
ran=$(( ${testing:-0} + ${xctest:-0} ))
[ "$ran" -gt 0 ] || ran=
echo "consumer: debug build and test run took $(( $(date +%s) - started )) s"
if [ "$status" -ne 0 ] || [ -z "$ran" ] || [ "$ran" -lt "$tests" ]; then
  echo "consumer: the package did not build or its tests failed (exit $status, ${ran:-0} of $tests tests passed)"
  echo "0 passed, 1 failed"
  exit 1
fi
echo "$ran passed, 0 failed"
