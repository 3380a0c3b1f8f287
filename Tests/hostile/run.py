#!/usr/bin/env python3
"""Hostile-client suite: attacks a real `understudy serve` on 127.0.0.1 and checks it holds.

Each case checks the status (if any) and whether the connection closed, and the runner checks
around it that another client's `/__admin/health` kept being answered (its p99 against the idle
value is printed, never asserted) and that the server's RSS and open descriptors came back near
their baseline. Ends with `N passed, N failed`; exits 1 when anything failed.

Usage: Tests/hostile/run.py [--binary .build/debug/understudy] [-k SUBSTRING ...] [--list]
"""
import argparse
import os
import resource
import sys
import time
import traceback

sys.dont_write_bytecode = True  # keep the checkout clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import harness  # noqa: E402
import cases_defects  # noqa: E402,F401  (registers cases)
import cases_holding  # noqa: E402,F401
import cases_load  # noqa: E402,F401
import cases_tls  # noqa: E402,F401

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MIB = 1024 * 1024
# After a case the server may keep some of what it allocated (malloc arenas, caches); anything
# beyond this is treated as not having come back.
RSS_SLACK = 64 * MIB
FD_SLACK = 4


class Runner:
    def __init__(self, binary):
        self.binary = binary
        self.main = None
        self.idle_p99 = None

    def start_server(self, name, **options):
        return harness.Server(self.binary, REPO, name, **options)

    def settle(self, server):
        """Waits for the descriptor count to stop moving (connections of the previous case closing)."""
        last = server.fds()
        for _ in range(40):
            time.sleep(0.05)
            now = server.fds()
            if now == last:
                return
            last = now

    def run(self, case):
        fresh = case.server == "fresh"
        server = self.start_server(case.name, **case.server_options) if fresh else self.main
        context = harness.Context(self, server)
        problems = []
        try:
            self.settle(server)
            base_fds, base_rss = server.fds(), server.rss()
            started = time.monotonic()
            with harness.HealthProber(server.port) as prober:
                try:
                    case.function(context)
                except harness.CaseFailure as failure:
                    problems.append(str(failure))
                except Exception as error:  # an attack that blew up the client side is a failure too
                    problems.append(f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=3)}")
            elapsed = time.monotonic() - started
            if not server.alive():
                problems.append(f"server died (exit {server.process.returncode}); log tail: {server.log_text()[-800:]}")
            else:
                if prober.failures:
                    problems.append(f"other clients not served: {len(prober.failures)} of "
                                    f"{len(prober.failures) + len(prober.latencies)} health probes failed ({prober.failures[0]})")
                if not harness.wait_until(lambda: server.fds() <= base_fds + FD_SLACK, timeout=10):
                    problems.append(f"open descriptors did not return: {server.fds()} vs {base_fds} before")
                if not harness.wait_until(lambda: server.rss() <= base_rss + RSS_SLACK, timeout=5):
                    problems.append(f"RSS did not return: {server.rss() // MIB} MiB vs {base_rss // MIB} MiB before")
            p99 = prober.p99_ms()
            context.note(f"health p99 {p99:.1f} ms (idle {self.idle_p99:.1f} ms, {len(prober.latencies)} probes)"
                         if p99 is not None else "health p99 n/a (no probe answered)")
            context.note(f"{elapsed:.1f}s")
        finally:
            for extra in context.extra_servers:
                extra.stop()
            if fresh:
                server.stop()
        return problems, context.notes


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(REPO, ".build", "debug", "understudy"))
    parser.add_argument("-k", action="append", default=[], help="run only cases whose name contains this")
    parser.add_argument("--list", action="store_true")
    options = parser.parse_args()
    cases = [c for c in harness.CASES if not options.k or any(k in c.name for k in options.k)]
    if options.list:
        for c in cases:
            print(f"{c.name:40} {'defect ' + str(c.defect) if c.defect else 'holds'}")
        return 0
    if not os.access(options.binary, os.X_OK):
        print(f"no server binary at {options.binary} (build it with `swift build`)")
        return 2
    # Ten thousand client sockets need descriptors of our own.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    runner = Runner(options.binary)
    runner.main = runner.start_server("main")
    passed, failed = 0, []
    try:
        runner.idle_p99 = harness.idle_p99(runner.main.port)
        print(f"server pid {runner.main.pid} on port {runner.main.port}; idle health p99 {runner.idle_p99:.1f} ms", flush=True)
        for c in cases:
            label = f"[defect {c.defect}]" if c.defect else "[holds]"
            problems, notes = runner.run(c)
            if not runner.main.alive():
                problems.append("the shared server died; restarting it")
                runner.main = runner.start_server("main")
            verdict = "PASS" if not problems else "FAIL"
            print(f"{verdict} {c.name} {label} — {'; '.join(notes)}", flush=True)
            for problem in problems:
                print(f"     {problem}", flush=True)
            if problems:
                failed.append(c.name)
            else:
                passed += 1
    finally:
        runner.main.stop()
    if failed:
        print("failed: " + ", ".join(failed))
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
