"""Protocol defects of issue 11 (items 6–11): each case fails until its item is fixed."""
import time

from cases_holding import HOST, refused
from harness import Client, ConnectionClosed, case, check, exchange

MIB = 1024 * 1024


# MARK: - 6. Chunk extensions

def chunk_ext(ctx, extension):
    body = f"3;{extension}\r\nabc\r\n0\r\n\r\n"
    refused(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: chunked\r\n\r\n{body}", 400)


@case("chunk extension with a bare LF gets 400", defect=6)
def chunk_ext_lf(ctx):
    chunk_ext(ctx, "a\nb")


@case("chunk extension with NUL gets 400", defect=6)
def chunk_ext_nul(ctx):
    chunk_ext(ctx, "a\x00b")


@case("chunk extension with a control byte gets 400", defect=6)
def chunk_ext_control(ctx):
    chunk_ext(ctx, "a=\x01")


@case("well-formed chunk extensions are accepted", defect=6)
def chunk_ext_valid(ctx):
    # The guard against an over-eager fix: RFC 9112 §7.1.1 extensions, token and quoted-string.
    response, _ = exchange(ctx.port, f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: chunked\r\n\r\n"
                                     "3;name=value;flag ;q=\"a b\"\r\nabc\r\n0\r\n\r\n")
    check(response is not None and response.status != 400, f"valid chunk extensions refused: {response!r}")


# MARK: - 7. HTTP/1.0 with Transfer-Encoding

@case("HTTP/1.0 with Transfer-Encoding: chunked is answered, then closed", defect=7)
def http10_chunked(ctx):
    client = Client(ctx.port)
    try:
        client.send("POST /asleep/x HTTP/1.0\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
        try:
            response = client.response()
        except ConnectionClosed as closed:
            check(False, f"no answer ({closed})")
        ending = client.ending(timeout=2)
        check(ending in ("eof", "reset"), f"connection {ending} after {response.status}: RFC 9112 §6.1 wants it closed")
    finally:
        client.close()


# MARK: - 8. Limits independent of how TCP splits the bytes

def answer_in_pieces(port, pieces):
    client = Client(port)
    try:
        for index, piece in enumerate(pieces):
            client.send(piece)
            if index < len(pieces) - 1:
                # The server must have read this piece before the next arrives; nothing signals
                # that, so give it a moment (loopback delivers in microseconds).
                time.sleep(0.2)
        try:
            return client.response().status
        except ConnectionClosed as closed:
            return f"closed ({closed})"
    finally:
        client.close()


@case("a 16,383-byte head gets the same answer whole and with its last LF alone", defect=8)
def split_head(ctx):
    line = f"GET /__admin/health HTTP/1.1\r\n{HOST}X-Pad: "
    head = (line + "a" * (16383 - len(line))).encode()
    data = head + b"\r\n\r\n"
    whole = answer_in_pieces(ctx.port, [data])
    split = answer_in_pieces(ctx.port, [data[:-1], data[-1:]])
    ctx.note(f"whole {whole}, split {split}")
    check(whole == split, f"answer depends on the split: one write → {whole}, last LF alone → {split}")


@case("a long chunk extension gets the same answer whole and split", defect=8)
def split_chunk_ext(ctx):
    data = (f"POST /asleep/x HTTP/1.1\r\n{HOST}Transfer-Encoding: chunked\r\n\r\n"
            f"1;{'e' * 1100}\r\na\r\n0\r\n\r\n").encode()
    cut = data.index(b"\r\na\r\n")  # just before the chunk line's CRLF
    whole = answer_in_pieces(ctx.port, [data])
    split = answer_in_pieces(ctx.port, [data[:cut], data[cut:]])
    ctx.note(f"whole {whole}, split {split}")
    check(whole == split, f"answer depends on the split: one write → {whole}, split → {split}")


# MARK: - 9. Blank lines must not re-arm the header timer

@case("blank lines every second do not dodge the header timeout", defect=9)
def blank_line_dodge(ctx):
    timeout = 3.0  # the shared server's --header-timeout
    client = Client(ctx.port)
    started = time.monotonic()
    closed_after = None
    try:
        while time.monotonic() - started < 3 * timeout:
            try:
                client.send("\r\n")
            except (BrokenPipeError, ConnectionResetError):
                closed_after = time.monotonic() - started
                break
            ending = client.ending(timeout=1.0)
            if ending != "open":
                closed_after = time.monotonic() - started
                break
    finally:
        client.close()
    ctx.note(f"closed after {closed_after:.1f}s" if closed_after is not None else "never closed")
    check(closed_after is not None, f"connection sending CRLF every second still open after {3 * timeout:.0f}s "
                                    f"(header timeout {timeout:.0f}s)")


# MARK: - 10. Lingering close after 413 and 431

def lingering(ctx, head, extra):
    """Sends a refused request plus unread bytes; the client must read the status, then a FIN."""
    client = Client(ctx.port, timeout=5)
    try:
        try:
            client.send(head + extra)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            response = client.response()
        except ConnectionClosed as closed:
            check(False, f"the client never saw the status: {closed}")
        # Long enough for a server that lingers before its FIN instead of after it.
        ending = client.ending(timeout=10)
        ctx.note(f"{response.status}, then {ending}")
        return response.status, ending
    finally:
        client.close()


@case("413 is followed by an orderly close, not a reset", defect=10)
def lingering_413(ctx):
    status, ending = lingering(ctx, f"POST /asleep/x HTTP/1.1\r\n{HOST}Content-Length: {64 * MIB}\r\n\r\n".encode(), bytes(MIB))
    check(status == 413, f"status {status}, wanted 413")
    check(ending == "eof", f"connection ended with {ending} after the 413 while body bytes were unread; wanted a lingering close (eof)")


@case("431 is followed by an orderly close, not a reset", defect=10)
def lingering_431(ctx):
    head = f"GET /__admin/health HTTP/1.1\r\n{HOST}X-Big: {'a' * 20000}\r\n\r\n".encode()
    status, ending = lingering(ctx, head, b"x" * (512 * 1024))
    check(status == 431, f"status {status}, wanted 431")
    check(ending == "eof", f"connection ended with {ending} after the 431 while bytes were unread; wanted a lingering close (eof)")


# MARK: - 11. Host and request target (RFC 9112 §3.2)

@case("two Host headers get 400", defect=11)
def two_hosts(ctx):
    # Status only: whether a 400 for Host also closes is the server's choice.
    refused(ctx.port, "GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: other.test\r\n\r\n", 400, closed=False)


@case("invalid Host values get 400", defect=11)
def invalid_host(ctx):
    for value in ("a b", "exa/mple", "user@host", "host:port:x", "[::1", "h\\x"):
        refused(ctx.port, f"GET /__admin/health HTTP/1.1\r\nHost: {value}\r\n\r\n", 400, closed=False)


@case("empty Host is accepted (RFC 9110 §7.2 allows it)", defect=11)
def empty_host(ctx):
    # The guard against an over-eager fix.
    response, _ = exchange(ctx.port, "GET /__admin/health HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n")
    check(response is not None and response.status == 200, f"empty Host refused: {response!r}")


@case("GET * gets 400", defect=11)
def asterisk_get(ctx):
    refused(ctx.port, f"GET * HTTP/1.1\r\n{HOST}\r\n", 400, closed=False)


@case("OPTIONS * is still a well-formed request", defect=11)
def asterisk_options(ctx):
    # The guard against an over-eager fix: asterisk-form is OPTIONS's own (RFC 9112 §3.2.4).
    response, _ = exchange(ctx.port, f"OPTIONS * HTTP/1.1\r\n{HOST}Connection: close\r\n\r\n")
    check(response is not None and response.status != 400, f"OPTIONS * refused as malformed: {response!r}")


@case("absolute-form: the URL's authority wins over Host", defect=11)
def absolute_form(ctx):
    # Host api.asleep.ai routes to the Asleep emulator; the same path under Host 127.0.0.1 is
    # the control plane's 404. An absolute-form target must route by its own authority.
    via_host, _ = exchange(ctx.port, "GET /no-such-thing HTTP/1.1\r\nHost: api.asleep.ai\r\nConnection: close\r\n\r\n")
    via_admin, _ = exchange(ctx.port, "GET /no-such-thing HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    absolute, _ = exchange(ctx.port, "GET http://api.asleep.ai/no-such-thing HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    check(None not in (via_host, via_admin, absolute), "no answer")
    check(via_host.body != via_admin.body, "cannot tell Asleep's answer from the control plane's; the case needs another path")
    check(absolute.status == via_host.status and shape(absolute.body) == shape(via_host.body),
          f"absolute-form answered like Host 127.0.0.1 ({absolute.status} {absolute.body[:120]!r}), "
          f"not like Host api.asleep.ai ({via_host.status} {via_host.body[:120]!r})")


def shape(body):
    """A body with request-specific ids removed, to compare error formats."""
    import json
    try:
        value = json.loads(body)
    except ValueError:
        return body[:40]

    def keys(node):
        if isinstance(node, dict):
            return {key: keys(child) for key, child in node.items()}
        if isinstance(node, list):
            return [keys(child) for child in node[:1]]
        return type(node).__name__
    return keys(value)
