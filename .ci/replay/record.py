#!/usr/bin/env python3
"""Records a server binary's answers to the replay corpus, normalized, so that two binaries'
recordings can be diffed (compare.py, ../replay.sh). Made for refactors whose rule is "behaviour
unchanged": the same wire bytes, OpenAPI documents and journal entries.

It starts BINARY on a fresh SQLite file in a temporary directory (loopback only, Swift's hash seed
fixed with SWIFT_DETERMINISTIC_HASHING=1 so that objects the server writes from a Dictionary keep
their member order run to run), freezes the demo project's clock, sends the corpus (corpus.py: each
platform's served document, its credentials, deliberate errors and every operation's examples,
then a few control-plane calls) one request at a time, and writes OUT/recording.jsonl:

  {"kind": "exchange", "n", "section", "case", "method", "path", "query", "sent": {"headers",
   and the request body as below}, "status", "headers": [[name, value], ...] as received minus
   Date, and one of "body" (JSON whose compact rendering is byte for byte what was received),
   "bodyText" (any other text, as received) or "bodyBase64" (not UTF-8)}
  {"kind": "journal", "n", "section", "entry": one journal entry of the section (the demo
   project's or of no project), oldest first}

Two things besides normalize.py's rules keep a recording from changing by itself: a Content-Length
(or a journal entry's body size) equal to the length of the body recorded with it is written as
`<body length>`, and the one list the server orders by random ids is sorted (RANDOM_ORDER).

Every string is normalized first (normalize.py: ports, the temporary directory, generated ids,
tokens and secrets, real-clock times and durations become placeholders numbered by first
appearance), so a recording of the same binary repeats exactly and any other difference is real.
OUT/server.log keeps the server's output.

Usage: record.py --binary .build/debug/understudy --out DIR [--keep-work]
"""
import argparse
import base64
import json
import os
import shutil
import sys
import tempfile
import time
from urllib.parse import urlsplit

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "extremes"))
sys.path.insert(0, HERE)

import corpus  # noqa: E402
import examples  # noqa: E402
from normalize import Normalizer  # noqa: E402
from server import Server  # noqa: E402

# Response headers left out: the wall-clock time of the answer.
SKIPPED_HEADERS = {"date"}
# Lists the server orders by (time, random id): the demo fixtures' rows are written in the same
# second, so they tie on time and swap places from run to run. Path -> (list member, member to
# sort by). Sorted before normalizing, so placeholders are numbered in the sorted order.
RANDOM_ORDER = {"/__admin/projects/demo/warrantylife/users": ("users", "email")}
# The journal is read in one page; a section that outgrows it is an error, not a silent cut.
JOURNAL_PAGE = 1000


class RecordingServer(Server):
    """The server, with every request of a section and its answer kept (in order) as a raw exchange
    (not the readiness polls before the first section, whose number varies)."""

    def __init__(self, *arguments, **keywords):
        super().__init__(*arguments, **keywords)
        self.exchanges = []
        self.section = None
        self.case = None

    def request(self, method, target, body=None, headers=None, timeout=30):
        status, header_list, data = self.exchange(method, target, body, headers, timeout)
        if self.section is None:
            return status, dict(header_list), data
        self.exchanges.append({
            "section": self.section, "case": self.case, "method": method, "target": target,
            "requestHeaders": dict(headers or {}), "requestBody": body,
            "status": status, "headers": header_list, "body": data,
        })
        return status, dict(header_list), data


class Recorder:
    def __init__(self, server):
        self.server = server
        self.credentials = {}
        self.journals = []  # (section, raw listing bytes)
        self.last_journal_id = None  # the newest entry read so far

    def send(self, case, method, target, headers=None, body=None):
        self.server.case = case
        return self.server.request(method, target, body, headers or {})

    def run(self):
        self.start_journal()
        for name in corpus.PLATFORMS:
            self.platform_section(name)
        self.control_plane_section()

    def platform_section(self, name):
        self.server.section = name
        status, _, data = self.send("document", "GET", f"/__admin/openapi/{name}.json")
        # A binary that fails here is still recorded: the section goes on with what it has, and
        # the answers it gets show the failure in the diff.
        document = json.loads(data) if status == 200 else {"paths": {}}
        self.send("reset", "POST", "/__admin/projects/demo/reset")
        self.freeze_clock()
        self.server.case = "credentials"
        try:
            self.credentials = examples.demo_credentials(self.server, name, email=corpus.CREDENTIALS_EMAIL)
        except (RuntimeError, KeyError, ValueError) as error:
            print(f"warning: {name}: the credentials could not be obtained ({error}); going on without them", file=sys.stderr)
            self.credentials = {}
        operations = corpus.ordered_operations(document, name)
        by_id = {operation.id: operation for operation in operations}
        for label, method, path, headers, body in corpus.ERROR_CASES[name]:
            self.send(f"error: {label}", method, path, self.headers(headers), self.error_body(body, by_id))
        for operation in operations:
            for index, body in enumerate(corpus.example_bodies(operation)):
                method, target, data, headers = examples.build(operation, "demo", self.credentials, body, boundary=corpus.BOUNDARY)
                suffix = f" #{index + 1}" if index else ""
                self.send(f"example {operation.id}{suffix}", method, target, headers, data)
        self.read_journal(name)

    def control_plane_section(self):
        self.server.section = "control-plane"
        self.send("document", "GET", "/__admin/openapi.json")
        for label, method, path, headers, body in corpus.CONTROL_PLANE:
            self.send(label, method, path, headers, body)
        self.read_journal("control-plane")

    def freeze_clock(self):
        body = json.dumps({"mode": "frozen", "now": corpus.FROZEN_AT}).encode()
        status, _, _ = self.send("freeze clock", "PUT", "/__admin/projects/demo/clock", {"Content-Type": "application/json"}, body)
        if status != 200:
            # Without a frozen clock nothing after this repeats: no recording rather than a noisy one.
            raise SystemExit(f"freezing the demo clock answered {status}")

    def headers(self, spec):
        """A case's headers, with {"auth": scheme or (schemes)} replaced by the credentials' headers."""
        headers = {k: v for k, v in spec.items() if k != "auth"}
        schemes = spec.get("auth", ())
        schemes = (schemes,) if isinstance(schemes, str) else schemes
        return {**examples.scheme_headers(self.credentials, schemes), **headers}

    @staticmethod
    def error_body(body, by_id):
        if isinstance(body, tuple) and body[0] == "retyped":
            operation = by_id[body[1]]
            _, example, _ = operation.bodies[0]
            return json.dumps(corpus.retyped(example), separators=(",", ":")).encode()
        return body

    def start_journal(self):
        """Puts the journal cursor after everything journalled before the first section (the
        readiness polls, whose number varies)."""
        status, _, data = self.server.exchange("GET", "/__admin/requests?limit=1")
        entries = json.loads(data)["requests"] if status == 200 else []
        self.last_journal_id = entries[0]["id"] if entries else 0

    def read_journal(self, section):
        """Every journal entry since the last read, kept apart from the exchanges: the demo
        project's and those of no project (a request refused before its credential named a
        project is journalled there, and the platform edge is what a refactor changes). The
        read itself is not recorded: it is what it returns."""
        target = f"/__admin/requests?limit={JOURNAL_PAGE}&after={self.last_journal_id}"
        status, _, data = self.server.exchange("GET", target)
        if status != 200:
            raise SystemExit(f"reading the journal answered {status}: {data[:300]!r}")
        entries = json.loads(data)["requests"]
        if len(entries) >= JOURNAL_PAGE:
            raise SystemExit(f"section {section} has {JOURNAL_PAGE} or more journal entries: read it in pages")
        if entries:
            self.last_journal_id = entries[0]["id"]
        self.journals.append((section, data))


def body_fields(normalizer, data, content_type, prefix="body"):
    """A body as recorded: JSON when its compact rendering is exactly the normalized text received
    (readable and exact), else the normalized text, else base64. Members are named PREFIX,
    PREFIXText, PREFIXBase64; an empty body has none."""
    if not data:
        return {}
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {prefix + "Base64": base64.b64encode(data).decode()}
    text = normalizer.text(text)
    if "json" in (content_type or ""):
        try:
            value = json.loads(text)
            if json.dumps(value, ensure_ascii=False, separators=(",", ":")) == text:
                return {prefix: value}
        except ValueError:
            pass
    return {prefix + "Text": text}


def in_stable_order(path, data):
    """`data` (a JSON answer to `path`) with a RANDOM_ORDER list sorted; other answers, and any
    whose layout is not the compact one that re-encoding gives back, unchanged."""
    if path not in RANDOM_ORDER or not data:
        return data
    member, key = RANDOM_ORDER[path]
    try:
        text = data.decode("utf-8")
        value = json.loads(text)
    except ValueError:
        return data
    if json.dumps(value, ensure_ascii=False, separators=(",", ":")) != text or not isinstance(value.get(member), list):
        return data
    value[member].sort(key=lambda element: str(element.get(key)))
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def sized(value, body):
    """`<body length>` when `value` (a Content-Length or a journal size) is the byte length of
    `body`, so that a generated id one digit longer does not show as a change; else `value`."""
    if body is not None and str(value) == str(len(body)):
        return "<body length>"
    return value


def header_value(normalizer, name, value, body):
    if name.lower() == "content-length":
        return sized(value, body)
    if name.lower() == "x-understudy-trace":
        return normalizer.trace(value)
    return normalizer.text(value)


def exchange_line(normalizer, number, exchange):
    target = urlsplit(exchange["target"])
    received = exchange["headers"]
    body = in_stable_order(target.path, exchange["body"])
    content_type = next((value for name, value in received if name.lower() == "content-type"), None)
    sent_type = next((value for name, value in exchange["requestHeaders"].items() if name.lower() == "content-type"), None)
    headers = [[name, header_value(normalizer, name, value, body)] for name, value in received if name.lower() not in SKIPPED_HEADERS]
    return {"kind": "exchange", "n": number, "section": exchange["section"], "case": exchange["case"],
            "method": exchange["method"], "path": normalizer.text(target.path), "query": normalizer.text(target.query),
            "sent": {"headers": {name: normalizer.text(value) for name, value in exchange["requestHeaders"].items()},
                     **body_fields(normalizer, exchange["requestBody"], sent_type)},
            "status": exchange["status"], "headers": headers, **body_fields(normalizer, body, content_type)}


def journal_lines(normalizer, section, listing):
    """The section's journal entries, oldest first (the listing is newest first)."""
    entries = json.loads(listing)["requests"]
    for index, entry in enumerate(reversed(entries), 1):
        if isinstance(entry.get("responseBody"), str):
            entry["responseBody"] = in_stable_order(entry.get("path"), entry["responseBody"].encode("utf-8")).decode("utf-8")
        for size, body in (("responseBodySize", "responseBody"), ("requestBodySize", "requestBody")):
            if size in entry and isinstance(entry.get(body), str):
                entry[size] = sized(entry[size], entry[body].encode("utf-8"))
        if "id" in entry:
            entry["id"] = normalizer.trace(entry["id"])
        text = normalizer.text(json.dumps(entry, ensure_ascii=False, separators=(",", ":")))
        yield {"kind": "journal", "n": index, "section": section, "entry": json.loads(text)}


def lines(server, recorder, normalizer):
    """The recording's JSON lines: each section's exchanges, then its journal."""
    journals = dict(recorder.journals)
    sections = list(dict.fromkeys(exchange["section"] for exchange in server.exchanges))
    number = 0
    for section in sections:
        for exchange in server.exchanges:
            if exchange["section"] == section:
                number += 1
                yield exchange_line(normalizer, number, exchange)
        if section in journals:
            yield from journal_lines(normalizer, section, journals[section])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--out", required=True, help="directory for recording.jsonl and server.log")
    parser.add_argument("--keep-work", action="store_true", help="keep the temporary directory (database, CA)")
    arguments = parser.parse_args()
    os.makedirs(arguments.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="replay-")
    server = RecordingServer(os.path.abspath(arguments.binary), work, environment={"SWIFT_DETERMINISTIC_HASHING": "1"})
    started = time.monotonic()
    wall_clock = [time.time()]
    try:
        if not server.start():
            raise SystemExit("the server did not start:\n" + server.log_tail())
        ports = listening_ports(server)
        recorder = Recorder(server)
        recorder.run()
        wall_clock.append(time.time())
        normalizer = Normalizer(work=work, ports=ports, window=wall_clock)
    finally:
        server.stop()
        shutil.copyfile(server.log_path, os.path.join(arguments.out, "server.log"))
        if not arguments.keep_work:
            shutil.rmtree(work, ignore_errors=True)
    path = os.path.join(arguments.out, "recording.jsonl")
    counts = {"exchange": 0, "journal": 0}
    with open(path, "w", encoding="utf-8") as out:
        for line in lines(server, recorder, normalizer):
            counts[line["kind"]] += 1
            out.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"{counts['exchange']} exchanges, {counts['journal']} journal entries in {time.monotonic() - started:.1f} s: {path}")
    return 0


def listening_ports(server):
    """The three listeners' ports by role (HTTP, HTTPS, proxy), from the demo project (read before
    the first section, so not recorded)."""
    project = server.json("GET", "/__admin/projects/demo")
    return {
        "http": server.port,
        "https": urlsplit(project["httpsBaseURLs"]["warplink"]).port,
        "proxy": int(project["proxy"]["address"].rsplit(":", 1)[1]),
    }


if __name__ == "__main__":
    sys.exit(main())
