#!/usr/bin/env python3
"""Request-level extremes fuzzer: for every operation of every served OpenAPI document (the four
platforms' and the control plane's), each numeric leaf of its request examples (body members,
query, header and path parameters) is replaced in turn by extreme numbers, and each date leaf by
odd dates. Pass: the server never dies, never answers >= 500, and every refusal fits the schema the
document declares for that status (or, for a status it does not declare, one of the operation's
error shapes). After every accepted write the project's reads are requested again (the platform's
GET operations, the project list, the project, its clock and its export), so a value that was
stored but cannot be rendered is found too.

Prints a summary per document and ends with `N passed, N failed` (one check per operation, plus
one per document for deaths), exit 1 on any failure.

Usage: run.py --binary .build/debug/understudy [--long] [--document NAME ...] [--work DIR]
"""
import argparse
import collections
import json
import os
import sys
import tempfile
import time
import uuid

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import jsonschema  # noqa: E402
import bundle as bundles  # noqa: E402
import examples  # noqa: E402
import operations as ops  # noqa: E402
import values  # noqa: E402
from server import Server  # noqa: E402

DOCUMENTS = ["warplink", "asleep", "warrantylife", "telematics", "openapi"]
SHOWN_PER_OPERATION = 4


class Run:
    def __init__(self, server, long):
        self.server, self.long = server, long
        self.credentials = {}
        self.control_project = None
        self.deaths = []
        self.failures = collections.defaultdict(list)  # operation id -> messages
        self.statuses = collections.defaultdict(collections.Counter)  # document -> status counts
        self.sent = collections.Counter()
        self.covered = collections.defaultdict(set)
        self.base = collections.defaultdict(dict)  # document -> operation id -> status of its unchanged example
        self.document = None
        self.platform_reads = {}  # platform -> its document's GET operations
        self.time_columns = {}  # bundle table -> indexes (as text) of its time columns

    # MARK: credentials and projects

    def prepare(self, name):
        """Credentials for the document's SDK operations, on the demo project (its fixtures give the
        examples' ids something to find), and the control plane's own project."""
        server = self.server
        self.credentials = examples.demo_credentials(server, name, email=f"x{uuid.uuid4().hex[:10]}@example.com")
        status, _, _ = server.request("GET", f"/__admin/projects/{self.control_project}") if self.control_project else (404, 0, 0)
        if status == 404:
            self.control_project = server.json("POST", "/__admin/projects", {"name": "extremes-control"})["id"]

    # MARK: requests

    def build(self, operation, project, body=None, body_leaf=None, parameter=None, replace=None):
        """(method, target, body bytes, headers) for the operation with at most one leaf replaced."""
        if body is not None:
            content_type, example, schema = body
            example = example if replace else ops.unique_strings(ops.shortened(example))
            if body_leaf:
                path, text, kind = body_leaf
                example = ops.replaced(example, path, ops.Raw(text) if kind == "number" else text)
            body = (content_type, example, schema)
        return examples.build(operation, project, self.credentials, body, parameter,
                              query=[f"replace={replace}"] if replace else None, boundary="extremes" + uuid.uuid4().hex)

    def send(self, operation, request, label, checked=None):
        """Sends one request and checks the answer against `checked`'s responses (the operation's
        own by default; a probe's answer is checked against the read it sent); failures are put on
        `operation`. Returns the status, None when there was no answer."""
        checked = operation if checked is None else (checked or None)
        method, target, data, headers = request
        self.sent[operation.name] += 1
        try:
            status, _, answer = self.server.request(method, target, data, headers)
        except OSError as error:
            self.no_answer(operation, label, request, error)
            return None
        self.statuses[operation.name][status] += 1
        if status >= 500:
            self.fail(operation, f"{label}: {method} {target} answered {status}: {answer[:300]!r}")
        elif status >= 400:
            problem = check_refusal(checked, status, answer) if checked is not None else None
            if problem:
                self.fail(operation, f"{label}: {method} {target} answered {status} {problem}: {answer[:300]!r}")
        return status

    def no_answer(self, operation, label, request, error):
        method, target, data, _ = request
        if self.server.alive():
            self.fail(operation, f"{label}: {method} {target} got no answer ({error})")
            return
        message = (f"server died on {operation.name} {operation.id} {label}: {method} {target} "
                   f"body {(data or b'')[:200]!r} (exit {self.server.process.returncode})")
        self.deaths.append(message)
        self.fail(operation, message)
        print("DEATH " + message + "\n" + self.server.log_tail(600), flush=True)
        if self.server.start():
            print("  restarted on the same database", flush=True)
        else:
            self.deaths.append(f"the server does not start again on its database after {operation.id} {label} (bricked)")
            print("  BRICKED: it does not start again on the same database; continuing on a fresh one\n"
                  + self.server.log_tail(600), flush=True)
            if not self.server.start(fresh=True):
                raise SystemExit("the server does not start on a fresh database either:\n" + self.server.log_tail())
        self.prepare(self.document)
        if operation.id == "importProject":
            bundles.prepare(self.server)  # the project the bundles replace, on a fresh database

    def fail(self, operation, message):
        self.failures[(operation.name, operation.id)].append(message)

    # MARK: the run

    def probes(self, operations, project):
        """The reads that render the project's stored state."""
        core = [("GET", "/__admin/projects"), ("GET", f"/__admin/projects/{project}"), ("GET", f"/__admin/projects/{project}/clock"),
                ("GET", f"/__admin/projects/{project}/export")]
        reads = [operation for operation in operations if operation.is_read and "requests" not in operation.path
                 and "metrics" not in operation.path and "openapi" not in operation.path]
        return core, reads

    def probe(self, operation, operations, project, label):
        core, reads = self.probes(operations, project)
        if operation.id == "importProject":
            # A bundle cell is read back by its own platform's control-plane reads.
            table = label.split(".")[1] if label.startswith("bundle tables.") else ""
            reads = [read for read in self.platform_reads.get(table.split("_")[0], []) if read.is_control_plane]
        for method, target in core:
            self.send(operation, (method, target, None, {}), f"{label}, then {method} {target}", checked=False)
        for read in reads:
            self.send(operation, self.build(read, project), f"{label}, then {read.id}", checked=read)

    def worth_reading(self, operation, label):
        """Whether an accepted import is read back: always with --long; else when it changed a
        time cell, the clock or the project (a number in another column is type-checked on import
        and read through checked conversions, and each import writes the whole demo project)."""
        if self.long or operation.id != "importProject":
            return True
        leaf = label.split("=", 1)[0]
        column = leaf.rsplit(".", 1)[-1]
        return not leaf.startswith("bundle tables.") or column in self.time_columns.get(leaf.split(".")[1], set())

    def run_operation(self, operation, operations, project):
        self.covered[operation.name].add(operation.id)
        bodies = operation.bodies or [None]
        cases = []  # (label, request builder arguments)
        for body in bodies:
            cases.append(("base", {"body": body}))
            if body is not None:
                content_type, example, schema = body
                found = operation.body_leaves(content_type, example, schema)
                for path, kind in found:
                    for text in replacement_values(kind, self.long):
                        cases.append((f"body {'.'.join(map(str, path)) or '(root)'}={text}", {"body": body, "body_leaf": (path, text, kind)}))
        if operation.id == "importProject":
            cases = self.bundle_cases(operation)
        for parameter, kind in operation.parameter_leaves({"id": project}):
            for text in replacement_values(kind, self.long):
                cases.append((f"{parameter['in']} {parameter['name']}={text}", {"body": bodies[0], "parameter": (parameter, text)}))
        # Reads after an accepted write: after each value for a replacing write (PUT, PATCH, an
        # import), whose next value overwrites it; once per leaf for a POST that adds rows, which
        # stay for the read to find (so a leaf's fifteen values cost one round of reads).
        accumulates = operation.method == "POST" and operation.id != "importProject"
        pending = None
        for index, (label, arguments) in enumerate(cases):
            status = self.send(operation, self.build(operation, project, **arguments), label)
            if label in ("base", "bundle base"):
                self.base[operation.name].setdefault(operation.id, status)
            accepted = status is not None and 200 <= status < 300 and not operation.is_read and "base" not in label
            target = arguments.get("replace", project)
            if accepted and not accumulates and self.worth_reading(operation, label):
                self.probe(operation, operations, target, label)
            elif accepted:
                pending = label.rsplit("=", 1)[0] + "=(each value)"
            leaf_done = index + 1 == len(cases) or cases[index + 1][0].rsplit("=", 1)[0] != label.rsplit("=", 1)[0]
            if pending and leaf_done:
                self.probe(operation, operations, target, pending)
                pending = None
        if not operation.is_read:
            self.prepare(self.document)  # it may have revoked the credentials or deleted the project

    def bundle_cases(self, operation):
        """Imports of the demo project's export with one value replaced (see bundle.py)."""
        cases = []
        kind_of = lambda value: ops.leaf_kind(operation.document, {}, value)  # noqa: E731
        for base in bundles.prepare(self.server):
            for name, table in base.get("tables", {}).items():
                self.time_columns[name] = {str(i) for i, c in enumerate(table.get("columns", [])) if c.endswith(("_at", "_time", "_ms"))}
            body = ("application/json", base, {})
            cases.append(("bundle base", {"body": body, "replace": bundles.PROJECT}))
            for path, kind in bundles.leaves(base, kind_of, self.long):
                for text in replacement_values(kind, self.long):
                    cases.append((f"bundle {'.'.join(map(str, path))}={text}", {"body": body, "body_leaf": (path, text, kind), "replace": bundles.PROJECT}))
        return cases

    def run_document(self, name):
        self.document = name
        path = "/__admin/openapi.json" if name == "openapi" else f"/__admin/openapi/{name}.json"
        document = self.server.json("GET", path)
        self.server.json("POST", "/__admin/projects/demo/reset")
        self.prepare(name)
        operations = ops.operations(document, name)
        self.platform_reads[name] = [o for o in operations if o.is_read]
        # SDK operations first, on the demo project's fixtures; then the control plane's, whose writes
        # (settings, seeded rows, clocks) the probes read back.
        ordered = [o for o in operations if not o.is_control_plane] + [o for o in operations if o.is_control_plane]
        started = time.monotonic()
        for operation in ordered:
            project = self.control_project if name == "openapi" else "demo"
            self.run_operation(operation, operations, project)
            if name == "openapi":
                self.server.request("DELETE", "/__admin/faults")  # global rules would reach every later request
        statuses = self.statuses[name]
        refusals = ", ".join(f"{status}: {count}" for status, count in sorted(statuses.items()) if status >= 400)
        failed = sum(1 for key in self.failures if key[0] == name)
        # An operation whose unchanged example is refused tests only the checks before its first
        # refusal; those are listed, so a document whose examples drift from the fixtures shows.
        shallow = sorted(op for op, status in self.base[name].items() if status is None or status >= 400)
        print(f"--- {name}: {len(self.covered[name])} operations, {self.sent[name]} requests in {time.monotonic() - started:.0f} s; "
              f"2xx/3xx {sum(c for s, c in statuses.items() if s < 400)}; refusals {{{refusals}}}; "
              f">=500 {sum(c for s, c in statuses.items() if s >= 500)}; operations failing {failed}; "
              f"unchanged example accepted by {len(self.base[name]) - len(shallow)} of {len(self.base[name])}", flush=True)
        if shallow:
            print(f"    refused unchanged: {', '.join(f'{op} ({self.base[name][op]})' for op in shallow)}", flush=True)


def replacement_values(kind, long):
    if kind == "number":
        return values.numbers(long)
    if kind == "numstring":
        return values.numbers(long)
    return values.dates(kind, long)


def declared_schema(operation, status):
    for key in (str(status), f"{status // 100}XX", "default"):
        response = operation.responses.get(key)
        if response is not None:
            content = response.get("content", {})
            media = content.get("application/json") or next(iter(content.values()), None)
            return True, (media or {}).get("schema")
    return False, None


def fits(operation, schema, body):
    root = dict(schema)
    root["components"] = operation.document.get("components", {})
    try:
        jsonschema.Draft202012Validator(root).validate(body)
        return True
    except jsonschema.ValidationError:
        return False


def check_refusal(operation, status, answer):
    """None when a 4xx body fits the declared schema (or an error shape of the operation), else why not."""
    declared, schema = declared_schema(operation, status)
    try:
        body = json.loads(answer) if answer else None
    except ValueError:
        return "with a body that is not JSON"
    if declared:
        if schema is None or fits(operation, schema, body):
            return None
        return "with a body that does not fit the declared schema"
    shapes = [declared_schema(operation, int(code))[1] for code in operation.responses if code[:1] == "4" and code[1:].isdigit()]
    shapes += [r.get("content", {}).get("application/json", {}).get("schema") for c, r in operation.responses.items() if c == "4XX"]
    if any(shape and fits(operation, shape, body) for shape in shapes):
        return None
    return "(undeclared) with a body in none of the operation's error shapes"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=".build/debug/understudy")
    parser.add_argument("--long", action="store_true", help="more values (32/53-bit edges, denormals, more dates)")
    parser.add_argument("--document", action="append", choices=DOCUMENTS, help="only these documents")
    parser.add_argument("--work", help="keep the database and server log here")
    arguments = parser.parse_args()
    work = arguments.work or tempfile.mkdtemp(prefix="extremes-")
    os.makedirs(work, exist_ok=True)
    server = Server(os.path.abspath(arguments.binary), work)
    if not server.start():
        print("the server did not start:\n" + server.log_tail())
        print("0 passed, 1 failed")
        return 1
    run = Run(server, arguments.long)
    started = time.monotonic()
    try:
        # The control plane's document last: its writes to other projects cannot disturb the platforms'.
        for name in arguments.document or DOCUMENTS:
            run.run_document(name)
    finally:
        server.stop()
    for (document, operation), messages in sorted(run.failures.items()):
        print(f"FAIL  {document} {operation} ({len(messages)} failures)")
        for message in messages[:SHOWN_PER_OPERATION]:
            print("      " + message)
    total_operations = sum(len(ids) for ids in run.covered.values())
    failed = len(run.failures)
    print(f"\n{sum(run.sent.values())} requests, {len(run.deaths)} deaths, "
          f"{sum(c for counts in run.statuses.values() for s, c in counts.items() if s >= 500)} answers >= 500, "
          f"in {time.monotonic() - started:.0f} s (work directory {work})")
    print(f"{total_operations - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
