"""The shell blocks of a Markdown page, in order, with the doc-test marker before each.

A fenced block (``` or ~~~, at any indentation, as in a list item) whose info string is sh, bash,
shell or console is a shell block. Its marker is a line holding only an HTML comment, the nearest
non-blank line before the fence:

    <!-- doctest: skip (needs a device) -->     not run; the reason is required and printed
    <!-- doctest: fails (why) -->              run; its last command must fail, the others pass
    <!-- doctest: findings (why) -->           run; it may leave integration-check findings (every
                                               other block must leave none: a guide's example is a
                                               correct use of the SDK unless it says otherwise)
    <!-- doctest: serve -->                    runs a server in the foreground, as typed: run in
                                               the background, the page goes on once it is ready
    <!-- doctest: no-server -->                run with no server of the runner's (it starts its
                                               own, or needs none running, as `ca reset` does)

A console block's commands are its lines starting with `$ ` (with the lines a trailing backslash
continues); its other lines are output and are not run. A marker that is not followed by a shell
block, or that the runner does not know, is an error: a typo must not turn a skip into a run, nor
a run into nothing.
"""
import re

SHELL_LANGUAGES = ("sh", "bash", "shell", "console")
KINDS = ("run", "skip", "fails", "findings", "serve", "no-server")

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>.*)$")
_MARKER = re.compile(r"^\s*<!--\s*doctest\s*:(?P<body>.*?)-->\s*$")
_MARKER_BODY = re.compile(r"^\s*(?P<kind>[a-z-]+)\s*(?:\((?P<reason>.*)\))?\s*$")
# A line that is meant as a doc-test marker, well formed or not (prose quoting one in backticks is not).
_MARKER_LIKE = re.compile(r"^\s*<!--\s*doctest\b", re.IGNORECASE)


class ExtractError(Exception):
    """A page whose markers the runner cannot follow; names the page and line."""


class Block:
    """One shell block: where it is, its language, what runs, and how (its marker's kind)."""

    def __init__(self, page, line, language, text, kind="run", reason=None):
        self.page = page
        self.line = line  # the line of the opening fence, 1-based
        self.language = language
        self.text = text  # the commands to run (a console block's prompts removed, output dropped)
        self.kind = kind
        self.reason = reason

    def where(self):
        return f"{self.page}:{self.line}"

    def __repr__(self):
        return f"Block({self.where()}, {self.language}, {self.kind}, {self.text!r})"


def console_commands(lines):
    """The commands of a console transcript: `$ ` lines and the lines their backslashes continue."""
    commands = []
    continuing = False
    for line in lines:
        if continuing:
            commands.append(line)
        elif line.startswith("$ ") or line == "$":
            commands.append(line[2:])
        else:
            continue
        continuing = line.rstrip().endswith("\\")
    return commands


def _dedent(line, indent):
    """`line` without the opening fence's indentation (at most that much whitespace)."""
    i = 0
    while i < len(indent) and i < len(line) and line[i] in " \t":
        i += 1
    return line[i:]


def _marker(page, number, text):
    """(kind, reason) of a marker comment's text; ExtractError when it is not one the runner knows."""
    match = _MARKER.match(text)
    body = _MARKER_BODY.match(match.group("body")) if match else None
    if not body or body.group("kind") not in KINDS or body.group("kind") == "run":
        raise ExtractError(
            f"{page}:{number}: unknown doc-test marker {text.strip()!r} "
            f"(known: skip (reason), fails (reason), findings (reason), serve, no-server)"
        )
    kind = body.group("kind")
    reason = (body.group("reason") or "").strip() or None
    if kind == "skip" and not reason:
        raise ExtractError(f"{page}:{number}: a skip marker says why: <!-- doctest: skip (needs a device) -->")
    if kind == "findings" and not reason:
        raise ExtractError(f"{page}:{number}: a findings marker says why: <!-- doctest: findings (registers twice on purpose) -->")
    return kind, reason


def extract(page, text):
    """Every shell block of the Markdown `text` (named `page` in messages), in order."""
    lines = text.split("\n")
    blocks = []
    pending = None  # (line number, kind, reason) of a marker waiting for its block
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence and not (fence.group("fence")[0] == "`" and "`" in fence.group("info")):
            indent, mark = fence.group("indent"), fence.group("fence")
            language = (fence.group("info").strip().split() or [""])[0].lower()
            closing = re.compile(r"^[ \t]*" + re.escape(mark[0]) + "{" + str(len(mark)) + r",}[ \t]*$")
            body = []
            j = i + 1
            while j < len(lines) and not closing.match(lines[j]):
                body.append(_dedent(lines[j], indent))
                j += 1
            if language in SHELL_LANGUAGES:
                commands = console_commands(body) if language == "console" else body
                kind, reason = ("run", None) if pending is None else (pending[1], pending[2])
                blocks.append(Block(page, i + 1, language, "\n".join(commands).strip("\n") + "\n", kind, reason))
            elif pending is not None:
                raise ExtractError(f"{page}:{pending[0]}: a doc-test marker before a {language or 'plain'} block, not a shell block")
            pending = None
            i = j + 1
            continue
        if _MARKER_LIKE.search(line):
            if pending is not None:
                raise ExtractError(f"{page}:{pending[0]}: a doc-test marker with no shell block after it")
            kind, reason = _marker(page, i + 1, line)
            pending = (i + 1, kind, reason)
        elif line.strip() and pending is not None:
            raise ExtractError(f"{page}:{pending[0]}: a doc-test marker must come right before its shell block")
        i += 1
    if pending is not None:
        raise ExtractError(f"{page}:{pending[0]}: a doc-test marker with no shell block after it")
    return blocks


def naive_count(text):
    """How many shell fences a plain line search finds: a second opinion on `extract`'s count."""
    return len(re.findall(r"(?m)^[ \t]*(?:```|~~~)[ \t]*(?:sh|bash|shell|console)[ \t]*$", text))
