#!/usr/bin/env python3
"""A big bundle import must not hold an event loop.

  bundle_import.py BIN WORKDIR MEGABYTES ROUNDS

Builds a bundle of about MEGABYTES MB once (the demo project's export, its WarpLink links copied with
fresh ids and slugs until the file is that big), then for each round starts BIN on a fresh SQLite file
with no demo project, imports the bundle with `POST /__admin/projects/import` while another process
polls `/__admin/health` every 2 ms over four keep-alive connections in turn, and prints:

  import_s        how long the import took (request sent to answer read)
  longest_ms      understudy_event_loop_longest_busy_seconds after the import (the longest stretch any
                  loop stayed busy between two waits, since the server started)
  before_ms       the same gauge just before the import (start-up's own stretches)
  over25/over100  stretches of 25 / 100 ms or more during the import (understudy_event_loop_busy_stretches_total)
  health_max_ms   the slowest health probe answered during the import; health_p99_ms its 99th percentile
  probes          health probes answered during the import

Then the imported project's export (`GET /__admin/projects/{id}/export`) the same way: longest_ms is
the gauge after the export (the import's stretches included), over25/over100 the export's own.

Then the round's seed-directory start: the same bundle in a seed directory, the time from launch to
ready, the longest loop stretch and the slowest health probe answered meanwhile (the server listens
before it seeds, so probes are answered while it seeds).
"""
import http.client, json, multiprocessing, os, re, shutil, socket, subprocess, sys, time, uuid

HOST = "127.0.0.1"


def call(port, method, path, body=None, connection=None, timeout=120):
    c = connection or http.client.HTTPConnection(HOST, port, timeout=timeout)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read()
    if connection is None:
        c.close()
    return r.status, data


class Server:
    def __init__(self, binary, work, name, extra=()):
        self.binary, self.work, self.name, self.extra = binary, work, name, list(extra)
        self.process, self.port = None, None

    def choose_port(self):
        """A free port chosen here, so probes can start before the server does (it listens before seeding)."""
        with socket.socket() as probe:
            probe.bind((HOST, 0))
            self.port = probe.getsockname()[1]
        return self.port

    def start(self, wait_ready=True):
        if self.port is None:
            self.choose_port()
        self.log_path = os.path.join(self.work, self.name + ".log")
        log = open(self.log_path, "wb")
        # SERVER_NICE (e.g. -10) runs the server ahead of other work on a shared machine, so its
        # loops' stretches are its own and not time other processes took from it.
        prefix = ["nice", "-n", os.environ["SERVER_NICE"]] if os.environ.get("SERVER_NICE") else []
        self.process = subprocess.Popen(prefix + [self.binary, "--port", str(self.port), "--https-port", "0", "--proxy-port", "0",
                                         "--database", os.path.join(self.work, self.name + ".sqlite"),
                                         "--no-request-log"] + self.extra, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 120
        while time.time() < deadline:
            try:
                status = call(self.port, "GET", "/__admin/ready" if wait_ready else "/__admin/health", timeout=5)[0]
                if status == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.01)
        raise SystemExit(f"bundle_import: {self.name} did not start (see {self.log_path})")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(60)


def metrics(port):
    status, data = call(port, "GET", "/__admin/metrics")
    text = data.decode()
    longest = float(re.search(r"^understudy_event_loop_longest_busy_seconds (\S+)$", text, re.M).group(1))
    over = {m.group(1): int(float(m.group(2))) for m in
            re.finditer(r'^understudy_event_loop_busy_stretches_total\{over="([^"]+)"\} (\S+)$', text, re.M)}
    return longest * 1000, over.get("0.025", 0), over.get("0.1", 0)


PROBE_CONNECTIONS = 4


def poll_health(port, stop, results):
    """A probe every 2 ms, taking turns over PROBE_CONNECTIONS keep-alive connections (the server
    spreads connections over its loops, so some share the importing connection's loop); the
    latencies in ms."""
    connections = [http.client.HTTPConnection(HOST, port, timeout=60) for _ in range(PROBE_CONNECTIONS)]
    latencies, turn = [], 0
    while not stop.is_set():
        turn = (turn + 1) % len(connections)
        started = time.perf_counter()
        try:
            connections[turn].request("GET", "/__admin/health")
            response = connections[turn].getresponse()
            response.read()
        except (OSError, http.client.HTTPException):
            connections[turn].close()
            connections[turn] = http.client.HTTPConnection(HOST, port, timeout=60)
            time.sleep(0.002)
            continue
        latencies.append((time.perf_counter() - started) * 1000)
        time.sleep(0.002)
    results.put(latencies)


def summary(latencies):
    if not latencies:
        return 0.0, 0.0, 0
    ordered = sorted(latencies)
    return ordered[-1], ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], len(ordered)


def build_bundle(binary, work, megabytes):
    source = Server(binary, work, "source")
    source.start()
    try:
        status, data = call(source.port, "GET", "/__admin/projects/demo/export")
        if status != 200:
            raise SystemExit(f"bundle_import: exporting the demo project answered {status}")
    finally:
        source.stop()
    bundle = json.loads(data)
    links = bundle["tables"]["warplink_links"]
    columns = links["columns"]
    template = links["rows"][0]
    at = {name: columns.index(name) for name in ("id", "slug")}
    row_bytes = len(json.dumps(template)) + 1
    target = megabytes * 1_000_000 - len(data)
    for index in range(max(0, target // row_bytes)):
        row = list(template)
        row[at["id"]] = str(uuid.UUID(int=index + 1))
        row[at["slug"]] = f"bench-{index}"
        links["rows"].append(row)
    encoded = json.dumps(bundle).encode()
    path = os.path.join(work, "big.json")
    with open(path, "wb") as f:
        f.write(encoded)
    return path, len(encoded), len(links["rows"])


def measured(port, action):
    """Runs `action` while another process polls health; (seconds, health latencies)."""
    stop, results = multiprocessing.Event(), multiprocessing.Queue()
    poller = multiprocessing.Process(target=poll_health, args=(port, stop, results))
    poller.start()
    time.sleep(0.2)  # the poller's connection is open and answered before the import starts
    started = time.perf_counter()
    action()
    elapsed = time.perf_counter() - started
    time.sleep(0.05)
    stop.set()
    latencies = results.get(timeout=60)
    poller.join()
    return elapsed, latencies


def main():
    binary, work, megabytes, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    path, size, rows = build_bundle(binary, work, megabytes)
    print(f"bundle: {size / 1e6:.1f} MB, {rows} WarpLink links")
    body = open(path, "rb").read()
    print("import: round  import_s  before_ms  longest_ms  over25  over100  health_max_ms  health_p99_ms  probes")
    exports = []
    for round_number in range(1, rounds + 1):
        server = Server(binary, work, f"import-{round_number}", ["--fixtures", ""])
        server.start()
        try:
            before, over25, over100 = metrics(server.port)
            answer = {}

            def run():
                answer["status"], answer["body"] = call(server.port, "POST", "/__admin/projects/import", body)

            elapsed, latencies = measured(server.port, run)
            if answer["status"] != 201:
                raise SystemExit(f"bundle_import: the import answered {answer['status']}: {answer['body'][:300]!r}")
            longest, after25, after100 = metrics(server.port)
            worst, p99, count = summary(latencies)
            print(f"        {round_number:5d}  {elapsed:8.2f}  {before:9.1f}  {longest:10.1f}  {after25 - over25:6d}  "
                  f"{after100 - over100:7d}  {worst:13.1f}  {p99:13.1f}  {count:6d}")
            # The same project exported again: the document is built and encoded off the loops too.
            project = json.loads(answer["body"])["id"]
            exported = {}

            def export():
                exported["status"], exported["body"] = call(server.port, "GET", f"/__admin/projects/{project}/export")

            elapsed, latencies = measured(server.port, export)
            if exported["status"] != 200:
                raise SystemExit(f"bundle_import: the export answered {exported['status']}")
            longest_after_export, export25, export100 = metrics(server.port)
            worst, p99, count = summary(latencies)
            exports.append(f"        {round_number:5d}  {elapsed:8.2f}  {longest_after_export:10.1f}  {export25 - after25:6d}  "
                           f"{export100 - after100:7d}  {worst:13.1f}  {p99:13.1f}  {count:6d}  {len(exported['body']) / 1e6:.1f} MB")
        finally:
            server.stop()
    print("export: round  export_s  longest_ms  over25  over100  health_max_ms  health_p99_ms  probes  size")
    print("\n".join(exports))
    print("seed:   round  seed_s  longest_ms  health_max_ms  health_p99_ms  probes")
    for round_number in range(1, rounds + 1):
        seeds = os.path.join(work, f"seeds-{round_number}")
        os.makedirs(seeds, exist_ok=True)
        shutil.copy(path, os.path.join(seeds, "big.json"))
        server = Server(binary, work, f"seed-{round_number}", ["--fixtures", "", "--seed-dir", seeds])
        server.choose_port()
        try:
            # The probes start first and keep trying until the server listens; it seeds after that.
            elapsed, latencies = measured(server.port, server.start)
            longest, _, _ = metrics(server.port)
            worst, p99, count = summary(latencies)
            print(f"        {round_number:5d}  {elapsed:6.2f}  {longest:10.1f}  {worst:13.1f}  {p99:13.1f}  {count:6d}")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
