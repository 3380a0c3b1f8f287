#!/usr/bin/env python3
"""What idle journal waits cost the server and everyone else (Linux only: reads /proc).

  idle_waits.py BIN WORKDIR [--waiters 100,1000,5000] [--seconds 10] [--probes 2000] [--database URL]

For each count N, on a fresh server (BIN, the demo project, a fresh SQLite file or the PostgreSQL
database URL given), it opens N/2 long polls (`GET …/requests?after=<newest>&waitMs=60000`) and N/2
`POST …/requests/wait` (`timeoutMs` 60000) on the demo project, none of which any request matches
yet, and prints in one row:

  cores_idle     the server's CPU (utime+stime from /proc/<pid>/stat) over SECONDS with no wait open
  cores_waiting  the same with the N waits open
  p50/p99        a client's sequential `GET /__admin/health` round trips (PROBES of them) without the
                 waits and with them, and the ratio of the p99s (same run, same machine)
  wake_first/all ms from one matching SDK request (a WarrantyLife key validation) being sent to the
                 first and the last of the N waits answering
  xact/s         with --database: PostgreSQL transactions committed per second on that database
                 (pg_stat_database) while the N waits sat idle, and with none open

The waits go over raw keep-alive sockets read only at the end, as a parallel test suite's would.
"""
import argparse, http.client, json, os, re, resource, selectors, socket, subprocess, sys, time

HOST = "127.0.0.1"
DEMO_KEY = "demo0000000000000000000000000000"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def call(port, method, path, body=None, headers=None, timeout=120):
    connection = http.client.HTTPConnection(HOST, port, timeout=timeout)
    connection.request(method, path, body=body, headers=headers or {})
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, data


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14 and 15)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def probe(port, count):
    """Sequential health round trips on one keep-alive connection; their latencies in ms."""
    connection = http.client.HTTPConnection(HOST, port, timeout=60)
    latencies = []
    for _ in range(count):
        started = time.perf_counter()
        connection.request("GET", "/__admin/health")
        connection.getresponse().read()
        latencies.append((time.perf_counter() - started) * 1000)
    connection.close()
    return latencies


def commits(database):
    if not database:
        return None
    name = database.rsplit("/", 1)[1].split("?")[0]
    output = subprocess.run(["psql", database, "-Atc", f"SELECT xact_commit FROM pg_stat_database WHERE datname = '{name}'"],
                            capture_output=True, text=True, check=True).stdout
    return int(output.strip())


class Server:
    def __init__(self, binary, work, database):
        with socket.socket() as chooser:
            chooser.bind((HOST, 0))
            self.port = chooser.getsockname()[1]
        target = database or os.path.join(work, f"waits-{self.port}.sqlite")
        self.log = open(os.path.join(work, f"server-{self.port}.log"), "wb")
        self.process = subprocess.Popen([binary, "--port", str(self.port), "--no-https", "--no-proxy", "--database", target,
                                         "--no-request-log"], stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 120
        while time.time() < deadline:
            try:
                if call(self.port, "GET", "/__admin/ready", timeout=5)[0] == 200:
                    return
            except OSError:
                pass
            if self.process.poll() is not None:
                break
            time.sleep(0.02)
        raise SystemExit(f"idle_waits: the server did not start (see {self.log.name})")

    def stop(self):
        self.process.terminate()
        self.process.wait(60)


def open_waits(port, project, newest, count):
    sockets = []
    for index in range(count):
        client = socket.create_connection((HOST, port))
        if index % 2 == 0:
            request = (f"GET /__admin/projects/{project}/requests?after={newest}&waitMs=60000 HTTP/1.1\r\n"
                       f"Host: {HOST}:{port}\r\n\r\n")
        else:
            body = json.dumps({"since": newest, "count": 1, "timeoutMs": 60000})
            request = (f"POST /__admin/projects/{project}/requests/wait HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                       f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n{body}")
        client.sendall(request.encode())
        sockets.append(client)
    return sockets


def parked(port):
    text = call(port, "GET", "/__admin/metrics")[1].decode()
    match = re.search(r"^understudy_journal_waits (\d+)", text, re.M)
    return int(match.group(1)) if match else None


def wake(port, sockets):
    """Sends one matching request; ms until the first and the last wait answered."""
    selector = selectors.DefaultSelector()
    for client in sockets:
        client.setblocking(False)
        selector.register(client, selectors.EVENT_READ)
    started = time.perf_counter()
    status, _ = call(port, "GET", "/warrantylife/mapi/wi/100/developer-keys/validate", headers={"X-WL-Developer-Key": DEMO_KEY})
    if status != 200:
        raise SystemExit(f"idle_waits: the key validation answered {status}")
    first, remaining, deadline = None, len(sockets), time.time() + 30
    while remaining and time.time() < deadline:
        for key, _ in selector.select(timeout=1):
            try:
                data = key.fileobj.recv(65536)
            except BlockingIOError:
                continue
            if data.startswith(b"HTTP/1.1 ") or not data:
                first = first or (time.perf_counter() - started) * 1000
                remaining -= 1
                selector.unregister(key.fileobj)
    last = (time.perf_counter() - started) * 1000
    return first, last, remaining


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("work")
    parser.add_argument("--waiters", default="100,1000,5000")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--probes", type=int, default=2000)
    parser.add_argument("--database")
    options = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"idle waits: {options.binary}{' on ' + options.database.split('@')[-1] if options.database else ' on SQLite'}, "
          f"{options.seconds:.0f} s per CPU sample, {options.probes} probes")
    print(f"| waits | cores idle | cores waiting | probe p50 ms (none / waiting) | probe p99 ms (none / waiting) | p99 ratio "
          f"| wake first / all ms | unanswered |{' xact/s (none / waiting) |' if options.database else ''}")
    print(f"|---|---|---|---|---|---|---|---|{'---|' if options.database else ''}")
    for count in [int(value) for value in options.waiters.split(",")]:
        server = Server(options.binary, options.work, options.database)
        try:
            projects = json.loads(call(server.port, "GET", "/__admin/projects")[1])["projects"]
            project = next(p["id"] for p in projects if p["id"].startswith("demo"))
            time.sleep(1)  # start-up's own work settles
            before, xact_before = cpu_seconds(server.process.pid), commits(options.database)
            time.sleep(options.seconds)
            idle = (cpu_seconds(server.process.pid) - before) / options.seconds
            idle_xact = (commits(options.database) - xact_before) / options.seconds if options.database else None
            alone = probe(server.port, options.probes)
            newest_page = json.loads(call(server.port, "GET", f"/__admin/projects/{project}/requests?limit=1")[1])["requests"]
            newest = newest_page[0]["id"] if newest_page else 0
            sockets = open_waits(server.port, project, newest, count)
            deadline = time.time() + 30
            while time.time() < deadline and (parked(server.port) or 0) < count:
                time.sleep(0.05)
            time.sleep(1)
            before, xact_before = cpu_seconds(server.process.pid), commits(options.database)
            time.sleep(options.seconds)
            waiting = (cpu_seconds(server.process.pid) - before) / options.seconds
            waiting_xact = (commits(options.database) - xact_before) / options.seconds if options.database else None
            crowded = probe(server.port, options.probes)
            first, last, unanswered = wake(server.port, sockets)
            for client in sockets:
                client.close()
            row = (f"| {count} | {idle:.3f} | {waiting:.3f} | {percentile(alone, 0.5):.2f} / {percentile(crowded, 0.5):.2f} "
                   f"| {percentile(alone, 0.99):.2f} / {percentile(crowded, 0.99):.2f} "
                   f"| {percentile(crowded, 0.99) / percentile(alone, 0.99):.2f} | {first or 0:.1f} / {last:.1f} | {unanswered} |")
            if options.database:
                row += f" {idle_xact:.0f} / {waiting_xact:.0f} |"
            print(row, flush=True)
        finally:
            server.stop()


if __name__ == "__main__":
    sys.exit(main())
