#!/usr/bin/env python3
"""The report of Benchmarks/hotpaths.sh: one Markdown table plus the ingest, flatness and RSS lines.

  report.py RESULTS RSS ROUNDS DURATION ELAPSED BIN INGEST_THREADS

Each measured run is 10 numbers: req/s, p50, p99, p99.9 and max (µs), failed statuses (≥ 400), socket
errors, requests, CPU µs per request and context switches per request. Medians over rounds; a ratio is the
median of each round's ratio (route ÷ nginx measured just before it), so one noisy round moves it little.
"""
import sys
from collections import OrderedDict

FIELDS = ["rps", "p50", "p99", "p999", "max", "bad", "sock", "reqs", "cpu", "ctx"]
# After a route run's fields: the machine's stolen CPU time (ms) during it, the requests the server timed at
# 25 ms or more and at 100 ms or more, its event loops' busy stretches of 25 ms or more and 100 ms or more, and
# the main database's committed writes and the transactions that held them.
TAIL_FIELDS = ["steal_ms", "slow25", "slow100", "loop25", "loop100", "writes", "transactions"]
READS = {"resolve", "resolve-tap", "validate", "voucher", "appconfig", "report", "me", "trips"}
WRITES = {"match", "upload", "sensor"}
LABELS = {"health": "`/__admin/health`", "resolve": "WarpLink resolve", "resolve-tap": "WarpLink resolve, SDK tap id",
          "validate": "WarpLink validate",
          "voucher": "WarrantyLife voucher lookup", "appconfig": "WarrantyLife app-config", "report": "Asleep report fetch",
          "me": "Telematics current user", "trips": "Telematics trips (100)", "match": "WarpLink attribution match",
          "upload": "Asleep 30 KB upload", "sensor": "WarrantyLife sensor event",
          "telemetry": "Telematics telemetry", "readings": "WarrantyLife readings"}


def run(values):
    return {k: float(v) for k, v in zip(FIELDS, values)}


def median(v):
    v = sorted(v)
    n = len(v)
    return (v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2) if v else float("nan")


def ms(us):
    return f"{us / 1000:.2f}" if us < 100_000 else f"**{us / 1000:.0f}**"


def ratio(a, b):
    return a / b if b > 0 else float("nan")


REST_SECONDS = 3

TAIL_NOTE = ("Slow tails. wrk corrects its latencies for coordinated omission: a request slower than the interval "
             "i = run time ÷ (requests ÷ connections) is also recorded as the requests the client would have sent "
             "meanwhile, at every i below it. One stall of D ms at c connections therefore adds about c·D/i samples: "
             "at 16 connections and 0.5 ms a request, a single 50 ms stall is 1,600 samples, over 1% of a 3 s run. "
             "Each run below missed its p99 goal or had a request of 25 ms or more. \"one stall\" says whether a single "
             "stall as long as the worst request accounts for the p99 alone; \"server ≥ 25 ms\" is how many requests "
             "the server itself timed that slow, from arrival to answer; \"loop busy\" how often one of its event loops "
             "stayed busy that long at a stretch, while requests arriving meanwhile waited unread, before their timing "
             "starts (none of either: the wait was outside the server, in the kernel, the scheduler or wrk); "
             "\"steal\" is CPU time the hypervisor took from this machine meanwhile.")


def tail_lines(main_runs, duration):
    lines = []
    for (name, conns), rs in main_runs.items():
        p99_limit = 2000 if conns == 1 else 5000
        for _, _, r in rs:
            if r["p99"] <= p99_limit and r["max"] < 25_000:
                continue
            interval = duration * 1e6 / max(r["reqs"] / conns, 1)
            line = f"- round {r['round']}, {LABELS.get(name, name)}, {conns} conn: p99 {ms(r['p99'])} ms, worst {ms(r['max'])} ms, i = {interval:.0f} µs"
            if r["p99"] > p99_limit:
                one_stall = conns * (r["max"] - r["p99"]) / interval >= 0.01 * r["reqs"]
                line += f", one stall: {'yes' if one_stall else 'no'}"
            if "slow25" in r:
                line += f"; server ≥ 25 ms: {r['slow25']:.0f} (≥ 100 ms: {r['slow100']:.0f})"
            if "loop25" in r:
                line += f"; loop busy ≥ 25 ms: {r['loop25']:.0f} (≥ 100 ms: {r['loop100']:.0f})"
            if "steal_ms" in r:
                line += f"; steal {r['steal_ms']:.0f} ms"
            lines.append(line)
    return lines


WRITES_NOTE = ("Writes. A route that changes the emulated state (a resolve records its click, a voucher lookup its "
               "lookup) commits a write per request to the main database; writes queued while the writer is busy commit "
               "in one transaction, so the more connections, the more requests share a commit. Per route, medians over "
               "rounds, from the server's understudy_database_writes_total and understudy_database_transactions_total:")


def write_lines(main_runs):
    """Writes per request, and per transaction at each connection count, of every route that wrote (no line
    from a server without the counters)."""
    per_route = OrderedDict()
    for (name, conns), rs in main_runs.items():
        runs = [r for _, _, r in rs if r.get("writes", 0) > 0 and r["reqs"] > 0 and r["transactions"] > 0]
        per_request = median([r["writes"] / r["reqs"] for r in runs])
        # A route that does not write still sees the odd background write (the Asleep worker's) during its run.
        if runs and per_request >= 0.05:
            per_commit = median([r["writes"] / r["transactions"] for r in runs])
            per_route.setdefault(name, []).append((conns, per_request, per_commit))
    lines = []
    for name, counts in per_route.items():
        requests = " / ".join(f"{per_request:.2f}" for _, per_request, _ in counts)
        commits = " / ".join(f"{per_commit:.1f}" for _, _, per_commit in counts)
        conns = " / ".join(str(conns) for conns, _, _ in counts)
        lines.append(f"- {LABELS.get(name, name)} ({conns} conn): {requests} writes a request, {commits} writes a transaction")
    return lines


REFERENCE_NOTE = ("The upload against nginx taking the same bodies (the same 30 KB multipart requests, as PUTs), "
                  "measured in the same rounds: one location reads each body and drops it (`return 200`), so it costs "
                  "what receiving the bytes costs; the other stores each in a file (the WebDAV module: a temporary "
                  "file renamed over one of 16 names per connection), as a server that keeps uploads does. Neither "
                  "parses, hashes or records anything.")
REFERENCE_KINDS = (("sink", "reads and drops"), ("dav", "stores in a file"))


def reference_lines(main_runs, references):
    """A table of the routes measured against nginx taking their request bodies too: CPU per request, ratios."""
    rows = []
    for (name, conns), rs in main_runs.items():
        if not any((name, conns, kind) in references for kind, _ in REFERENCE_KINDS):
            continue
        cells = [LABELS.get(name, name), str(conns), f"{median([r['cpu'] for _, _, r in rs]):.1f}"]
        for kind, _ in REFERENCE_KINDS:
            per_round = references.get((name, conns, kind), {})
            ratios = [ratio(r["cpu"], per_round[r["round"]]["cpu"]) for _, _, r in rs if r["round"] in per_round]
            cells.append(f"{median([v['cpu'] for v in per_round.values()]):.1f}")
            cells.append(f"{median(ratios):.2f}")
        rows.append("| " + " | ".join(cells) + " |")
    if not rows:
        return []
    head = "| route | conns | route CPU µs/req | " + " | ".join(f"nginx {what}: CPU µs/req | route ÷ it" for _, what in REFERENCE_KINDS) + " |"
    return [head, "|---|---|---|" + "---|---|" * len(REFERENCE_KINDS)] + rows


def main(results, rss_path, rounds, duration, elapsed, binary, ingest_threads):
    main_runs, ingest, flat, seeds, journal = OrderedDict(), OrderedDict(), OrderedDict(), {}, []
    references = {}
    for line in open(results):
        f = line.split()
        if f[0] == "main":
            _, rnd, name, conns, size = f[:5]
            route = run(f[15:25])
            route.update(round=int(rnd), **{k: float(v) for k, v in zip(TAIL_FIELDS, f[25:25 + len(TAIL_FIELDS)])})
            main_runs.setdefault((name, int(conns)), []).append((int(size), run(f[5:15]), route))
        elif f[0] == "reference":
            _, rnd, name, conns, kind = f[:5]
            references.setdefault((name, int(conns), kind), {})[int(rnd)] = run(f[5:15])
        elif f[0] == "ingest":
            ingest.setdefault(f[2], []).append(run(f[3:13]))
        elif f[0] == "flat":
            _, rnd, phase, name, conns = f[:5]
            flat.setdefault((name, int(conns)), {}).setdefault(int(phase), []).append(dict(run(f[5:15]), round=int(rnd)))
        elif f[0] == "seed":
            seeds[f[1]] = f[2:]
        elif f[0] == "journal":
            journal.append(line.strip()[len("journal "):])
    out, loud = [], []
    out.append(f"## Understudy SDK hot paths vs nginx (same-size static JSON, same run)\n")
    out.append(f"`{binary}` · wrk -t1, keep-alive, loopback, journal on · {rounds} rounds × {duration} s per run, "
               f"nginx then the route · medians · {elapsed} s in all\n")
    out.append("| route | conns | req/s | ×nginx req/s | p50 ms | p99 ms | p99.9 ms | max ms | CPU µs/req | ×nginx CPU "
               "| ctxsw/req | non-2xx | bytes | nginx CPU µs/req | goal (CPU; p99) |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for (name, conns), rs in main_runs.items():
        size = rs[0][0]
        route = [r for _, _, r in rs]
        nginx = [n for _, n, _ in rs]
        rps = median([r["rps"] for r in route])
        x_rps = median([ratio(r["rps"], n["rps"]) for _, n, r in rs])
        cpu = median([r["cpu"] for r in route])
        x_cpu = median([ratio(r["cpu"], n["cpu"]) for _, n, r in rs])
        bad = int(sum(r["bad"] for r in route))
        sock = int(sum(r["sock"] for r in route))
        worst = max(r["max"] for r in route)
        p99 = median([r["p99"] for r in route])
        limit = 1.5 if name == "health" else 4 if name in READS else 8
        p99_limit = 2000 if conns == 1 else 5000
        goal = [f"{'met' if x_cpu <= limit else 'NOT met'} (≤ {limit:g}×)", f"{'met' if p99 <= p99_limit else 'NOT met'} (≤ {p99_limit / 1000:g} ms)"]
        if name == "health" and conns == 16:
            goal.append(f"req/s {'met' if x_rps >= 0.8 else 'NOT met'} (≥ 0.8×)")
        errors = f"{bad}" + (f" + {sock} socket" if sock else "")
        if bad or sock:
            errors = f"**{errors}**"
            loud.append(f"!! {LABELS.get(name, name)} at {conns} connection(s): {bad} failed statuses, {sock} socket errors")
        out.append(f"| {LABELS.get(name, name)} | {conns} | {rps:,.0f} | {x_rps:.2f} | {ms(median([r['p50'] for r in route]))} | {ms(p99)} "
                   f"| {ms(median([r['p999'] for r in route]))} | {ms(worst)} | {cpu:.1f} | {x_cpu:.1f} | {median([r['ctx'] for r in route]):.2f} "
                   f"| {errors} | {size:,} | {median([n['cpu'] for n in nginx]):.1f} | {'; '.join(goal)} |")
    out.append("\nratios are each round's route ÷ the nginx run just before it (median over rounds); max is the worst "
               "request of all rounds, the other latencies are medians; non-2xx counts responses ≥ 400 and socket errors "
               "over all rounds; CPU is the whole process's utime + stime from /proc (nginx: master + workers) per "
               "request answered; nginx serves the route's captured response as a file with GET (the write routes "
               "send their bodies to Understudy only).")
    against_bodies = reference_lines(main_runs, references)
    if against_bodies:
        out.append("\n" + REFERENCE_NOTE + "\n")
        out.extend(against_bodies)
    writes = write_lines(main_runs)
    if writes:
        out.append("\n" + WRITES_NOTE)
        out.extend(writes)
    tails = tail_lines(main_runs, float(duration))
    if tails:
        out.append("\n" + TAIL_NOTE)
        out.extend(tails)
    if ingest:
        out.append("")
        for name, rs in ingest.items():
            rate = median([r["rps"] for r in rs]) * 1000
            per = median([r["cpu"] for r in rs]) / 1000
            bad = int(sum(r["bad"] + r["sock"] for r in rs))
            if bad:
                loud.append(f"!! {LABELS[name]} ingest: {bad} failed statuses or socket errors")
            out.append(f"- ingest, {LABELS[name]} (1,000 samples a gzip batch, wrk -t{ingest_threads} -c16): **{rate:,.0f} samples/s**, "
                       f"{per:.3f} server CPU µs per sample, p99 {ms(median([r['p99'] for r in rs]))} ms a batch, {bad} non-2xx "
                       f"(goal ≥ 300,000 samples/s: {'met' if rate >= 300_000 else 'NOT met'}); per round "
                       + ", ".join(f"{r['rps'] * 1000:,.0f}" for r in rs))
    if flat:
        phases = sorted({p for per in flat.values() for p in per})
        small, large = phases[0], phases[-1]
        out.append("")
        if seeds:
            out.append("- flatness seeding through the control plane, 16 connections: " + "; ".join(
                f"{kind} {int(v[0]):,} in {float(v[1]):.1f} s ({int(v[0]) / max(float(v[1]), 0.001):,.0f}/s)" for kind, v in seeds.items()))
        for (name, conns), per in flat.items():
            a, b = per.get(small, []), per.get(large, [])
            if not a or not b:
                continue
            m = {k: (median([r[k] for r in a]), median([r[k] for r in b])) for k in ("p50", "p99", "cpu", "rps")}
            bad = int(sum(r["bad"] + r["sock"] for r in a + b))
            if bad:
                loud.append(f"!! flatness {name} c{conns}: {bad} failed statuses or socket errors")
            label = "Telematics trips (the user's 10)" if name == "trips" else LABELS[name]
            # The two projects are measured side by side in every round: the ratio of each round's pair, then their median.
            by_round = {r["round"]: r for r in a}
            pairs = [ratio(r["cpu"], by_round[r["round"]]["cpu"]) for r in b if r["round"] in by_round]
            spread = f", per-round {min(pairs):.2f}–{max(pairs):.2f}" if len(pairs) > 1 else ""
            out.append(f"- flatness, {label}, {conns} conn: {small:,} → {large:,} rows: p50 {ms(m['p50'][0])} → {ms(m['p50'][1])} ms "
                       f"(×{ratio(m['p50'][1], m['p50'][0]):.2f}), p99 {ms(m['p99'][0])} → {ms(m['p99'][1])} ms (×{ratio(m['p99'][1], m['p99'][0]):.2f}), "
                       f"CPU {m['cpu'][0]:.1f} → {m['cpu'][1]:.1f} µs/req (**×{median(pairs):.2f}**{spread}), req/s ×{ratio(m['rps'][1], m['rps'][0]):.2f}"
                       + (f", {bad} non-2xx" if bad else ""))
    rows = [line.split() for line in open(rss_path)]
    rss = OrderedDict((row[0], int(row[1])) for row in rows)
    heap = OrderedDict((row[0], int(row[2])) for row in rows if len(row) > 2 and row[2] != "-")
    mib = lambda kb: f"{kb / 1024:.1f} MiB"
    after = [v for k, v in rss.items() if k.startswith("round")]
    line = f"\n- RSS: idle {mib(rss.get('idle', 0))}; after each round " + ", ".join(mib(v) for v in after)
    if len(after) > 1:
        line += f" (growth from the first round to the last: {(after[-1] - after[0]) / 1024:+.1f} MiB)"
    for k in ("ingest", "flatness"):
        if k in rss:
            line += f"; after {k} {mib(rss[k])}"
    rested = [v for k, v in rss.items() if k.startswith("rest")]
    if rested:
        line += (f"\n- RSS at rest ({REST_SECONDS} s after each round, once the server has handed freed heap back): " + ", ".join(mib(v) for v in rested)
                 + (f" (growth from the first round to the last: {(rested[-1] - rested[0]) / 1024:+.1f} MiB)" if len(rested) > 1 else ""))
    heap_rested = [v for k, v in heap.items() if k.startswith("rest")]
    if heap_rested:
        line += (f"\n- live heap at rest (the allocator's bytes in use, from the server's metrics): idle {mib(heap.get('idle', 0))}; "
                 + ", ".join(mib(v) for v in heap_rested)
                 + (f" (growth from the first round to the last: {(heap_rested[-1] - heap_rested[0]) / 1024:+.1f} MiB)" if len(heap_rested) > 1 else ""))
    out.append(line)
    if journal:
        out.append("\nfailed answers in the benchmark project's journal (the routes' rounds): " + "; ".join(journal))
    if loud:
        out.append("\n" + "\n".join(loud))
    print("\n".join(out))


if __name__ == "__main__":
    main(*sys.argv[1:])
