"""The intercepting proxy port (issue 12): bad CONNECTs, abandoned and idle tunnels, passthrough splices.

Every case talks to the server's proxy port; the runner's descriptor check after each case is
what shows that tunnels (and their upstream sockets) are closed once the clients are gone.
"""
import socket
import threading
import time

from harness import Client, ConnectionClosed, case, check, wait_until

WARPLINK = "api.warplink.app"


class EchoUpstream:
    """A real destination on 127.0.0.1: echoes each connection's bytes until it closes."""

    def __init__(self):
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
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn):
        conn.settimeout(30)
        try:
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


@case("proxy: CONNECT to a closed local port gets 502 naming it")
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

@case("proxy: 200 passthrough tunnels splice bytes, then every descriptor is given back")
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


@case("proxy: clients that reset right after CONNECT leave no tunnel behind")
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
