#!/usr/bin/env bash
# Lists every public declaration in Swift sources that has no `///` (or `/** */`) summary directly
# above it (attributes such as `@discardableResult` may sit in between), as `file:line: text`.
# Exits 1 when there is any, 0 otherwise.
#
#   scripts/check-doc-comments.sh                 # all of Sources/
#   scripts/check-doc-comments.sh Sources/UnderstudyClient Sources/UnderstudyTesting
#
# Counted as public: lines declared `public` or `open` (except `public import` and `extension`
# headers, whose members carry their own comments), the cases of a public enum, and the
# requirements of a public protocol (both public without saying so). This is a line-based check,
# not a parser: braces inside string literals and comments are ignored, a declaration is the line
# that carries its keyword.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -eq 0 ]; then set -- Sources; fi

files=$(find "$@" -name '*.swift' -type f | LC_ALL=C sort)
if [ -z "$files" ]; then
  echo "check-doc-comments: no Swift files under $*" >&2
  exit 2
fi

# shellcheck disable=SC2086 # one file name per word is intended
awk '
function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
# The line without string literals and the comment after code, so braces in them do not count.
function code_of(s,    out) {
    out = s
    gsub(/\\\\/, "", out)
    gsub(/\\"/, "", out)
    gsub(/"[^"]*"/, "\"\"", out)
    sub(/\/\/.*$/, "", out)
    return out
}
function strip_attributes(s) {
    while (s ~ /^@[A-Za-z_]+/) {
        if (s ~ /^@[A-Za-z_]+\(/) { sub(/^@[A-Za-z_]+\([^)]*\)[ \t]*/, "", s) } else { sub(/^@[A-Za-z_]+[ \t]*/, "", s) }
    }
    return s
}
function documented(    i, prev, attribute) {
    for (i = NR_in_file - 1; i >= 1; i--) {
        prev = trim(lines[i])
        attribute = prev; sub(/[ \t]*\/\/.*$/, "", attribute)   # `@inline(never) // why` is still an attribute
        if (attribute ~ /^@[A-Za-z_]+(\(.*\))?$/) continue   # an attribute on its own line
        return (prev ~ /^\/\/\// || prev ~ /\*\/$/)
    }
    return 0
}
function report(text) {
    if (!documented()) { printf "%s:%d: %s\n", FILENAME, FNR, text; missing++ }
}
FNR == 1 { depth = 0; NR_in_file = 0; in_multiline = 0; pending = ""; split("", lines); split("", kind) }
{
    NR_in_file++
    lines[NR_in_file] = $0
    raw = trim($0)
    # Multi-line string literals: skip their contents entirely.
    if (in_multiline) { if (raw ~ /"""/) in_multiline = 0; next }
    if (raw ~ /"""/ && raw !~ /""".*"""/) { in_multiline = 1 }
    if (raw ~ /^\/\//) next
    decl = strip_attributes(raw)
    scope = (depth > 0) ? kind[depth] : "file"
    is_public = (decl ~ /^((private\(set\)|fileprivate\(set\)|internal\(set\)|static|final|nonisolated|override|required|convenience|mutating|nonmutating|indirect|lazy|weak|unowned|dynamic)[ \t]+)*(public|open)(\([a-z]+\))?[ \t]+[A-Za-z@]/)
    header = ""
    if (is_public) {
        if (decl !~ /(^|[ \t])(import|extension)[ \t]/) { report(decl) }
        if (decl ~ /(^|[ \t])enum[ \t]/) header = "public-enum"
        else if (decl ~ /(^|[ \t])protocol[ \t]/) header = "public-protocol"
    } else if (scope == "public-enum" && decl ~ /^(indirect[ \t]+)?case[ \t]/) {
        report(decl)
    } else if (scope == "public-protocol" && decl ~ /^((static|mutating|nonmutating)[ \t]+)*(func|var|init|subscript|associatedtype)([ \t(<]|$)/) {
        report(decl)
    }
    if (header == "" && pending != "") { header = pending }
    code = code_of($0)
    pending = header
    # Braces in order; the first one opened after a public enum/protocol header is its body.
    for (i = 1; i <= length(code); i++) {
        c = substr(code, i, 1)
        if (c == "{") { depth++; kind[depth] = (pending != "") ? pending : "other"; pending = "" }
        else if (c == "}") { if (depth > 0) depth-- }
    }
}
END {
    if (missing > 0) { printf "%d public declaration(s) without a /// summary\n", missing > "/dev/stderr"; exit 1 }
}
' $files
