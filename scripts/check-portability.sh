#!/usr/bin/env bash
# Fails when a Linux-only symbol appears outside a Linux-only `#if` branch, so the package keeps
# building on macOS although no Mac builds it here. Prints `file:line: symbol — why` per finding;
# exits 1 when there is any, 0 otherwise, 2 on bad usage.
#
#   scripts/check-portability.sh                  # Package.swift, Sources/, Tests/, Fuzz/
#   scripts/check-portability.sh Sources/HTTPServer Tests/HTTPServerTests/RawClient.swift
#   scripts/check-portability.sh --self-test      # the fixtures: flags exactly the marked lines
#
# A branch is Linux-only when its condition is false wherever `os(Linux)` and `canImport(Glibc)`
# are false: `#if os(Linux)`, `#if canImport(Glibc)`, the `#else` of `#if !os(Linux)`, an `#elseif`
# after `#if canImport(Darwin)` only if its own condition is Linux-only, `&&`/`||`/`!` combined.
# `canImport(FoundationNetworking)` also guards the FoundationNetworking import (and nothing
# else: it is true on Windows too). Anything inside an enclosing Linux-only branch is guarded.
# Comments and string literals are ignored, except that `"/proc/…"` is looked for in strings.
#
# In a package manifest (a file that imports PackageDescription), a dependency on the CEpoll
# module must carry `condition: .when(platforms: [.linux])`.
#
# This is a lexical check, not a compiler: it knows the symbols listed below (each with the reason
# it breaks on Darwin) and the preprocessor structure, not types.
set -euo pipefail
cd "$(dirname "$0")/.."
exec python3 - "$@" <<'PYTHON'
import os, re, sys

LINUX, NETWORKING = "linux", "networking"

# (kind, pattern, symbol, why). `kind` says which guards cover it; patterns run on code with
# comments removed and string contents blanked, except those marked `in_strings`.
SYMBOLS = [
    (LINUX, r"\bimport\s+(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?Glibc\b", "import Glibc", "Darwin has no Glibc module; import Darwin there"),
    (LINUX, r"\bGlibc\.", "Glibc.", "a Glibc-qualified name; qualify with Darwin. on Darwin"),
    (LINUX, r"\bimport\s+(?:\w+\s+)?CEpoll\b", "import CEpoll", "epoll exists only on Linux"),
    (LINUX, r"\bepoll_\w+|\bEPOLL\w*", "epoll", "epoll exists only on Linux (kqueue/Dispatch elsewhere)"),
    (LINUX, r"\bcepoll_\w+", "cepoll_", "the CEpoll shim is empty off Linux"),
    (LINUX, r"\beventfd\w*|\btimerfd_\w+|\bsignalfd\w*|\binotify_\w+", "eventfd/timerfd/signalfd/inotify", "Linux-only descriptors"),
    (LINUX, r"\baccept4\b", "accept4", "Linux-only; accept then fcntl(O_NONBLOCK, FD_CLOEXEC) elsewhere"),
    (LINUX, r"\bSOCK_NONBLOCK\b|\bSOCK_CLOEXEC\b", "SOCK_NONBLOCK/SOCK_CLOEXEC", "Linux-only socket type flags; fcntl elsewhere"),
    (LINUX, r"\bMSG_NOSIGNAL\b", "MSG_NOSIGNAL", "Linux-only; set SO_NOSIGPIPE on the socket on Darwin"),
    (LINUX, r"\bMSG_MORE\b|\bTCP_CORK\b|\bTCP_QUICKACK\b|\bTCP_DEFER_ACCEPT\b|\bSO_PEERCRED\b|\bO_PATH\b", "Linux socket option", "not defined on Darwin"),
    (LINUX, r"\bSO_REUSEPORT\b", "SO_REUSEPORT", "load-balances accepts on Linux, only allows rebinding on Darwin"),
    (LINUX, r"\bSOCK_(?:STREAM|DGRAM|RAW|SEQPACKET)\.rawValue\b", "SOCK_*.rawValue", "an enum on Glibc, a plain Int32 on Darwin"),
    (LINUX, r"\b__socket_type\b|\b__rlimit_resource(?:_t)?\b|\bRLIMIT_\w+\.rawValue\b", "Glibc enum type", "Glibc's C enum types; Darwin uses plain Int32 constants"),
    (LINUX, r"\b(?:U?Int(?:8|16|32|64)?)\(\s*pthread_self\(\s*\)\s*\)", "UInt(pthread_self())", "pthread_t is an integer on Linux, a pointer on Darwin"),
    (LINUX, r"\bpthread_t\(\s*[^)\s]", "pthread_t(integer)", "pthread_t is an integer on Linux, a pointer on Darwin"),
    (LINUX, r"\bst_[amc]tim\b", "st_mtim", "st_mtimespec (and friends) on Darwin"),
    (LINUX, r"\btv_usec:\s*Int\(", "tv_usec: Int", "suseconds_t is Int32 on Darwin; write tv_usec: .init(…)"),
    (LINUX, r"\bmalloc_trim\b|\bmallinfo2?\b|\bmalloc_usable_size\b|\bprctl\b|\bgettid\b|\bsched_getaffinity\b|\bget_nprocs\w*\b|\bSIGRT(?:MIN|MAX)\b|\b__errno_location\b|\bprogram_invocation_name\b", "Linux libc function", "glibc/Linux only"),
    (LINUX, r"\bsendfile\s*\(", "sendfile", "a different signature on Darwin"),
    (LINUX, r"\"/proc/", "\"/proc/", "procfs exists only on Linux", "in_strings"),
    (NETWORKING, r"\bimport\s+(?:\w+\s+)?FoundationNetworking\b", "import FoundationNetworking", "URLSession lives in Foundation on Darwin"),
    (NETWORKING, r"\bFoundationNetworking\.", "FoundationNetworking.", "URLSession lives in Foundation on Darwin"),
]
COMPILED = [(s[0], re.compile(s[1]), s[2], s[3], len(s) > 4) for s in SYMBOLS]
SETNAME = re.compile(r"\bpthread_setname_np\s*\(")
CEPOLL_ALLOWED = re.compile(
    r"\.systemLibrary\(\s*name:\s*\"CEpoll\""
    r"|\.(?:target|byName)\(\s*name:\s*\"CEpoll\"\s*,\s*condition:\s*\.when\(\s*platforms:\s*\[\s*\.linux\s*\]\s*\)\s*\)")
CEPOLL_USE = re.compile(r"\"CEpoll\"")
STRING_OPEN = re.compile(r'(#*)("""|")')
PLAIN_CODE = re.compile(r'[^\n/"#]*')
PLAIN_STRING = re.compile(r'[^\n\\"]*')

# Atoms known false wherever the check assumes "not Linux"; everything else is unknown (None).
FALSE_OFF_LINUX = {
    LINUX: {"os(Linux)", "canImport(Glibc)", "canImport(CEpoll)"},
    NETWORKING: {"os(Linux)", "canImport(Glibc)", "canImport(CEpoll)", "canImport(FoundationNetworking)"},
}


def lex(text):
    """Per line: (code with strings blanked, code with strings kept); comments removed in both."""
    blank, keep = [], []
    i, n = 0, len(text)
    state = "code"          # code | line | block | string | multi
    depth = 0               # block comment nesting (Swift nests them)
    hashes = 0              # raw string delimiter length
    while i < n:
        c = text[i]
        if c == "\n":
            blank.append("\n"); keep.append("\n")
            if state == "line": state = "code"
            if state == "string": state = "code"  # an unterminated literal; recover at the line end
            i += 1
            continue
        if state == "code":
            if text.startswith("//", i):
                state = "line"; i += 2; continue
            if text.startswith("/*", i):
                state, depth = "block", 1; i += 2; blank.append("  "); keep.append("  "); continue
            m = STRING_OPEN.match(text, i)
            if m:
                hashes = len(m.group(1))
                state = "multi" if m.group(2) == '"""' else "string"
                blank.append(m.group(0)); keep.append(m.group(0)); i += len(m.group(0)); continue
            run = PLAIN_CODE.match(text, i).end()  # copy a run of ordinary characters at once
            run = max(run, i + 1)
            blank.append(text[i:run]); keep.append(text[i:run]); i = run; continue
        if state == "line":
            i = text.find("\n", i)
            i = n if i < 0 else i
            continue
        if state == "block":
            if text.startswith("/*", i): depth += 1; i += 2; continue
            if text.startswith("*/", i):
                depth -= 1; i += 2
                if depth == 0: state = "code"
                continue
            blank.append(" "); keep.append(" "); i += 1; continue
        # Inside a string literal.
        closer = ('"""' if state == "multi" else '"') + "#" * hashes
        if hashes == 0 and c == "\\":
            blank.append("  "); keep.append(text[i:i + 2] if i + 1 < n and text[i + 1] != "\n" else "\\"); i += 2 if i + 1 < n and text[i + 1] != "\n" else 1; continue
        if text.startswith(closer, i):
            blank.append(closer); keep.append(closer); i += len(closer); state = "code"; continue
        run = max(PLAIN_STRING.match(text, i).end(), i + 1)
        blank.append(" " * (run - i)); keep.append(text[i:run]); i = run
    return "".join(blank).split("\n"), "".join(keep).split("\n")


def tokenize(condition):
    return re.findall(r"&&|\|\||!|\(|\)|[A-Za-z_][\w.]*\s*\([^()]*\)|[A-Za-z_]\w*|\S", condition)


def evaluate(tokens, kind):
    """Three-valued: False, True or None (unknown) with the off-Linux assumptions of `kind`."""
    position = [0]

    def peek():
        return tokens[position[0]] if position[0] < len(tokens) else None

    def take():
        position[0] += 1
        return tokens[position[0] - 1]

    def primary():
        token = take() if peek() is not None else None
        if token == "!":
            value = primary()
            return None if value is None else not value
        if token == "(":
            value = disjunction()
            if peek() == ")": take()
            return value
        if token is None: return None
        atom = re.sub(r"\s+", "", token)
        if atom in FALSE_OFF_LINUX[kind]: return False
        if atom == "true": return True
        if atom == "false": return False
        return None

    def conjunction():
        value = primary()
        while peek() == "&&":
            take(); right = primary()
            value = False if value is False or right is False else (True if value and right else None)
        return value

    def disjunction():
        value = conjunction()
        while peek() == "||":
            take(); right = conjunction()
            value = True if value is True or right is True else (False if value is False and right is False else None)
        return value

    return disjunction()


def linux_only(conditions, kind):
    """Whether the branch after `conditions` (earlier ones negated, the last as is) is Linux-only."""
    *earlier, own = conditions
    tokens = []
    for condition in earlier:
        tokens += ["!", "("] + tokenize(condition) + [")", "&&"]
    tokens += ["("] + (tokenize(own) if own is not None else ["true"]) + [")"]
    return evaluate(tokens, kind) is False


def setname_findings(line):
    for match in SETNAME.finditer(line):
        depth, index = 1, match.end()
        while index < len(line) and depth > 0:
            if line[index] == "(": depth += 1
            elif line[index] == ")": depth -= 1
            elif line[index] == "," and depth == 1:
                yield "pthread_setname_np(thread, name)", "the Linux signature; Darwin names only the calling thread"
                break
            index += 1


def scan(path):
    with open(path, encoding="utf-8", errors="replace") as handle:
        text = handle.read()
    blank, keep = lex(text)
    manifest = re.search(r"^\s*import\s+PackageDescription\b", "\n".join(blank), re.M) is not None
    if manifest:
        joined = "\n".join(keep)
        for allowed in CEPOLL_ALLOWED.finditer("\n".join(keep)):
            joined = joined[:allowed.start()] + re.sub(r"[^\n]", " ", allowed.group(0)) + joined[allowed.end():]
        manifest_lines = joined.split("\n")
    findings = []
    stack = []   # per open #if: {"conditions": [...], LINUX: bool, NETWORKING: bool}
    for number, (code, kept) in enumerate(zip(blank, keep), start=1):
        directive = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", code)
        if directive:
            word, rest = directive.group(1), directive.group(2).strip()
            if word == "if":
                stack.append({"conditions": [rest]})
            elif word in ("elseif", "else") and stack:
                stack[-1]["conditions"].append(rest if word == "elseif" else None)
            elif word == "endif" and stack:
                stack.pop()
                continue
            if stack:
                frame = stack[-1]
                # An #else/#elseif is judged with every earlier condition of its chain negated.
                if frame["conditions"][-1] is None:
                    conditions = [c for c in frame["conditions"][:-1] if c is not None] + [None]
                else:
                    conditions = frame["conditions"]
                for kind in (LINUX, NETWORKING):
                    frame[kind] = linux_only(conditions, kind)
            continue
        guarded = {kind: any(frame.get(kind) for frame in stack) for kind in (LINUX, NETWORKING)}
        seen = set()
        for kind, pattern, symbol, why, in_strings in COMPILED:
            if guarded[kind] or symbol in seen: continue
            if pattern.search(kept if in_strings else code):
                seen.add(symbol); findings.append((number, symbol, why))
        if not guarded[LINUX]:
            for symbol, why in setname_findings(code):
                findings.append((number, symbol, why))
            if manifest and CEPOLL_USE.search(manifest_lines[number - 1]):
                findings.append((number, "CEpoll dependency", "needs condition: .when(platforms: [.linux])"))
    return findings


def swift_files(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        for root, directories, names in os.walk(path):
            directories[:] = sorted(d for d in directories if not d.startswith("."))
            for name in sorted(names):
                if name.endswith(".swift"): yield os.path.join(root, name)


def check(paths):
    results = []
    for path in swift_files(paths):
        results += [(path, number, symbol, why) for number, symbol, why in scan(path)]
    return results


def self_test(directory):
    """The check flags exactly the lines of the fixtures marked `// flagged`, and at least one."""
    expected = set()
    for path in swift_files([directory]):
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, start=1):
                if re.search(r"//\s*flagged\b", line): expected.add((path, number))
    results = check([directory])
    found = {(path, number) for path, number, _, _ in results}
    for path, number, symbol, why in results:
        print(f"{path}:{number}: {symbol} — {why}")
    missed, extra = sorted(expected - found), sorted(found - expected)
    for path, number in missed: print(f"self-test: {path}:{number} is marked but was not flagged")
    for path, number in extra: print(f"self-test: {path}:{number} was flagged but is not marked")
    if not expected or missed or extra:
        print("portability self-test: FAILED"); return 1
    print(f"portability self-test: the {len(expected)} unguarded uses are flagged, the guarded ones are not")
    return 0


def main(arguments):
    if arguments[:1] == ["--self-test"]:
        return self_test(arguments[1] if len(arguments) > 1 else "scripts/portability-fixtures")
    if any(a.startswith("-") for a in arguments):
        print("usage: scripts/check-portability.sh [--self-test [DIR] | PATH…]", file=sys.stderr); return 2
    paths = arguments or [p for p in ("Package.swift", "Sources", "Tests", "Fuzz") if os.path.exists(p)]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        print(f"check-portability: no such path: {', '.join(missing)}", file=sys.stderr); return 2
    results = check(paths)
    for path, number, symbol, why in results:
        print(f"{path}:{number}: {symbol} — {why}")
    if results:
        print(f"{len(results)} Linux-only use(s) outside a Linux-only #if branch", file=sys.stderr); return 1
    print(f"check-portability: no unguarded Linux-only symbols in {', '.join(paths)}")
    return 0


sys.exit(main(sys.argv[1:]))
PYTHON
