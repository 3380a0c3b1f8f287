"""Protocol attacks the engine already withstands: framing, smuggling, bad fields, pipelining."""
import gzip
import socket
import time

from harness import Client, ConnectionClosed, case, check

HOST = "Host: 127.0.0.1\r\n"
MIB = 1024 * 1024


def refused(port, data, statuses, closed=True):
    """Sends `data`; the answer must be one of `statuses` and, when `closed`, the connection must end."""
    if isinstance(statuses, int):
        statuses = (statuses,)
    client = Client(port)
    try:
        try:
            client.send(data)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            response = client.response()
        except ConnectionClosed as closed_early:
            check(False, f"no response (connection {closed_early}); wanted {statuses}")
        check(response.status in statuses, f"status {response.status}, wanted {statuses}")
        if closed:
            ending = client.ending(timeout=2.0)
            check(ending in ("eof", "reset"), f"connection {ending} after {response.status}; wanted it closed")
        return response
    finally:
        client.close()


# MARK: - Request smuggling framings

@case("smuggling: Content-Length and Transfer-Encoding")
def cl_te(ctx):
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400)


@case("smuggling: Transfer-Encoding before Content-Length")
def te_cl(ctx):
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n", 400)


@case("smuggling: Transfer-Encoding gzip, chunked")
def te_list(ctx):
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n", (400, 501))


@case("smuggling: Transfer-Encoding identity")
def te_identity(ctx):
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: identity\r\nContent-Length: 1\r\n\r\nx", (400, 501))


@case("smuggling: space before the colon of Transfer-Encoding")
def te_space(ctx):
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n", 400)


@case("smuggling: Transfer-Encoding: xchunked")
def te_xchunked(ctx):
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: xchunked\r\n\r\n0\r\n\r\n", (400, 501))


@case("smuggling: two different Content-Length headers")
def duplicate_cl(ctx):
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Content-Length: 3\r\nContent-Length: 5\r\n\r\nabcde", 400)


@case("smuggling: Content-Length list with different values")
def cl_list(ctx):
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Content-Length: 3, 5\r\n\r\nabcde", 400)


# MARK: - Bad fields

@case("bad Content-Length values")
def bad_cl(ctx):
    for value in ("+3", "-1", "0x10", "3 3", "", "99999999999999999999", "1e3"):
        refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Content-Length: {value}\r\n\r\nabc", 400)


@case("obs-fold continuation line")
def obs_fold(ctx):
    refused(ctx.port, f"GET /__admin/health HTTP/1.1\r\n{HOST}X-A: one\r\n two\r\n\r\n", 400)


@case("control bytes in a header value")
def control_bytes(ctx):
    for byte in ("\x00", "\x01", "\x1b", "\x7f", "\r"):
        refused(ctx.port, f"GET /__admin/health HTTP/1.1\r\n{HOST}X-A: a{byte}b\r\n\r\n", 400)


@case("bare LF inside a head")
def bare_lf(ctx):
    refused(ctx.port, "GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\nX-A: b\r\n\r\n", 400)
    refused(ctx.port, "GET /__admin/health HTTP/1.1\nHost: 127.0.0.1\r\n\r\n", 400)


@case("header name with a space or empty name")
def bad_names(ctx):
    refused(ctx.port, f"GET /__admin/health HTTP/1.1\r\n{HOST}Bad Name: x\r\n\r\n", 400)
    refused(ctx.port, f"GET /__admin/health HTTP/1.1\r\n{HOST}: x\r\n\r\n", 400)


@case("HTTP/2 connection preface")
def h2_preface(ctx):
    refused(ctx.port, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", (400, 505))


@case("unsupported versions and garbage request lines")
def bad_request_lines(ctx):
    refused(ctx.port, f"GET /__admin/health HTTP/1.2\r\n{HOST}\r\n", 505)
    refused(ctx.port, f"GET /__admin/health HTTP/3.0\r\n{HOST}\r\n", 505)
    refused(ctx.port, f"GET /__admin/health HTTQ/1.1\r\n{HOST}\r\n", 400)
    refused(ctx.port, f"GET  /__admin/health HTTP/1.1\r\n{HOST}\r\n", 400)
    refused(ctx.port, "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", 400)


@case("HTTP/1.1 without Host")
def missing_host(ctx):
    refused(ctx.port, "GET /__admin/health HTTP/1.1\r\n\r\n", 400)


@case("head over 16 KiB gets 431")
def big_head(ctx):
    refused(ctx.port, f"GET /__admin/health HTTP/1.1\r\n{HOST}X-Big: {'a' * 20000}\r\n\r\n", 431)


@case("malformed chunk sizes")
def bad_chunks(ctx):
    for size in ("-1", "0x3", "g", "ffffffffffffffffff", ""):
        refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: chunked\r\n\r\n{size}\r\nabc\r\n0\r\n\r\n", 400)
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n", 400)


@case("Expect other than 100-continue gets 417")
def bad_expect(ctx):
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Expect: 200-ok\r\nContent-Length: 0\r\n\r\n", 417)


# MARK: - Bodies

@case("gzip bomb gets 413")
def gzip_bomb(ctx):
    bomb = gzip.compress(bytes(64 * MIB), compresslevel=9, mtime=0)
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Content-Encoding: gzip\r\nContent-Length: {len(bomb)}\r\n\r\n".encode() + bomb, 413)
    ctx.note(f"bomb {len(bomb) // 1024} KiB → 64 MiB")


@case("corrupt gzip body gets 400")
def corrupt_gzip(ctx):
    body = gzip.compress(b"hello world" * 100, mtime=0)[:40]
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Content-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body, 400)


@case("Content-Length over the limit gets 413 before the body")
def big_length(ctx):
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Content-Length: {64 * MIB}\r\n\r\n", 413)


@case("chunked body over the limit gets 413")
def big_chunked(ctx):
    client = Client(ctx.port, timeout=10)
    try:
        client.send(f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"%x\r\n" % MIB + bytes(MIB) + b"\r\n"
        try:
            for _ in range(40):
                client.send(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        response = client.response()
        check(response.status == 413, f"status {response.status}, wanted 413")
    finally:
        client.close()


@case("100-continue is sent before the body, then the answer")
def expect_continue(ctx):
    client = Client(ctx.port)
    try:
        client.send(f"POST /asleep/x HTTP/1.1\r\n{HOST}Expect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        interim = client.response()
        check(interim.status == 100, f"first answer {interim.status}, wanted 100 Continue")
        client.send("body")
        final = client.response()
        check(final.status >= 200, f"final answer {final.status}")
    finally:
        client.close()


# MARK: - Connection use

@case("1,000 pipelined requests answered in order")
def pipelined(ctx):
    client = Client(ctx.port, timeout=20)
    try:
        # Alternating answers (200, 404) make an order mix-up visible.
        requests = []
        for index in range(1000):
            path = "/__admin/health" if index % 2 == 0 else f"/__admin/no-such-route-{index}"
            requests.append(f"GET {path} HTTP/1.1\r\n{HOST}\r\n")
        client.send("".join(requests))
        for index in range(1000):
            response = client.response()
            wanted = 200 if index % 2 == 0 else 404
            check(response.status == wanted, f"response {index} is {response.status}, wanted {wanted}")
        check(client.ending(timeout=0.3) == "open", "connection closed after pipelined requests")
    finally:
        client.close()


@case("half-closed client still gets its answer")
def half_close(ctx):
    client = Client(ctx.port)
    try:
        client.send(f"GET /__admin/health HTTP/1.1\r\n{HOST}\r\n")
        client.sock.shutdown(socket.SHUT_WR)
        response = client.response()
        check(response.status == 200, f"status {response.status}")
        ending = client.ending()
        check(ending == "eof", f"connection {ending} after the answer to a half-closed client; wanted eof")
    finally:
        client.close()


@case("keep-alive connection serves several requests")
def keep_alive(ctx):
    client = Client(ctx.port)
    try:
        for _ in range(5):
            client.send(f"GET /__admin/health HTTP/1.1\r\n{HOST}\r\n")
            check(client.response().status == 200, "keep-alive request failed")
        client.send(f"GET /__admin/health HTTP/1.1\r\n{HOST}Connection: close\r\n\r\n")
        check(client.response().status == 200, "last request failed")
        check(client.ending() == "eof", "Connection: close not honoured")
    finally:
        client.close()


@case("partial head then disconnect leaves nothing behind")
def partial_then_gone(ctx):
    clients = []
    for _ in range(50):
        client = Client(ctx.port)
        client.send("GET /__admin/health HTTP/1.1\r\nHo")
        clients.append(client)
    time.sleep(0.1)  # let the server read the partial heads; no event tells us it has
    for client in clients:
        client.close()
    try:
        refused(ctx.port, f"GET /__admin/health HTTP/1.1\r\n{HOST}Connection: close\r\n\r\n", 200)
    except ConnectionClosed as closed:
        check(False, f"server unusable after disconnects: {closed}")
