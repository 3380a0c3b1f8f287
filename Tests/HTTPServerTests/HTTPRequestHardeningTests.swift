import Foundation
import Testing
@testable import HTTPServer

private func chunked(trailers: String) -> [UInt8] {
    Array("POST /t HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\(trailers)\r\n".utf8)
}

@Suite("HTTP request parser against hostile input")
struct HTTPRequestHardeningTests {
    @Test("a trailer section larger than the header limit is a 431, however it arrives")
    func trailerFlood() {
        let flood = chunked(trailers: String(repeating: "X-T: v\r\n", count: 65_536)) // 512 KiB of fields
        #expect(failure(parse(flood)) == .headersTooLarge)
        #expect(failure(parse(flood, splits: Array(repeating: 1000, count: flood.count / 1000 + 1))) == .headersTooLarge)
        let fits = chunked(trailers: String(repeating: "X-T: v\r\n", count: 1000)) // 8,000 bytes
        #expect(requests(parse(fits)).first?.trailers.count == 1000)
    }

    @Test("chunk extensions must follow RFC 9112 §7.1.1: bare LF, NUL, control bytes and broken syntax are 400s", arguments: [
        "3;a\nb\r\nabc\r\n0\r\n\r\n",
        "3;a\u{0}b\r\nabc\r\n0\r\n\r\n",
        "3;a\u{1}\r\nabc\r\n0\r\n\r\n",
        "3;a=\u{7f}\r\nabc\r\n0\r\n\r\n",
        "3;\r\nabc\r\n0\r\n\r\n",
        "3;a=\r\nabc\r\n0\r\n\r\n",
        "3;a=\"open\r\nabc\r\n0\r\n\r\n",
        "3;a=\"x\"y\r\nabc\r\n0\r\n\r\n",
        "3;a b\r\nabc\r\n0\r\n\r\n",
        "3;a=b=c\r\nabc\r\n0\r\n\r\n",
        "3;;a\r\nabc\r\n0\r\n\r\n",
        "3\r\nabc\r\n0;a\u{0}\r\n\r\n",
    ])
    func badChunkExtensions(body: String) {
        let bytes = Array(("POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + body).utf8)
        #expect(failure(parse(bytes)) == .malformedChunk)
        #expect(failure(parse(bytes, splits: Array(repeating: 1, count: bytes.count))) == .malformedChunk)
    }

    @Test("well-formed chunk extensions are accepted and ignored", arguments: [
        "3;ext=1\r\nabc\r\n0\r\n\r\n",
        "3 ; a = b ; c\r\nabc\r\n0\r\n\r\n",
        "3;a=\"quoted \\\" and ; = \"\r\nabc\r\n0\r\n\r\n",
        "3;a;b=c;d=\"\"\r\nabc\r\n0;last\r\n\r\n",
        "3 \r\nabc\r\n0\r\n\r\n",
    ])
    func goodChunkExtensions(body: String) {
        let bytes = Array(("POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + body).utf8)
        #expect(requests(parse(bytes)).first?.body == Data("abc".utf8))
    }

    @Test("HTTP/1.0 with Transfer-Encoding is faulty framing: 400, and the connection closes after the answer")
    func transferEncodingInHTTP10() {
        for extra in ["", "Content-Length: 3\r\n"] {
            let bytes = Array("POST /old HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\(extra)Connection: keep-alive\r\n\r\n3\r\nabc\r\n0\r\n\r\n".utf8)
            #expect(failure(parse(bytes)) == .transferEncodingInHTTP10)
            #expect(HTTPRequestError.transferEncodingInHTTP10.status == 400)
            var connection = ConnectionDriver()
            connection.send(bytes)
            connection.echo()
            #expect(connection.statuses == [400] && connection.written.map(\.keepAlive) == [false])
            #expect(connection.isClosed || connection.writeSideClosed)
        }
    }
}
