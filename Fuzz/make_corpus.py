#!/usr/bin/env python3
"""Writes the seed corpus in Fuzz/corpus/: one small file per request shape worth mutating.

Rerun after editing; the files are checked in so the fuzzer needs no Python.
"""
import gzip
import os
import zlib

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")
H = "Host: h\r\n"


def gz(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def chunked(body: bytes, size: int = 5) -> bytes:
    out = b""
    for start in range(0, len(body), size):
        piece = body[start:start + size]
        out += b"%x\r\n" % len(piece) + piece + b"\r\n"
    return out + b"0\r\n\r\n"


SEEDS = {
    "get": f"GET / HTTP/1.1\r\n{H}\r\n",
    "get-query": f"GET /a/b?x=1&y=two%20words HTTP/1.1\r\n{H}Accept: */*\r\n\r\n",
    "get-http10": "GET /old HTTP/1.0\r\n\r\n",
    "get-http10-keepalive": "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    "head": f"HEAD /x HTTP/1.1\r\n{H}Connection: close\r\n\r\n",
    "post-length": f"POST /p HTTP/1.1\r\n{H}Content-Type: application/json\r\nContent-Length: 13\r\n\r\n{{\"a\":[1,2,3]}}",
    "post-length-zero": f"POST /p HTTP/1.1\r\n{H}Content-Length: 0\r\n\r\n",
    "post-length-list": f"POST /p HTTP/1.1\r\n{H}Content-Length: 3, 3\r\n\r\nabc",
    "chunked": f"POST /c HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\n\r\n".encode() + chunked(b"hello chunked world"),
    "chunked-ext": f"POST /c HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\n\r\n3;name=value\r\nabc\r\n4;a;b=\"q s\"\r\ndefg\r\n0;last\r\n\r\n",
    "chunked-trailers": f"POST /c HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\nTrailer: X-Sum\r\n\r\n5\r\nhello\r\n0\r\nX-Sum: 42\r\nX-Other: b\r\n\r\n",
    "chunked-upper-hex": f"PUT /c HTTP/1.1\r\n{H}Transfer-Encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\n\r\n",
    "chunked-bws": f"PUT /c HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\n\r\n3 \t;x\r\nabc\r\n0\r\n\r\n",
    "gzip-length": f"POST /g HTTP/1.1\r\n{H}Content-Encoding: gzip\r\nContent-Length: {len(gz(b'hello gzip body'))}\r\n\r\n".encode() + gz(b"hello gzip body"),
    "gzip-chunked": f"POST /g HTTP/1.1\r\n{H}Content-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n".encode() + chunked(gz(b"chunked gzip " * 4), 7),
    "deflate-length": f"POST /d HTTP/1.1\r\n{H}Content-Encoding: deflate\r\nContent-Length: {len(zlib.compress(b'zlib body'))}\r\n\r\n".encode() + zlib.compress(b"zlib body"),
    "gzip-bomb-small": f"POST /g HTTP/1.1\r\n{H}Content-Encoding: gzip\r\nContent-Length: {len(gz(bytes(100000)))}\r\n\r\n".encode() + gz(bytes(100000)),
    "gzip-two-members": f"POST /g HTTP/1.1\r\n{H}Content-Encoding: x-gzip\r\nContent-Length: {len(gz(b'one') + gz(b'two'))}\r\n\r\n".encode() + gz(b"one") + gz(b"two"),
    "gzip-corrupt": f"POST /g HTTP/1.1\r\n{H}Content-Encoding: gzip\r\nContent-Length: 12\r\n\r\n".encode() + gz(b"abc")[:12],
    "gzip-raw-stream": gz(b"a raw gzip stream for the decoder alone" * 3),
    "zlib-raw-stream": zlib.compress(b"a raw zlib stream " * 5),
    "encoding-unknown": f"POST /g HTTP/1.1\r\n{H}Content-Encoding: br\r\nContent-Length: 2\r\n\r\nxx",
    "pipelined": f"GET /1 HTTP/1.1\r\n{H}\r\nPOST /2 HTTP/1.1\r\n{H}Content-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\n{H}Connection: close\r\n\r\n",
    "pipelined-blank-lines": f"\r\n\r\nGET /1 HTTP/1.1\r\n{H}\r\n\r\nGET /2 HTTP/1.1\r\n{H}\r\n",
    "expect-continue": f"PUT /e HTTP/1.1\r\n{H}Expect: 100-continue\r\nContent-Length: 4\r\n\r\nbody",
    "expect-continue-chunked": f"PUT /e HTTP/1.1\r\n{H}Expect: 100-Continue\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
    "expect-other": f"PUT /e HTTP/1.1\r\n{H}Expect: something\r\n\r\n",
    "smuggle-cl-te": f"POST / HTTP/1.1\r\n{H}Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "smuggle-te-cl": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
    "smuggle-te-list": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
    "smuggle-te-space": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding : chunked\r\n\r\n0\r\n\r\n",
    "smuggle-te-twice": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    "smuggle-te-identity": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: identity\r\n\r\n",
    "smuggle-cl-twice": f"POST / HTTP/1.1\r\n{H}Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd",
    "bad-cl-sign": f"POST / HTTP/1.1\r\n{H}Content-Length: +3\r\n\r\nabc",
    "bad-cl-huge": f"POST / HTTP/1.1\r\n{H}Content-Length: 99999999999999999999\r\n\r\n",
    "bad-cl-hex": f"POST / HTTP/1.1\r\n{H}Content-Length: 0x10\r\n\r\n",
    "obs-fold": f"GET / HTTP/1.1\r\n{H}X-Long: a\r\n b\r\n\r\n",
    "control-in-header": f"GET / HTTP/1.1\r\n{H}X-Bad: a\x01b\r\n\r\n",
    "nul-in-header": f"GET / HTTP/1.1\r\n{H}X-Bad: a\x00b\r\n\r\n",
    "bare-lf": f"GET / HTTP/1.1\n{H}\n",
    "bare-cr": f"GET / HTTP/1.1\r{H}\r\n\r\n",
    "h2-preface": "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
    "absolute-form": "GET http://example.test:8080/path?q=1 HTTP/1.1\r\nHost: other\r\n\r\n",
    "absolute-form-https": "GET https://example.test HTTP/1.1\r\nHost: example.test\r\n\r\n",
    "asterisk-options": f"OPTIONS * HTTP/1.1\r\n{H}\r\n",
    "asterisk-get": f"GET * HTTP/1.1\r\n{H}\r\n",
    "host-missing": "GET / HTTP/1.1\r\n\r\n",
    "host-twice": "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    "host-invalid": "GET / HTTP/1.1\r\nHost: a b/c\r\n\r\n",
    "host-ipv6": "GET / HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n",
    "version-bad": f"GET / HTTP/1.2\r\n{H}\r\n",
    "version-2": f"GET / HTTP/2.0\r\n{H}\r\n",
    "version-garbage": f"GET / HTTQ/1.1\r\n{H}\r\n",
    "version-lower": f"GET / http/1.1\r\n{H}\r\n",
    "http10-chunked": "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n",
    "method-odd": f"M-SEARCH /x HTTP/1.1\r\n{H}\r\n",
    "request-line-double-space": f"GET  / HTTP/1.1\r\n{H}\r\n",
    "chunk-ext-control": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\n\r\n3;a\x01b\r\nabc\r\n0\r\n\r\n",
    "chunk-ext-bare-lf": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\n\r\n3;a\nb\r\nabc\r\n0\r\n\r\n",
    "chunk-size-negative": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\n\r\n-3\r\nabc\r\n0\r\n\r\n",
    "chunk-size-overflow": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\nabc\r\n0\r\n\r\n",
    "chunk-missing-crlf": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\n\r\n3\r\nabcX0\r\n\r\n",
    "trailer-bad": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\n\r\n0\r\nBad Trailer\r\n\r\n",
    "many-headers": "GET / HTTP/1.1\r\n" + H + "".join(f"X-H{i}: {i}\r\n" for i in range(40)) + "\r\n",
    "head-near-limit": "GET / HTTP/1.1\r\n" + H + "X-Pad: " + "a" * 560 + "\r\n\r\n",
    "long-chunk-ext": f"POST / HTTP/1.1\r\n{H}Transfer-Encoding: chunked\r\n\r\n1;" + "e" * 1100 + "\r\na\r\n0\r\n\r\n",
    "body-over-limit": f"POST / HTTP/1.1\r\n{H}Content-Length: 2001\r\n\r\n" + "b" * 20,
}


def main() -> None:
    os.makedirs(HERE, exist_ok=True)
    for name, data in SEEDS.items():
        if isinstance(data, str):
            data = data.encode("latin-1")
        with open(os.path.join(HERE, name), "wb") as handle:
            handle.write(data)
    print(f"wrote {len(SEEDS)} seeds to {HERE}")


if __name__ == "__main__":
    main()
