#!/usr/bin/env python3
"""Runs the shell blocks of the README and the user guides as written, page by page.

Each page gets a network namespace of its own (`unshare --net`: loopback only, so nothing a block
runs can leave the machine, and ports 8080, 8443 and 8888 are free in it, so blocks run with the
addresses they print), a fresh temporary folder (its HOME, so the per-user CA is the page's own,
and its working directory), and one bash that runs the page's blocks in order, so variables, files
and the working directory carry from block to block. Before the first block that needs a server,
the runner starts one as a reader's first command does (`understudy`, the debug build, first on
PATH, with `--proxy-mode refuse`); the markers described in extract.py change that per block.

A block passes when every command in it succeeds. The blocks' curl counts an HTTP status of 400 or
more as a failure (as `--fail-with-body` does), so a 409 fails the block instead of printing a body
nobody reads; `swift run understudy …` runs the debug build CI already has, and any other `swift`
command fails (a block that builds or tests is marked skip). A block that leaves a fault rule for
every project (`/__admin/faults`) fails too: it would fail a reader's other projects for minutes.

Usage: python3 .ci/doctest/run.py [--verbose] [--keep] [PAGE.md …]
       (default: README.md and docs/*.md; docs/notes/ are engineering notes, not instructions)
Prints each page's blocks ran, passed and skipped, every failure with its block, output and exit
status, then `N passed, N failed` (blocks); exits 1 on any failure.
Environment: DOCTEST_BLOCK_SECONDS (20), how long a block may run.
"""
import argparse
import fcntl
import glob
import json
import os
import shlex
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.error
import urllib.request

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)

from extract import ExtractError, extract, naive_count  # noqa: E402

BLOCK_SECONDS = float(os.environ.get("DOCTEST_BLOCK_SECONDS", "20"))
READY_SECONDS = 60.0
SERVER = "http://127.0.0.1:8080"  # in a page's namespace, only a server of that page answers here

# Sourced by each page's bash. A block runs in the page's shell itself (not a subshell, so what it
# sets stays), with an ERR trap standing in for `set -e`: the first failing command ends the block
# (`set -e` would end the shell, and the page with it). A `fails` block runs to its end, counting
# failures: it passes when its last command failed and no other did.
PRELUDE = r"""
set -o pipefail
__doctest_block() {
  __doctest_failures=0
  __doctest_command=
  set -E
  if [ "$2" = fails ]; then
    # (not for the `source` itself, whose status is its last command's)
    trap '[ "${FUNCNAME[0]}" = __doctest_block ] || { __doctest_failures=$((__doctest_failures + 1)); __doctest_command=$BASH_COMMAND; }' ERR
  else
    trap '__doctest_status=$?; __doctest_failures=1; __doctest_command=$BASH_COMMAND; trap - ERR; set +E; return $__doctest_status' ERR
  fi
  source "$1"
  __doctest_status=$?
  trap - ERR
  set +E
  printf '%s %s\n%s\n' "$__doctest_status" "$__doctest_failures" "$__doctest_command" > "$3.tmp"
  mv "$3.tmp" "$3"
}
"""

CURL_SHIM = """#!/bin/sh
# The doc-test's curl: an HTTP status of 400 or more fails the command (exit 22), as --fail-with-body
# does, unless the command asks for --fail itself.
for arg in "$@"; do
  case "$arg" in --fail|--fail-with-body|-[!-]*f*) exec {curl} "$@" ;; esac
done
exec {curl} --fail-with-body "$@"
"""

SWIFT_SHIM = """#!/bin/sh
# The doc-test's swift: `swift run understudy …` is the debug build CI has already built; nothing
# else is run here (a block that builds or tests belongs behind a skip marker).
if [ "$1" = run ] && [ "$2" = understudy ]; then shift 2; exec understudy "$@"; fi
echo "doc-test: \\`swift $*\\` is not run here; mark the block <!-- doctest: skip (why) -->" >&2
exit 127
"""


def default_pages():
    return ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


# ---------------------------------------------------------------- inside a page's namespace


def loopback_up():
    """Brings `lo` up in a fresh network namespace (SIOCGIFFLAGS, then SIOCSIFFLAGS with IFF_UP)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, struct.pack("16sH", b"lo", 0)))[1]
        fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", flags | 1))


def get_json(path):
    """The server's JSON answer to GET `path`, or None (no server, not ready, an admin token)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(SERVER + path, timeout=5) as response:
            return json.load(response)
    except (urllib.error.URLError, OSError, ValueError):
        return None


def global_fault_rules():
    """The ids of the fault rules for every project on the page's server."""
    answer = get_json("/__admin/faults") or {}
    return [rule.get("id") for rule in answer.get("rules", [])]


def all_findings():
    """Every integration-check finding on the page's server, as (project, rule, device, count)."""
    found = set()
    for project in (get_json("/__admin/projects") or {}).get("projects", []):
        pid = project.get("id")
        for finding in (get_json(f"/__admin/projects/{pid}/findings") or {}).get("findings", []):
            found.add((pid, finding.get("rule"), finding.get("device"), finding.get("count")))
    return found


def stat_fields(pid):
    """/proc/PID/stat after the command name: state, ppid, pgrp, …; None once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None


def group_alive(process):
    """Whether a process of `process`'s group is left other than zombies (its id is the leader's pid)."""
    process.poll()  # reaps the leader once it has ended
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            fields = stat_fields(entry)
            if fields and int(fields[2]) == process.pid and fields[0] != "Z":
                return True
    return False


def namespace_processes():
    """Pids of the live processes in this network namespace, other than this one."""
    mine = os.readlink("/proc/self/ns/net")
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                same = os.readlink(f"/proc/{entry}/ns/net") == mine
            except OSError:
                continue
            fields = stat_fields(entry)
            if same and fields and fields[0] != "Z":
                pids.append(int(entry))
    return pids


def tail(path, lines):
    """The last `lines` lines of a file, as a terminal shows them (carriage returns overwrite)."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return ""
    shown = [line.rsplit("\r", 1)[-1] for line in text.split("\n")]
    return "\n".join(shown[-lines:]).strip("\n")


class Page:
    """One page's run: its folder, shell and servers, and each block's result."""

    def __init__(self, path, blocks, verbose=False, keep=False):
        self.path = path
        self.blocks = blocks
        self.verbose = verbose
        self.keep = keep
        self.tmp = tempfile.mkdtemp(prefix="understudy-doctest-")
        self.work = os.path.join(self.tmp, "work")
        self.bin = os.path.join(self.tmp, "bin")
        for folder in (self.work, self.bin, os.path.join(self.tmp, "home"), os.path.join(self.tmp, "blocks")):
            os.makedirs(folder)
        self.prelude = os.path.join(self.tmp, "prelude.sh")
        with open(self.prelude, "w") as f:
            f.write(PRELUDE)
        self.env = self.environment()
        self.shell = None
        self.servers = []  # (process, log, what): the runner's own and `serve` blocks', each a process group
        self.results = []  # (state, block, message, seconds); state: passed, failed, skipped, not-run

    def environment(self):
        curl = shutil.which("curl") or "/usr/bin/curl"
        for name, text in (("curl", CURL_SHIM.replace("{curl}", shlex.quote(curl))), ("swift", SWIFT_SHIM)):
            path = os.path.join(self.bin, name)
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o755)
        proxies = ("http_proxy", "https_proxy", "all_proxy", "no_proxy")
        env = {k: v for k, v in os.environ.items() if not k.startswith(("UNDERSTUDY_", "XDG_")) and k.lower() not in proxies}
        env.update(
            HOME=os.path.join(self.tmp, "home"),
            PATH=os.pathsep.join([self.bin, os.path.join(ROOT, ".build", "debug"), env.get("PATH", "/usr/bin:/bin")]),
            UNDERSTUDY_PROXY_MODE="refuse",
            UNDERSTUDY_READY_FILE=os.path.join(self.tmp, "serve.ready"),
            TERM="dumb",
        )
        return env

    def files(self, number):
        base = os.path.join(self.tmp, "blocks", f"{number:02d}")
        return base + ".sh", base + ".out", base + ".rc"

    # -- servers

    def spawn(self, command, log, what):
        """A server process in a session (so a process group) of its own, in the page's folder."""
        with open(log, "ab") as output:
            process = subprocess.Popen(
                command, cwd=self.work, env=self.env, stdin=subprocess.DEVNULL, stdout=output, stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.servers.append((process, log, what))
        return process

    def wait_ready(self, ready, process, rc=None):
        """Whether `ready` is written before `process` ends, `rc` appears or READY_SECONDS pass."""
        deadline = time.monotonic() + READY_SECONDS
        while time.monotonic() < deadline:
            if os.path.exists(ready) and os.path.getsize(ready) > 0:
                return True
            if process.poll() is not None or (rc and os.path.exists(rc)):
                return False
            time.sleep(0.05)
        return False

    def start_server(self):
        """Starts the runner's server as a reader's first command does; None, or what went wrong."""
        ready = os.path.join(self.tmp, "runner.ready")
        log = os.path.join(self.tmp, "server.log")
        process = self.spawn(["understudy", "serve", "--ready-file", ready, "--proxy-mode", "refuse"], log, "the runner's server")
        if self.wait_ready(ready, process):
            return None
        self.stop_servers()
        return "the runner's server did not get ready:\n" + tail(log, 20)

    def stop_servers(self):
        """SIGTERM to each server's group, waiting until it is gone (SIGKILL after 15 s)."""
        for process, _, _ in self.servers:
            for sig, seconds in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
                try:
                    os.killpg(process.pid, sig)
                except ProcessLookupError:
                    break
                deadline = time.monotonic() + seconds
                while group_alive(process) and time.monotonic() < deadline:
                    time.sleep(0.05)
                if not group_alive(process):
                    break
        self.servers = []

    def ended_server(self):
        """What to say of a server of the runner's that ended by itself (a crash, or a block that killed it)."""
        for process, log, what in self.servers:
            if process.poll() is not None:
                self.servers.remove((process, log, what))
                return f"{what} ended (status {process.returncode}) during this block; its log ends:\n{tail(log, 20)}"
        return None

    # -- the page's shell

    def start_shell(self):
        with open(os.path.join(self.tmp, "shell.log"), "ab") as log:
            self.shell = subprocess.Popen(
                ["bash", "--noprofile", "--norc"], cwd=self.work, env=self.env, stdin=subprocess.PIPE,
                stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )
        self.send(f"source {shlex.quote(self.prelude)}\n")

    def send(self, text):
        self.shell.stdin.write(text.encode())
        self.shell.stdin.flush()

    def kill_shell(self):
        """Ends the page's shell and everything in its process group (servers blocks put in the background)."""
        if self.shell is None:
            return
        for sig, seconds in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
            try:
                os.killpg(self.shell.pid, sig)
            except ProcessLookupError:
                break
            deadline = time.monotonic() + seconds
            while group_alive(self.shell) and time.monotonic() < deadline:
                time.sleep(0.05)
            if not group_alive(self.shell):
                break

    def run_block(self, number, block):
        """(passed, message) for one block."""
        script, out, rc = self.files(number)
        with open(script, "w") as f:
            f.write(block.text)
        mode = "fails" if block.kind == "fails" else "run"
        call = f"__doctest_block {shlex.quote(script)} {mode} {shlex.quote(rc)}"
        if block.kind == "serve":
            # A shell of its own (what the block sets does not reach later blocks), in a process
            # group the runner stops as it stops its own server.
            ready = self.env["UNDERSTUDY_READY_FILE"]
            if os.path.exists(ready):
                os.remove(ready)
            process = self.spawn(["bash", "--noprofile", "--norc", "-c", f"source {shlex.quote(self.prelude)}; {call}"], out, "the server of the `serve` block")
            if self.wait_ready(ready, process, rc):
                return True, None
            if process.poll() is None and not os.path.exists(rc):
                return False, f"its server was not ready after {READY_SECONDS:.0f} s"
            return False, "the block ended before its server was ready"
        # Its own stdin is /dev/null: a command reading stdin must not eat the page's script.
        self.send(f"{call} > {shlex.quote(out)} 2>&1 < /dev/null\n")
        deadline = time.monotonic() + BLOCK_SECONDS
        while not os.path.exists(rc):
            if self.shell.poll() is not None:
                return False, f"the block ended the page's shell (status {self.shell.returncode})"
            if time.monotonic() > deadline:
                self.kill_shell()
                return False, f"still running after {BLOCK_SECONDS:.0f} s (DOCTEST_BLOCK_SECONDS)"
            time.sleep(0.02)
        with open(rc) as f:
            head, _, command = f.read().partition("\n")
        status, failures = (int(x) for x in head.split())
        command = command.strip()
        if block.kind == "fails":
            if status != 0 and failures == 1:
                return True, None
            if failures == 0:
                return False, "marked `fails`, but every command succeeded"
            return False, f"marked `fails`: {failures} commands failed (only the last may), the last with status {status}: {command}"
        if status != 0:
            return False, f"status {status} from: {command}"
        return True, None

    # -- the page

    def run(self):
        started = time.monotonic()
        try:
            for number, block in enumerate(self.blocks, 1):
                if block.kind == "skip":
                    self.results.append(("skipped", block, None, 0.0))
                    continue
                if self.shell is not None and self.shell.poll() is not None:
                    self.results.append(("not-run", block, "not run: the page's shell had ended", 0.0))
                    continue
                if block.kind in ("serve", "no-server"):
                    self.stop_servers()
                elif get_json("/__admin/ready") is None:
                    problem = self.start_server()
                    if problem:
                        self.results.append(("failed", block, problem, 0.0))
                        continue
                if self.shell is None:
                    self.start_shell()
                block_started = time.monotonic()
                findings_before = all_findings() if block.kind not in ("findings", "serve", "no-server") else None
                passed, message = self.run_block(number, block)
                seconds = time.monotonic() - block_started
                if passed:
                    ended = self.ended_server()
                    leftover = global_fault_rules()
                    new_findings = sorted(all_findings() - findings_before, key=str) if findings_before is not None else []
                    if ended:
                        passed, message = False, ended
                    elif new_findings:
                        # A guide's example is a correct use of the SDK: one that breaks a rule on
                        # purpose says so with a `findings` marker.
                        passed, message = False, "it raised integration-check findings (mark it `findings (why)` if on purpose): " + ", ".join(
                            f"{rule} on {device} ({count}×)" for _, rule, device, count in new_findings)
                    elif leftover:
                        # A rule for every project fails a reader's other projects and suites too,
                        # for its whole lifetime: an example scopes its rules to a project.
                        passed, message = False, f"it leaves fault rules for every project (GET /__admin/faults): {', '.join(leftover)}"
                self.results.append(("passed" if passed else "failed", block, message, seconds))
        finally:
            self.finish()
        return time.monotonic() - started

    def finish(self):
        self.kill_shell()
        self.stop_servers()
        # Whatever a block started and left behind, even in a session of its own: every process in
        # this namespace was started by this page.
        for sig in (signal.SIGTERM, signal.SIGKILL):
            pids = namespace_processes()
            for pid in pids:
                try:
                    os.kill(pid, sig)
                except ProcessLookupError:
                    pass
            deadline = time.monotonic() + 5
            while pids and time.monotonic() < deadline:
                time.sleep(0.05)
                pids = namespace_processes()

    def report(self):
        """The page's results as JSON-ready data, with the output of each failed block (of all with --verbose)."""
        items = []
        for number, (state, block, message, seconds) in enumerate(self.results, 1):
            _, out, _ = self.files(number)
            output = tail(out, 60) if (state == "failed" or self.verbose) and os.path.exists(out) else None
            items.append({
                "state": state, "line": block.line, "kind": block.kind, "reason": block.reason,
                "text": block.text, "message": message, "seconds": round(seconds, 2), "output": output,
            })
        failed = any(i["state"] in ("failed", "not-run") for i in items)
        server_log = tail(os.path.join(self.tmp, "server.log"), 30) if failed else None
        return {"page": self.path, "blocks": items, "serverLog": server_log}

    def cleanup(self):
        if self.keep:
            print(f"  kept {self.tmp}", flush=True)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)


def run_page_here(path, result_path, verbose, keep):
    """The child's work: one page, in the network namespace the parent made for it."""
    loopback_up()
    with open(os.path.join(ROOT, path)) as f:
        blocks = extract(path, f.read())
    page = Page(path, blocks, verbose, keep)
    seconds = page.run()
    report = page.report()
    report["seconds"] = round(seconds, 1)
    page.cleanup()
    with open(result_path, "w") as f:
        json.dump(report, f)


# ---------------------------------------------------------------- the parent


def namespace_command():
    """The prefix that runs a command in a new network namespace, which has only loopback."""
    if os.geteuid() == 0:
        return ["unshare", "--net"]
    return ["unshare", "--user", "--map-root-user", "--net"]


def print_failure(page, item):
    print(f"\n--- FAILED {page}:{item['line']} ({item['kind']}): {item['message']}")
    print(textwrap.indent(item["text"].rstrip("\n"), "  | ", lambda line: True))
    if item["output"]:
        print("  output:")
        print(textwrap.indent(item["output"], "  > ", lambda line: True))
    elif item["state"] == "failed":
        print("  output: (none)")


def run_page(path, args):
    """The page's report from a child in a namespace of its own; None when the child failed."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as result:
        result_path = result.name
    command = [sys.executable, os.path.abspath(__file__), "--page-here", path, "--result", result_path]
    command += ["--verbose"] if args.verbose else []
    command += ["--keep"] if args.keep else []
    child = subprocess.run(namespace_command() + command, cwd=ROOT)
    try:
        with open(result_path) as f:
            report = json.load(f)
    except (OSError, ValueError):
        report = None
    os.remove(result_path)
    if child.returncode != 0:
        return None
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pages", nargs="*", help="Markdown pages (default: README.md and docs/*.md)")
    parser.add_argument("--verbose", action="store_true", help="print every block's output and time")
    parser.add_argument("--keep", action="store_true", help="keep each page's temporary folder")
    parser.add_argument("--page-here", help=argparse.SUPPRESS)
    parser.add_argument("--result", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.page_here:
        run_page_here(args.page_here, args.result, args.verbose, args.keep)
        return 0

    binary = os.path.join(ROOT, ".build", "debug", "understudy")
    if not os.access(binary, os.X_OK):
        print(f"build first: {binary} is missing")
        print("0 passed, 1 failed")
        return 1
    if subprocess.run(namespace_command() + ["true"], capture_output=True).returncode != 0:
        print(f"cannot make a network namespace (`{' '.join(namespace_command())} true` failed): the doc-test runs")
        print("every page on a loopback of its own, and not without one (run as root, or allow user namespaces)")
        print("0 passed, 1 failed")
        return 1

    started = time.monotonic()
    totals = {"ran": 0, "passed": 0, "failed": 0, "skipped": 0}
    for path in args.pages or default_pages():
        with open(os.path.join(ROOT, path)) as f:
            text = f.read()
        try:
            blocks = extract(path, text)
        except ExtractError as error:
            print(f"{path}: {error}")
            totals["failed"] += 1
            continue
        # Two readings of the page must agree, and every block extracted must be accounted for:
        # a broken extractor or runner must not pass a page by running none of its blocks.
        if len(blocks) != naive_count(text):
            print(f"{path}: the extractor found {plural(len(blocks), 'shell block')} where a line search finds {naive_count(text)}")
            totals["failed"] += 1
            continue
        if not blocks:
            print(f"{path}: no shell blocks")
            continue
        if all(b.kind == "skip" for b in blocks):
            report = {"seconds": 0.0, "blocks": [{"state": "skipped", "line": b.line, "reason": b.reason} for b in blocks]}
        else:
            report = run_page(path, args)
        if report is None or len(report["blocks"]) != len(blocks):
            print(f"{path}: the page's runner stopped without accounting for its {plural(len(blocks), 'block')}")
            totals["failed"] += 1
            continue
        items = report["blocks"]
        ran = [i for i in items if i["state"] in ("passed", "failed")]
        passed = [i for i in items if i["state"] == "passed"]
        failed = [i for i in items if i["state"] in ("failed", "not-run")]
        skipped = [i for i in items if i["state"] == "skipped"]
        totals["ran"] += len(ran)
        totals["passed"] += len(passed)
        totals["failed"] += len(failed)
        totals["skipped"] += len(skipped)
        print(f"{path}: {plural(len(items), 'shell block')}: {len(ran)} ran, {len(passed)} passed, {len(skipped)} skipped ({report['seconds']} s)")
        for item in items:
            if item["state"] == "skipped":
                print(f"  skipped {path}:{item['line']} ({item['reason']})")
            elif args.verbose:
                print(f"  {item['state']} {path}:{item['line']} {item['kind']} ({item['seconds']} s)")
                if item.get("output"):
                    print(textwrap.indent(item["output"], "    > ", lambda line: True))
        for item in failed:
            print_failure(path, item)
        if failed and report.get("serverLog"):
            print("  the runner's server log ends:")
            print(textwrap.indent(report["serverLog"], "  > ", lambda line: True))
    if totals["ran"] == 0 and not args.pages:
        print("no block ran at all: the extractor or the markers are broken")
        totals["failed"] += 1
    print(
        f"\ndoc-test: {totals['ran']} blocks ran, {totals['passed']} passed, {totals['failed']} failed, "
        f"{totals['skipped']} skipped, in {time.monotonic() - started:.0f} s"
    )
    print(f"{totals['passed']} passed, {totals['failed']} failed")
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
