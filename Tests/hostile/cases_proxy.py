"""The intercepting proxy port (issue 12): bad CONNECTs, abandoned and idle tunnels, passthrough splices,
what passthrough may reach, and tunnel slots coming back.

Every case talks to the server's proxy port; the runner's descriptor check after each case is
what shows that tunnels (and their upstream sockets) are closed once the clients are gone. The
upstreams are on 127.0.0.1, which passthrough reaches only with --proxy-allow-private: those cases
run on a fresh server started with it.
"""
import base64
import os
import socket
import threading
import time

from harness import Client, ConnectionClosed, case, check, wait_until

WARPLINK = "api.warplink.app"
ALLOW_PRIVATE = ("--proxy-allow-private",)
# Every spelling of this machine's loopback the resolver accepts (nothing else is dialled, even
# if the check regressed: tests send traffic to loopback only).
LOOPBACK_SPELLINGS = ["127.0.0.1", "localhost", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "0x7f.1", "127.0.0.2",
                      "0.0.0.0", "0", "[::1]", "[::ffff:127.0.0.1]"]


class EchoUpstream:
    """A real destination on 127.0.0.1: echoes each connection's bytes until it closes (silent:
    accepts and then says nothing, never closing first)."""

    def __init__(self, silent=False):
        self.silent = silent
        self.stopped = threading.Event()
        self.accepted = 0
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(512)
        self.port = self.listener.getsockname()[1]
        self.open = 0
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.open += 1
                self.accepted += 1
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        conn.settimeout(30)
        try:
            if self.silent:
                self.stopped.wait(30)  # neither reads, writes nor closes: the proxy must let go by itself
                return
            while True:
                data = conn.recv(65536)
                if not data:
                    break
                conn.sendall(data)
        except OSError:
            pass
        finally:
            conn.close()
            with self.lock:
                self.open -= 1

    def close(self):
        self.stopped.set()
        self.listener.close()


def proxy(ctx):
    return ctx.server.proxy_port()


def answer(port, data, timeout=5.0):
    """Sends `data` to the proxy; returns (response or None, how the connection then ended)."""
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


def refused(port, data, status):
    response, ending = answer(port, data)
    check(response is not None and response.status == status, f"wanted {status}, got {response!r} ({ending})")
    check(ending in ("eof", "reset"), f"connection {ending} after {response.status}; wanted it closed")
    return response


def connect_tunnel(port, authority, timeout=5.0):
    client = Client(port, timeout=timeout)
    client.send(f"CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n\r\n")
    response = client.response(head_only=True)
    return client, response


# MARK: - Bad CONNECTs

@case("proxy: CONNECT without a port gets 400 and closes")
def connect_no_port(ctx):
    refused(proxy(ctx), f"CONNECT {WARPLINK} HTTP/1.1\r\nHost: {WARPLINK}\r\n\r\n", 400)


@case("proxy: garbage after CONNECT gets 400 and closes")
def connect_garbage(ctx):
    refused(proxy(ctx), b"CONNECT \x01\x02\xff\xfe:443 HTTP/1.1\r\n\r\n", 400)
    refused(proxy(ctx), "CONNECT a b c d HTTP/1.1\r\n\r\n", 400)
    refused(proxy(ctx), "CONNECT [::1:443 HTTP/1.1\r\n\r\n", 400)


@case("proxy: a 20 KiB CONNECT authority is refused, not buffered")
def connect_huge_authority(ctx):
    response, ending = answer(proxy(ctx), "CONNECT " + "a" * 20000 + ".example:443 HTTP/1.1\r\n\r\n")
    check(response is not None and response.status in (400, 414, 431), f"got {response!r} ({ending})")


@case("proxy: an emulated host on a port other than 443/80 gets 400 naming host and port")
def connect_other_port(ctx):
    response = refused(proxy(ctx), f"CONNECT {WARPLINK}:8443 HTTP/1.1\r\nHost: {WARPLINK}:8443\r\n\r\n", 400)
    text = response.body.decode("utf-8", "replace")
    check(WARPLINK in text and "8443" in text, f"body does not name host and port: {text!r}")


@case("proxy: CONNECT to a closed local port gets 502 naming it", server="fresh", extra_args=ALLOW_PRIVATE)
def connect_closed_port(ctx):
    probe = socket.socket()  # bound, never listening: refused, and nobody else can take the port meanwhile
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    try:
        response = refused(proxy(ctx), f"CONNECT 127.0.0.1:{port} HTTP/1.1\r\n\r\n", 502)
    finally:
        probe.close()
    check(f"127.0.0.1:{port}" in response.body.decode("utf-8", "replace"), f"502 body does not name the host: {response.body!r}")


@case("proxy: a CONNECT head sent one byte a second gets 408 at the header timeout")
def connect_slowloris(ctx):
    client = Client(proxy(ctx), timeout=10)
    try:
        for byte in b"CONNECT 127.0.0.1":  # the server's header timeout (3 s) passes long before the head could end
            try:
                client.send(bytes([byte]))
            except (BrokenPipeError, ConnectionResetError):
                break
            if client.ending(timeout=1) != "open":
                break
        try:
            response = client.response(timeout=5)
            check(response.status == 408, f"a stalled CONNECT head got {response!r}; wanted 408")
        except ConnectionClosed:
            pass  # closed without an answer is acceptable too; still open is not
    finally:
        client.close()


# MARK: - Interception

@case("proxy: CONNECT to an emulated host with the first request pipelined is served")
def intercept_pipelined(ctx):
    client = Client(proxy(ctx))
    try:
        client.send(f"CONNECT {WARPLINK}:80 HTTP/1.1\r\nHost: {WARPLINK}:80\r\n\r\n"
                    f"GET /v1/sdk/validate HTTP/1.1\r\nHost: {WARPLINK}\r\nAuthorization: Bearer nope\r\n\r\n")
        established = client.response(head_only=True)
        check(established.status == 200, f"CONNECT answered {established!r}")
        inner = client.response()
        check(inner.status == 401, f"the pipelined request got {inner!r}; wanted WarpLink's 401 for a bad key")
    finally:
        client.close()


@case("proxy: 500 idle intercepted tunnels do not block other clients and close cleanly")
def intercept_idle(ctx):
    port = proxy(ctx)
    clients = []
    try:
        for _ in range(500):
            client, response = connect_tunnel(port, f"{WARPLINK}:80")
            check(response.status == 200, f"tunnel refused: {response!r}")
            clients.append(client)
        # Every tunnel still serves.
        clients[0].send(f"GET /v1/sdk/validate HTTP/1.1\r\nHost: {WARPLINK}\r\n\r\n")
        check(clients[0].response().status == 401, "an idle tunnel stopped answering")
    finally:
        for client in clients:
            client.close()


# MARK: - Passthrough

@case("proxy: 200 passthrough tunnels splice bytes, then every descriptor is given back", server="fresh", extra_args=ALLOW_PRIVATE)
def passthrough_many(ctx):
    upstream = EchoUpstream()
    port = proxy(ctx)
    try:
        clients = []
        for index in range(200):
            client, response = connect_tunnel(port, f"127.0.0.1:{upstream.port}")
            check(response.status == 200, f"tunnel {index} refused: {response!r}")
            clients.append(client)
        for index, client in enumerate(clients):
            payload = f"tunnel {index} ".encode() * 100
            client.send(payload)
            received = b""
            while len(received) < len(payload):
                client._fill(time.monotonic() + 5)
                received, client.buffer = received + client.buffer, b""
            check(received == payload, f"tunnel {index} echoed {len(received)} bytes, not its {len(payload)}")
        for client in clients:
            client.close()
        check(wait_until(lambda: upstream.open == 0, timeout=10), f"{upstream.open} upstream connections left open after the clients left")
    finally:
        upstream.close()


@case("proxy: clients that reset right after CONNECT leave no tunnel behind", server="fresh", extra_args=ALLOW_PRIVATE)
def passthrough_abandoned(ctx):
    upstream = EchoUpstream()
    port = proxy(ctx)
    try:
        for _ in range(100):
            client = Client(port)
            client.send(f"CONNECT 127.0.0.1:{upstream.port} HTTP/1.1\r\n\r\nhello")
            client.reset()
        check(wait_until(lambda: upstream.open == 0, timeout=10), f"{upstream.open} upstream connections left open")
    finally:
        upstream.close()


@case("proxy: refuse mode answers 403 naming the host and connects nowhere", server="fresh", extra_args=("--proxy-mode", "refuse"))
def refuse_mode(ctx):
    upstream = EchoUpstream()
    try:
        response = refused(proxy(ctx), f"CONNECT 127.0.0.1:{upstream.port} HTTP/1.1\r\n\r\n", 403)
        check(f"127.0.0.1:{upstream.port}" in response.body.decode("utf-8", "replace"), f"403 body does not name the host: {response.body!r}")
        # A refused plain request is an ordinary answer: the connection may stay open for the next one.
        response, _ = answer(proxy(ctx), "GET http://example.org/ HTTP/1.1\r\nHost: example.org\r\n\r\n")
        check(response is not None and response.status == 403, f"wanted 403, got {response!r}")
        check("example.org" in response.body.decode("utf-8", "replace"), f"403 body does not name the host: {response.body!r}")
        check(upstream.open == 0, "refuse mode connected upstream")
    finally:
        upstream.close()


# MARK: - Intercepted TLS

@case("proxy: garbage instead of a ClientHello inside an intercepted tunnel is closed cleanly")
def intercept_tls_garbage(ctx):
    client, response = connect_tunnel(proxy(ctx), f"{WARPLINK}:443")
    try:
        check(response.status == 200, f"tunnel refused: {response!r}")
        client.send(b"\x16\x03\x01\x00\x10" + b"\xff" * 16 + b"GET / HTTP/1.1\r\n\r\n")
        ending = client.ending(timeout=5)
        if ending == "data":  # a TLS alert at most, then the end
            client.buffer = b""
            ending = client.ending(timeout=5)
        check(ending in ("eof", "reset"), f"connection {ending} after a garbage ClientHello")
    finally:
        client.close()


@case("proxy: 50 intercepted tunnels that stall mid-handshake are closed at the header timeout")
def intercept_tls_stalled(ctx):
    port = proxy(ctx)
    clients = []
    try:
        for _ in range(50):
            client, response = connect_tunnel(port, f"{WARPLINK}:443", timeout=10)
            check(response.status == 200, f"tunnel refused: {response!r}")
            client.send(b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03")  # the first bytes of a ClientHello, no more
            clients.append(client)
        started = time.monotonic()
        for client in clients:
            ending = client.ending(timeout=max(0.1, 8 - (time.monotonic() - started)))
            if ending == "data":
                client.buffer = b""
                ending = client.ending(timeout=2)
            check(ending in ("eof", "reset"), f"a stalled handshake is still {ending} after {time.monotonic() - started:.1f} s (header timeout 3 s)")
        ctx.note(f"all closed within {time.monotonic() - started:.1f} s")
    finally:
        for client in clients:
            client.close()


# MARK: - What passthrough may reach

def threads(ctx):
    """The server's thread count. Each passthrough tunnel is a thread of its own (one per upstream slot),
    so the count above a baseline is the slots held. Read from /proc, not the metrics route: a scrape
    opens a database reader on a loop that had none, and the runner's descriptor check would count it."""
    with open(f"/proc/{ctx.server.pid}/status") as handle:
        for line in handle:
            if line.startswith("Threads:"):
                return int(line.split()[1])
    raise AssertionError("no thread count in /proc")


@case("proxy: loopback in every spelling is refused by CONNECT and absolute form (403 naming the option); nothing is dialled")
def loopback_spellings_refused(ctx):
    upstream = EchoUpstream()
    port = proxy(ctx)
    try:
        for host in LOOPBACK_SPELLINGS:
            response = refused(port, f"CONNECT {host}:{upstream.port} HTTP/1.1\r\nHost: {host}:{upstream.port}\r\n\r\n", 403)
            check(b"--proxy-allow-private" in response.body, f"CONNECT {host}: the 403 does not name the option: {response.body!r}")
            response, _ = answer(port, f"GET http://{host}:{upstream.port}/ HTTP/1.1\r\nHost: {host}:{upstream.port}\r\n\r\n")
            check(response is not None and response.status == 403, f"GET http://{host}:{upstream.port}/ got {response!r}")
        check(upstream.accepted == 0, f"{upstream.accepted} connections reached the loopback upstream")
        ctx.note(f"{len(LOOPBACK_SPELLINGS)} spellings x 2 forms refused, 0 accepted upstream")
    finally:
        upstream.close()


@case("proxy: CONNECT to the proxy's own port is refused even with private targets allowed; nesting takes no slot",
      server="fresh", extra_args=ALLOW_PRIVATE)
def own_port_refused(ctx):
    port = proxy(ctx)
    before = threads(ctx)
    for host in ("127.0.0.1", "localhost", "127.1", "[::ffff:127.0.0.1]"):
        refused(port, f"CONNECT {host}:{port} HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n", 403)
    check(wait_until(lambda: threads(ctx) <= before, timeout=5), f"{threads(ctx) - before} more threads after CONNECTs to the proxy itself")


@case("proxy: 300 CONNECTs to a silent upstream, then closed: every slot comes back within seconds",
      server="fresh", extra_args=ALLOW_PRIVATE)
def slots_come_back(ctx):
    upstream = EchoUpstream(silent=True)
    port = proxy(ctx)
    clients, statuses = [], []
    before = threads(ctx)
    try:
        for _ in range(300):
            client, response = connect_tunnel(port, f"127.0.0.1:{upstream.port}")
            statuses.append(response.status)
            clients.append(client)
        check(statuses.count(200) == 256, f"{statuses.count(200)} tunnels opened; wanted 256 (the slot limit)")
        check(wait_until(lambda: threads(ctx) - before >= 256, timeout=5), f"{threads(ctx) - before} tunnel threads; wanted 256")
        held = threads(ctx) - before
        check(statuses.count(503) == 44, f"{statuses.count(503)} answered 503; wanted 44")
        for client in clients:
            client.close()
        clients = []
        started = time.monotonic()
        check(wait_until(lambda: threads(ctx) <= before + 2, timeout=20),
              f"{threads(ctx) - before} tunnel threads still there 20 s after the clients closed")
        recovered = time.monotonic() - started
        client, response = connect_tunnel(port, f"127.0.0.1:{upstream.port}")
        client.close()
        check(response.status == 200, f"a new CONNECT after recovery got {response!r}")
        ctx.note(f"{held} slots held, 0 after {recovered:.1f} s")
    finally:
        for client in clients:
            client.close()
        upstream.close()


@case("proxy: with --proxy-password, a CONNECT without it gets 407 with Proxy-Authenticate; with it, the tunnel opens",
      server="fresh", extra_args=("--proxy-password", "hostile-secret"))
def password_required(ctx):
    port = proxy(ctx)
    response = refused(port, f"CONNECT {WARPLINK}:80 HTTP/1.1\r\nHost: {WARPLINK}:80\r\n\r\n", 407)
    check(response.header("proxy-authenticate") == 'Basic realm="understudy"', f"no Basic challenge: {response!r}")
    wrong = base64.b64encode(b"phone:guess").decode()
    refused(port, f"CONNECT {WARPLINK}:80 HTTP/1.1\r\nProxy-Authorization: Basic {wrong}\r\n\r\n", 407)
    right = base64.b64encode(b"phone:hostile-secret").decode()
    client = Client(port)
    try:
        client.send(f"CONNECT {WARPLINK}:80 HTTP/1.1\r\nProxy-Authorization: Basic {right}\r\n\r\n"
                    f"GET /v1/sdk/validate HTTP/1.1\r\nHost: {WARPLINK}\r\n\r\n")
        check(client.response(head_only=True).status == 200, "the right password did not open the tunnel")
        check(client.response().status == 401, "the request inside the tunnel was not served")
    finally:
        client.close()
