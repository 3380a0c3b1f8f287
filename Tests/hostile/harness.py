"""Server process control, /proc measurements, a raw HTTP client and the health prober.

Everything talks to 127.0.0.1 only; every wait has a deadline.
"""
import os
import resource
import shutil
import socket
import struct
import subprocess
import tempfile
import threading
import time

HOST = "127.0.0.1"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


class CaseFailure(AssertionError):
    """A check inside a case did not hold."""


def check(condition, message):
    if not condition:
        raise CaseFailure(message)


# MARK: - The server under test


class Server:
    """One `understudy serve` process on a free port with its own temporary database."""

    def __init__(self, binary, repo, name, extra_args=(), nofile=None, header_timeout=3.0, idle_timeout=60.0):
        self.name = name
        self.directory = tempfile.mkdtemp(prefix=f"hostile-{name}-")
        self.log_path = os.path.join(self.directory, "server.log")
        args = [binary, "serve", "--port", "0", "--database", os.path.join(self.directory, "db.sqlite"), "--ca-dir", self.directory,
                "--fixtures", "", "--no-request-log", "--no-journal", "--log-format", "json",
                "--header-timeout", str(header_timeout), "--idle-timeout", str(idle_timeout),
                # Free ports for TLS and the proxy: servers run side by side and must not fight over 8443 and 8888.
                "--https-port", "0", "--proxy-port", "0", *extra_args]

        def limit_files():
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, nofile)

        # glibc raises its mmap threshold after large frees, and then keeps freed body buffers in
        # its arenas: hundreds of MiB stay resident after a burst although nothing leaks. A fixed
        # threshold makes "RSS returns to baseline" a leak check rather than an allocator one.
        environment = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072")
        self.args = args
        self.log = open(self.log_path, "wb")
        # The repository as working directory: the server finds its migrations and config there.
        self.process = subprocess.Popen(args, cwd=repo, stdout=self.log, stderr=subprocess.STDOUT,
                                        stdin=subprocess.DEVNULL, env=environment, preexec_fn=limit_files)
        self.pid = self.process.pid
        self.https_port = None
        self.port = self._wait_for_port(deadline=time.monotonic() + 30)
        # The CA lives beside the database; TLS cases trust it.
        self.ca_path = os.path.join(self.directory, "understudy-ca.pem")

    def _wait_for_port(self, deadline):
        import json
        while time.monotonic() < deadline:
            port = None
            if self.process.poll() is not None:
                raise RuntimeError(f"server {self.name} exited with {self.process.returncode}: {self.log_text()[-2000:]}")
            with open(self.log_path, "rb") as handle:
                for line in handle:
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        continue
                    if entry.get("message") == "HTTPS listening" and "url" in entry:
                        self.https_port = int(entry["url"].rsplit(":", 1)[1].strip("/"))
                    elif entry.get("message", "").endswith("listening") and "url" in entry:
                        port = int(entry["url"].rsplit(":", 1)[1].strip("/"))
                # The HTTPS line follows the main one; a server started with --no-https has none.
                if port is not None and (self.https_port is not None or "--no-https" in self.args):
                    return port
            time.sleep(0.05)
        raise RuntimeError(f"server {self.name} did not report its port: {self.log_text()[-2000:]}")

    def proxy_port(self, timeout=10):
        """The proxy listener's port, from the `proxy listening` log line."""
        import json
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with open(self.log_path, "rb") as handle:
                for line in handle:
                    try:
                        entry = json.loads(line)
                    except ValueError:
                        continue
                    if entry.get("message") == "proxy listening" and "port" in entry:
                        return int(entry["port"])
            time.sleep(0.05)
        raise RuntimeError(f"server {self.name} did not report a proxy port: {self.log_text()[-2000:]}")

    def log_text(self):
        with open(self.log_path, "rb") as handle:
            return handle.read().decode("utf-8", "replace")

    def alive(self):
        return self.process.poll() is None

    def rss(self):
        """Resident set size in bytes."""
        with open(f"/proc/{self.pid}/statm") as handle:
            return int(handle.read().split()[1]) * PAGE_SIZE

    def fds(self):
        return len(os.listdir(f"/proc/{self.pid}/fd"))

    def cpu_seconds(self):
        """User plus system CPU time consumed so far, all threads."""
        with open(f"/proc/{self.pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS

    def _thread_schedstats(self):
        stats = {}
        for tid in os.listdir(f"/proc/{self.pid}/task"):
            try:
                with open(f"/proc/{self.pid}/task/{tid}/schedstat") as handle:
                    on_cpu, waiting, _ = map(int, handle.read().split())
                stats[tid] = on_cpu + waiting
            except (OSError, ValueError):
                continue
        return stats

    def cpu_demand_over(self, seconds):
        """(busiest thread's demand, whole process's CPU) per wall second over the next `seconds`.

        Demand is time on a CPU plus time waiting in the run queue (/proc/<pid>/task/*/schedstat):
        a thread that spins wants the CPU all the time, so its demand is near 1.0 even when a
        loaded machine gives it only a fraction, whereas CPU time alone then looks harmless.
        """
        start_threads, start_cpu, start = self._thread_schedstats(), self.cpu_seconds(), time.monotonic()
        time.sleep(seconds)
        end_threads, end_cpu = self._thread_schedstats(), self.cpu_seconds()
        wall = time.monotonic() - start
        demand = max((end_threads[tid] - start_threads[tid] for tid in end_threads if tid in start_threads), default=0)
        return demand / 1e9 / wall, (end_cpu - start_cpu) / wall

    def nofile_limits(self):
        with open(f"/proc/{self.pid}/limits") as handle:
            for line in handle:
                if line.startswith("Max open files"):
                    parts = line.split()
                    return int(parts[3]), int(parts[4])
        return None

    def stop(self):
        if self.alive():
            self.process.terminate()
            try:
                # A loop stuck in a quadratic parse never drains; do not wait out its grace period.
                self.process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


def wait_until(condition, timeout, interval=0.05):
    """Polls `condition` until it holds or `timeout` seconds pass; returns whether it held."""
    deadline = time.monotonic() + timeout
    while True:
        if condition():
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(interval)


# MARK: - A raw HTTP/1.1 client


class Response:
    def __init__(self, status, reason, headers, body):
        self.status, self.reason, self.headers, self.body = status, reason, headers, body

    def header(self, name):
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None

    def __repr__(self):
        return f"<{self.status} {self.reason} {len(self.body)}B>"


class ConnectionClosed(Exception):
    """The server closed (or reset) before a whole response arrived."""


class Client:
    """One TCP connection that sends raw bytes and parses what comes back."""

    def __init__(self, port, timeout=5.0, rcvbuf=None):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        if rcvbuf:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        self.sock.settimeout(timeout)
        self.sock.connect((HOST, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buffer = b""
        self.timeout = timeout

    def send(self, data):
        if isinstance(data, str):
            data = data.encode("latin-1")
        self.sock.sendall(data)
        return self

    def _fill(self, deadline):
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise socket.timeout("response deadline passed")
        self.sock.settimeout(remaining)
        try:
            chunk = self.sock.recv(65536)
        except ConnectionResetError:
            raise ConnectionClosed("reset")
        if not chunk:
            raise ConnectionClosed("eof")
        self.buffer += chunk

    def _line(self, deadline):
        while b"\r\n" not in self.buffer:
            self._fill(deadline)
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line.decode("latin-1")

    def response(self, timeout=None, head_only=False):
        """Reads one response (skipping 1xx interim ones unless asked); raises ConnectionClosed or socket.timeout."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            status_line = self._line(deadline)
            parts = status_line.split(" ", 2)
            status = int(parts[1])
            headers = []
            while True:
                line = self._line(deadline)
                if not line:
                    break
                name, _, value = line.partition(":")
                headers.append((name, value.strip()))
            if 100 <= status < 200 and status != 101:
                return Response(status, parts[2] if len(parts) > 2 else "", headers, b"")
            result = Response(status, parts[2] if len(parts) > 2 else "", headers, b"")
            if head_only or status in (204, 304):
                return result
            length = result.header("content-length")
            if length is not None:
                while len(self.buffer) < int(length):
                    self._fill(deadline)
                result.body, self.buffer = self.buffer[:int(length)], self.buffer[int(length):]
            elif (result.header("transfer-encoding") or "").lower() == "chunked":
                result.body = self._chunked(deadline)
            else:
                try:
                    while True:
                        self._fill(deadline)
                except ConnectionClosed:
                    pass
                result.body, self.buffer = self.buffer, b""
            return result

    def _chunked(self, deadline):
        body = b""
        while True:
            size = int(self._line(deadline).split(";")[0], 16)
            if size == 0:
                while self._line(deadline):
                    pass
                return body
            while len(self.buffer) < size + 2:
                self._fill(deadline)
            body, self.buffer = body + self.buffer[:size], self.buffer[size + 2:]

    def ending(self, timeout=2.0):
        """How the connection ends within `timeout`: 'eof', 'reset', 'open' or 'data'."""
        if self.buffer:
            return "data"
        self.sock.settimeout(timeout)
        try:
            chunk = self.sock.recv(65536)
        except ConnectionResetError:
            return "reset"
        except (socket.timeout, TimeoutError):
            return "open"
        except OSError:
            return "reset"
        if chunk:
            self.buffer += chunk
            return "data"
        return "eof"

    def reset(self):
        """Closes with an RST instead of a FIN."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def exchange(port, data, timeout=5.0):
    """Sends `data` on a new connection; returns (response or None, how the connection then ended)."""
    client = Client(port, timeout=timeout)
    try:
        try:
            client.send(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            response = client.response(timeout=timeout)
        except ConnectionClosed as closed:
            return None, str(closed)
        return response, client.ending(timeout=2.0)
    finally:
        client.close()


# MARK: - Other clients' view


class HealthProber:
    """Asks `/__admin/health` on a new connection every `interval` seconds from a thread.

    New connections, so probes land on every event loop in turn (connections are spread round
    robin), and a stalled loop shows up as probes that are not answered.
    """

    def __init__(self, port, interval=0.02, timeout=5.0):
        self.port, self.interval, self.timeout = port, interval, timeout
        self.latencies, self.failures = [], []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=self.timeout + 2)

    def probe_once(self):
        started = time.monotonic()
        try:
            response, _ = exchange(self.port, "GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
                                   timeout=self.timeout)
            if response is None or response.status != 200:
                self.failures.append(f"health answered {response!r}")
                return
        except (OSError, socket.timeout) as error:
            self.failures.append(f"health probe: {type(error).__name__} {error}")
            return
        self.latencies.append(time.monotonic() - started)

    def _run(self):
        while not self._stop.is_set():
            self.probe_once()
            self._stop.wait(self.interval)

    def p99_ms(self):
        if not self.latencies:
            return None
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000


def idle_p99(port, count=100):
    prober = HealthProber(port)
    for _ in range(count):
        prober.probe_once()
    return prober.p99_ms()


# MARK: - Case registry


class Case:
    def __init__(self, name, defect, server, server_options, function):
        self.name, self.defect, self.server, self.server_options, self.function = name, defect, server, server_options, function


CASES = []


def case(name, defect=None, server="main", **server_options):
    """Registers a case. `server` is "main" (shared) or "fresh" (its own, stopped afterwards)."""
    def register(function):
        CASES.append(Case(name, defect, server, server_options, function))
        return function
    return register


class Context:
    """What a case gets: its server, and a way to start more that are stopped after the case."""

    def __init__(self, runner, server):
        self.runner, self.server, self.port = runner, server, server.port
        self.extra_servers = []
        self.notes = []

    def start_server(self, name, **options):
        server = self.runner.start_server(name, **options)
        self.extra_servers.append(server)
        return server

    def note(self, text):
        """A measurement worth printing (never asserted)."""
        self.notes.append(text)
