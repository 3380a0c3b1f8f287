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

    @Test(
        "chunk extensions must follow RFC 9112 §7.1.1: bare LF, NUL, control bytes and broken syntax are 400s",
        arguments: [
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

    @Test(
        "well-formed chunk extensions are accepted and ignored",
        arguments: [
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

    /// What the application would see: each request's method and path, or the failure.
    private func outcome(_ bytes: [UInt8], splits: [Int]? = nil) -> [String] {
        parse(bytes, splits: splits).map { event in
            switch event {
            case .request(let request): return "\(request.method.rawValue) \(request.path) \(request.body.count)"
            case .continueExpected: return "100"
            case .failure(let error, _): return error.code
            }
        }
    }

    /// Splits that deliver all but the last `tail` bytes, then those bytes one by one.
    private func tailSplits(_ count: Int, tail: Int) -> [Int] { [count - tail] + Array(repeating: 1, count: tail) }

    @Test("a head at the header limit gets the same answer whether its end arrives with it or alone", arguments: [-1, 0, 1])
    func headLimitIndependentOfSplits(overLimit: Int) {
        let limit = HTTPParserLimits().maxHeaderBytes
        let start = "GET /h HTTP/1.1\r\nHost: h\r\nX-Pad: "
        let head = start + String(repeating: "p", count: limit + overLimit - start.utf8.count) // head without its blank line
        let bytes = Array((head + "\r\n\r\n").utf8)
        let whole = outcome(bytes)
        #expect(whole == (overLimit > 0 ? ["headers_too_large"] : ["GET /h 0"]))
        for tail in 1...6 { #expect(outcome(bytes, splits: tailSplits(bytes.count, tail: tail)) == whole, "tail \(tail)") }
    }

    @Test("a chunk line at its length limit gets the same answer however it is split", arguments: [-1, 0, 1])
    func chunkLineLimitIndependentOfSplits(overLimit: Int) {
        let prefix = "3;x="
        let line = prefix + String(repeating: "e", count: 1024 + overLimit - prefix.utf8.count)
        let bytes = Array(("POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n" + line + "\r\nabc\r\n0\r\n\r\n").utf8)
        let whole = outcome(bytes)
        #expect(whole == (overLimit > 0 ? ["malformed_chunk"] : ["POST /c 3"]))
        let lineEnd = bytes.count - "abc\r\n0\r\n\r\n".utf8.count
        for tail in 1...3 {
            let splits = [lineEnd - tail] + Array(repeating: 1, count: tail) + [bytes.count]
            #expect(outcome(bytes, splits: splits) == whole, "tail \(tail)")
        }
        #expect(outcome(bytes, splits: Array(repeating: 1, count: bytes.count)) == whole)
    }

    @Test("a trailer section at the header limit gets the same answer however it is split", arguments: [-1, 0, 1])
    func trailerLimitIndependentOfSplits(overLimit: Int) {
        let limit = HTTPParserLimits().maxHeaderBytes
        let field = "X-Pad: " + String(repeating: "t", count: limit + overLimit - "X-Pad: \r\n".utf8.count) + "\r\n" // one line, CRLF included
        let bytes = chunked(trailers: field)
        let whole = outcome(bytes)
        #expect(whole == (overLimit > 0 ? ["headers_too_large"] : ["POST /t 3"]))
        for tail in 1...5 { #expect(outcome(bytes, splits: tailSplits(bytes.count, tail: tail)) == whole, "tail \(tail)") }
    }
}
