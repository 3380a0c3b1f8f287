"""The debug server under test: started on a free loopback port with a database of its own,
restarted when it dies (on the same database first, to see whether stored state bricks it)."""
import http.client
import json
import os
import socket
import subprocess
import time


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, binary, work, environment=None):
        """`environment`: variables added to the server's (the replay recorder fixes Swift's hash seed)."""
        self.binary, self.work = binary, work
        self.environment = environment or {}
        self.process = None
        self.generation = 0
        self.database = os.path.join(work, "extremes-0.sqlite")
        self.log_path = os.path.join(work, "server.log")
        self.connection = None

    def start(self, fresh=False):
        """Starts the server (on a new, empty database when `fresh`); False when it does not get ready."""
        if fresh:
            self.generation += 1
            self.database = os.path.join(self.work, f"extremes-{self.generation}.sqlite")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(self.database + suffix):
                    os.remove(self.database + suffix)
        self.port = free_port()
        log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--https-port", "0", "--proxy-port", "0",
             "--database", self.database, "--ca-dir", self.work, "--no-request-log"],
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, cwd=self.work,
            env={**os.environ, **self.environment})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return False
            try:
                status, _, _ = self.request("GET", "/__admin/ready", timeout=2)
                if status == 200:
                    return True
            except OSError:
                pass
            time.sleep(0.1)
        return False

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def stop(self):
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.connection = None

    def log_tail(self, characters=1500):
        try:
            with open(self.log_path, "rb") as log:
                return log.read()[-characters:].decode("utf-8", "replace")
        except OSError:
            return ""

    def request(self, method, target, body=None, headers=None, timeout=30):
        """(status, headers, body bytes); raises OSError when the connection fails."""
        status, header_list, data = self.exchange(method, target, body, headers, timeout)
        return status, dict(header_list), data

    def exchange(self, method, target, body=None, headers=None, timeout=30):
        """`request`, with the response headers as a list of (name, value) in the order received."""
        for attempt in (0, 1):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
            try:
                self.connection.timeout = timeout
                self.connection.request(method, target, body=body, headers=headers or {})
                response = self.connection.getresponse()
                data = response.read()
                if response.getheader("Connection", "").lower() == "close":
                    self.connection.close()
                    self.connection = None
                return response.status, response.getheaders(), data
            except (OSError, http.client.HTTPException) as error:
                self.connection.close()
                self.connection = None
                # A kept-alive connection the server closed between requests: one fresh try.
                if attempt == 1 or not self.alive() or isinstance(error, TimeoutError):
                    raise OSError(f"{type(error).__name__}: {error}") from error

    def json(self, method, target, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        status, _, answer = self.request(method, target, data, {"Content-Type": "application/json", **(headers or {})})
        if status >= 300:
            raise RuntimeError(f"{method} {target} answered {status}: {answer[:300]!r}")
        return json.loads(answer or b"null")
