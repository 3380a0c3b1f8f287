"""TLS attacks on the HTTPS port (issue 12): garbage, half handshakes, plain HTTP, slowloris over TLS."""
import select
import socket
import ssl
import time

from harness import Client, ConnectionClosed, case, check, exchange, wait_until

HEADER_TIMEOUT = 3.0  # the shared server's --header-timeout


def tls_context(server):
    """A client context that trusts only the server's local CA, with the host name checked."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.load_verify_locations(server.ca_path)
    context.set_alpn_protocols(["http/1.1"])
    return context


def tls_client(server, name="api.warplink.app", timeout=10.0, context=None):
    """A harness Client whose socket is a verified TLS connection to the HTTPS port."""
    client = Client(server.https_port, timeout=timeout)
    client.sock = (context or tls_context(server)).wrap_socket(client.sock, server_hostname=name)
    return client


def client_hello(name="api.warplink.app"):
    """The bytes of a real ClientHello, made without a network."""
    incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT).wrap_bio(incoming, outgoing, server_hostname=name)
    try:
        tls.do_handshake()
    except ssl.SSLWantReadError:
        pass
    return outgoing.read()


def tls_still_serves(server):
    client = tls_client(server)
    try:
        client.send("GET /__admin/health HTTP/1.1\r\nHost: api.warplink.app\r\n\r\n")
        return client.response(timeout=5).status == 200
    finally:
        client.close()


def raw_ending(port, data, timeout=5.0):
    """Sends raw `data`; returns (bytes the server sent back, how the connection ended)."""
    client = Client(port, timeout=timeout)
    try:
        client.send(data)
        received = b""
        while True:
            ending = client.ending(timeout=timeout)
            if ending != "data":
                return received + client.buffer, ending
            received, client.buffer = received + client.buffer, b""
    finally:
        client.close()


@case("TLS: garbage instead of a ClientHello is closed cleanly (an alert at most)")
def tls_garbage(ctx):
    server = ctx.server
    for data in [bytes(512), b"hello?\r\n\r\n", b"\x16\x03\x01\x00\x05\x02\x00\x00\x01\x00", bytes(range(256)) * 64]:
        answer, ending = raw_ending(server.https_port, data)
        check(ending == "eof", f"{data[:8]!r}…: connection ended with {ending}, wanted an orderly close")
        check(not answer or (answer[0] == 0x15 and len(answer) < 64), f"{data[:8]!r}…: answered {answer[:16]!r}, wanted an alert at most")
    check(tls_still_serves(server), "a TLS request failed after the garbage")


@case("TLS: 50 half ClientHellos are closed at the header timeout")
def tls_half_handshake(ctx):
    server = ctx.server
    hello = client_hello()
    clients = [Client(server.https_port, timeout=3 * HEADER_TIMEOUT) for _ in range(50)]
    started = time.monotonic()
    try:
        for client in clients:
            client.send(hello[: len(hello) // 2])
        ends, open_clients = [], list(clients)
        while open_clients and time.monotonic() - started < 3 * HEADER_TIMEOUT:
            readable, _, _ = select.select([c.sock for c in open_clients], [], [], 0.5)
            for client in [c for c in open_clients if c.sock in readable]:
                ending = client.ending(timeout=1)
                check(ending == "eof", f"a half handshake ended with {ending}")
                ends.append(time.monotonic() - started)
                open_clients.remove(client)
        ctx.note(f"closed from {min(ends, default=0):.1f}s to {max(ends, default=0):.1f}s")
        check(not open_clients, f"{len(open_clients)} half handshakes still open after {3 * HEADER_TIMEOUT:.0f}s")
    finally:
        for client in clients:
            client.close()
    check(tls_still_serves(server), "a TLS request failed after the half handshakes")


@case("TLS: plain HTTP to the TLS port gets a plaintext 400 saying to use https, then a close")
def tls_plain_http(ctx):
    server = ctx.server
    response, ending = exchange(server.https_port, "GET /v1/sdk/validate HTTP/1.1\r\nHost: api.warplink.app\r\n\r\n")
    check(response is not None and response.status == 400, f"answered {response!r}, wanted 400")
    check(b"https://" in response.body and "text/plain" in (response.header("content-type") or ""), f"body {response.body[:80]!r}")
    check(ending == "eof", f"connection ended with {ending}, wanted an orderly close")
    # A large plain request (a body behind the head) is not reset away either.
    response, ending = exchange(server.https_port, "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n" + "x" * 100000)
    check(response is not None and response.status == 400, f"a large plain request got {response!r}")
    check(tls_still_serves(server), "a TLS request failed after the plain HTTP")


@case("TLS: slowloris over TLS, 200 slow heads each get 408 at the header timeout")
def tls_slowloris(ctx):
    server = ctx.server
    context = tls_context(server)
    clients = []
    started = time.monotonic()
    try:
        # Each head starts right after its handshake: a TLS connection's header timer runs from
        # the accept, so one left silent while the others handshake would be closed unanswered.
        for _ in range(200):
            clients.append(tls_client(server, context=context, timeout=3 * HEADER_TIMEOUT))
            clients[-1].send("GET /__admin/health HTTP/1.1\r\nHost: api.warplink.app\r\nX-Slow: ")
        answers, ends, open_clients = {}, [], list(clients)
        for client in clients:
            client.sock.setblocking(False)
        while open_clients and time.monotonic() - started < 6 * HEADER_TIMEOUT:
            readable, _, _ = select.select([c.sock for c in open_clients], [], [], 0.5)
            for client in [c for c in open_clients if c.sock in readable or c.sock.pending()]:
                # Non-blocking: a readable TLS socket may carry only session tickets, no answer.
                status = None
                try:
                    chunk = client.sock.recv(65536)
                    if chunk:
                        client.buffer += chunk
                        if b"\r\n" in client.buffer:
                            status = int(client.buffer.split(b" ", 2)[1])
                    else:
                        status = "closed"
                except (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError):
                    continue
                except (OSError, ssl.SSLError):
                    status = "closed"
                if status is None:
                    continue
                answers[status] = answers.get(status, 0) + 1
                ends.append(time.monotonic() - started)
                open_clients.remove(client)
            for client in open_clients:  # a byte now and then keeps each head "in progress"
                try:
                    client.sock.send(b"a")
                except (OSError, ssl.SSLError):
                    pass
        ctx.note(f"answers {answers}; first at {min(ends, default=0):.1f}s, last at {max(ends, default=0):.1f}s")
        check(not open_clients, f"{len(open_clients)} slow TLS connections still open after {6 * HEADER_TIMEOUT:.0f}s")
        check(answers.get(408, 0) == 200, f"wanted 200 × 408, got {answers}")
    finally:
        for client in clients:
            client.close()


@case("TLS: 1,000 idle keep-alive TLS connections are held and released")
def tls_thousand_idle(ctx):
    server = ctx.server
    base_rss, base_fds = server.rss(), server.fds()
    context = tls_context(server)
    clients = []
    try:
        for index in range(1000):
            # One request each: until its first request a TLS connection is on the header
            # timeout (a stalled handshake is a slow header); after it, on the idle timeout.
            client = tls_client(server, name=f"idle{index % 20}.example.com", context=context)
            clients.append(client)
            client.send("GET /__admin/health HTTP/1.1\r\nHost: api.warplink.app\r\n\r\n")
            check(client.response(timeout=10).status == 200, "a keep-alive request failed")
        check(wait_until(lambda: server.fds() >= base_fds + 990, timeout=10), f"server holds {server.fds() - base_fds} connections")
        ctx.note(f"{(server.rss() - base_rss) / len(clients) / 1024:.1f} KiB each")
        check(tls_still_serves(server), "a TLS request failed with 1,000 idle TLS connections open")
    finally:
        for client in clients:
            client.close()
    check(wait_until(lambda: server.fds() <= base_fds + 4, timeout=15), f"{server.fds() - base_fds} descriptors left after the clients closed")
