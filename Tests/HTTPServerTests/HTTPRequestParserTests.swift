import CZlib
import Foundation
import Testing

@testable import HTTPServer

/// Feeds `bytes` to a fresh reader (parser and body decoder) in the given chunk sizes and collects every event.
func parse(_ bytes: [UInt8], splits: [Int]? = nil, limits: HTTPParserLimits = HTTPParserLimits()) -> [HTTPParserEvent] {
    var parser = HTTPRequestReader(limits: limits, remoteAddress: "127.0.0.1")
    var events: [HTTPParserEvent] = []
    var offset = 0
    var sizes = splits ?? [bytes.count]
    while offset < bytes.count {
        let size = max(1, min(sizes.isEmpty ? bytes.count : sizes.removeFirst(), bytes.count - offset))
        parser.feed(bytes[offset..<offset + size], now: 0)
        offset += size
        while let event = parser.next() { events.append(event) }
    }
    return events
}

func requests(_ events: [HTTPParserEvent]) -> [Request] {
    events.compactMap { if case .request(let request) = $0 { return request } else { return nil } }
}

func failure(_ events: [HTTPParserEvent]) -> HTTPRequestError? {
    for event in events { if case .failure(let error, _) = event { return error } }
    return nil
}

/// A stable description of a request for comparing parses.
private func summary(_ request: Request) -> String {
    "\(request.method.rawValue) \(request.target) \(request.version.text) \(request.headers.fields.map { "\($0.name)=\($0.value)" }) \(Array(request.body)) \(request.trailers.fields.map(\.value))"
}

private let pipelined = Array(
    ("GET /a?x=1&y=two%20words HTTP/1.1\r\nHost: h\r\nX-Rep: 1\r\nx-rep: 2\r\n\r\n"
        + "POST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello"
        + "PUT /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nabc\r\n10\r\n0123456789abcdef\r\n0\r\nX-Trailer: t\r\n\r\n"
        + "GET /d HTTP/1.0\r\n\r\n").utf8)

@Suite("HTTP request parser")
struct HTTPRequestParserTests {
    @Test("the same bytes whole, byte by byte and in random splits parse the same")
    func splitsAgree() {
        let whole = requests(parse(pipelined)).map(summary)
        #expect(whole.count == 4)
        let byteByByte = requests(parse(pipelined, splits: Array(repeating: 1, count: pipelined.count))).map(summary)
        #expect(byteByByte == whole)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let splits = (0..<pipelined.count).map { _ in Int.random(in: 1...40, using: &generator) }
            #expect(requests(parse(pipelined, splits: splits)).map(summary) == whole)
        }
    }

    @Test("request line, query, repeated headers, bodies and trailers")
    func fields() throws {
        let parsed = requests(parse(pipelined))
        let get = parsed[0]
        #expect(get.method == .get && get.path == "/a" && get.query == "x=1&y=two%20words")
        #expect(get.queryValue("y") == "two words")
        #expect(get.headers.values(for: "X-REP") == ["1", "2"])
        #expect(get.wantsKeepAlive)
        #expect(parsed[1].body == Data("hello".utf8))
        #expect(parsed[2].body == Data("abc0123456789abcdef".utf8))
        #expect(parsed[2].trailers["x-trailer"] == "t")
        #expect(parsed[3].version == .http10 && !parsed[3].wantsKeepAlive)
    }

    @Test("Connection: close and HTTP/1.0 keep-alive")
    func keepAlive() {
        let close = requests(parse(Array("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n".utf8)))
        #expect(close.first?.wantsKeepAlive == false)
        let old = requests(parse(Array("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n".utf8)))
        #expect(old.first?.wantsKeepAlive == true)
    }

    @Test("Expect: 100-continue is announced before the body, once")
    func expectContinue() {
        var parser = HTTPRequestReader()
        parser.feed(Array("POST /u HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8), now: 0)
        guard case .continueExpected? = parser.next() else { Issue.record("no continue"); return }
        #expect(parser.next() == nil)
        parser.feed(Array("abc".utf8), now: 0)
        guard case .request(let request)? = parser.next() else { Issue.record("no request"); return }
        #expect(request.body == Data("abc".utf8))
    }

    @Test("gzip request bodies are inflated; broken gzip is a 400; a bomb is a 413")
    func gzip() {
        let json = Data(String(repeating: "{\"a\":1},", count: 100).utf8)
        let compressed = Gzip.compress(json)
        let head = "POST /g HTTP/1.1\r\nHost: h\r\nContent-Encoding: gzip\r\nContent-Length: \(compressed.count)\r\n\r\n"
        let ok = requests(parse(Array(head.utf8) + Array(compressed)))
        #expect(ok.first?.body == json)
        #expect(ok.first?.wireBodySize == compressed.count)

        var broken = Array(compressed)
        broken[broken.count / 2] ^= 0xff
        broken.removeLast(4)
        let badHead = "POST /g HTTP/1.1\r\nHost: h\r\nContent-Encoding: gzip\r\nContent-Length: \(broken.count)\r\n\r\n"
        #expect(failure(parse(Array(badHead.utf8) + broken)) == .corruptContentEncoding)

        let bomb = Gzip.compress(Data(count: 2_000_000))
        let bombHead = "POST /g HTTP/1.1\r\nHost: h\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n"
        let limits = HTTPParserLimits(maxBodyBytes: 1_000_000)
        #expect(failure(parse(Array(bombHead.utf8) + Array(bomb), limits: limits)) == .bodyTooLarge(limit: 1_000_000))

        let brotli = "POST /g HTTP/1.1\r\nHost: h\r\nContent-Encoding: br\r\nContent-Length: 1\r\n\r\nx"
        #expect(failure(parse(Array(brotli.utf8))) == .unsupportedContentEncoding("br"))
    }

    @Test("a gzip-coded body keeps its stream as sent; other codings keep none")
    func gzipStream() {
        let json = Data(String(repeating: "{\"a\":1},", count: 100).utf8)
        let compressed = Gzip.compress(json)
        func request(_ coding: String?, _ body: Data) -> Request? {
            let head = "POST /g HTTP/1.1\r\nHost: h\r\n" + (coding.map { "Content-Encoding: \($0)\r\n" } ?? "") + "Content-Length: \(body.count)\r\n\r\n"
            // The body in pieces of 7 bytes: the stream is gathered across them.
            return requests(parse(Array(head.utf8) + Array(body), splits: [head.utf8.count] + Array(repeating: 7, count: body.count / 7 + 1))).first
        }
        #expect(request("gzip", compressed)?.gzipStream == compressed)
        #expect(request("x-gzip", compressed)?.gzipStream == compressed)
        #expect(request("gzip", compressed)?.body == json)
        #expect(request(nil, compressed)?.gzipStream == nil) // magic bytes alone: the body is the stream
        #expect(request("identity", json)?.gzipStream == nil)
        let deflated = request("deflate", Data([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]))
        #expect(deflated?.body == Data() && deflated?.gzipStream == nil)
    }

    @Test("limits: headers over 16 KiB → 431, declared body over the limit → 413 before the body")
    func limits() {
        let big = "GET / HTTP/1.1\r\nHost: h\r\nX-Big: " + String(repeating: "a", count: 17 * 1024) + "\r\n\r\n"
        #expect(failure(parse(Array(big.utf8))) == .headersTooLarge)
        #expect(HTTPRequestError.headersTooLarge.status == 431)
        // Even before the head ends, too many bytes without a blank line is 431.
        #expect(failure(parse(Array(big.utf8.prefix(17 * 1024)))) == .headersTooLarge)
        // The request line still comes with the failure, so the answer can take the path's format.
        if case .failure(_, let head)? = parse(Array(big.utf8)).first { #expect(head?.path == "/") } else { Issue.record("no failure") }

        let limits = HTTPParserLimits(maxBodyBytes: 10)
        let events = parse(Array("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\n".utf8), limits: limits)
        #expect(failure(events) == .bodyTooLarge(limit: 10))
        if case .failure(_, let head)? = events.first { #expect(head?.path == "/") }
        let chunked = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n01234567\r\n8\r\n01234567\r\n0\r\n\r\n"
        #expect(failure(parse(Array(chunked.utf8), limits: limits)) == .bodyTooLarge(limit: 10))
    }

    @Test(
        "malformed requests are 400s",
        arguments: [
            ("GET /\r\nHost: h\r\n\r\n", HTTPRequestError.malformedRequestLine),
            ("GET  / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine),
            ("G(T / HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine),
            ("GET nope HTTP/1.1\r\nHost: h\r\n\r\n", .malformedRequestLine),
            ("GET / HTTP/2.0\r\nHost: h\r\n\r\n", .unsupportedVersion),
            ("GET / HTTP/1.1\r\nBad Header: x\r\nHost: h\r\n\r\n", .malformedHeader),
            ("GET / HTTP/1.1\r\nHost: h\r\n folded\r\n\r\n", .malformedHeader),
            ("GET / HTTP/1.1\r\nNoColon\r\nHost: h\r\n\r\n", .malformedHeader),
            ("GET / HTTP/1.1\r\n\r\n", .missingHost),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n", .invalidContentLength),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n", .invalidContentLength),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", .invalidContentLength),
            ("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n", .conflictingFraming),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", .unsupportedTransferEncoding),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", .malformedChunk),
            ("POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n", .malformedChunk),
            ("POST / HTTP/1.1\r\nHost: h\r\nExpect: magic\r\n\r\n", .unsupportedExpectation),
        ])
    func malformed(input: String, expected: HTTPRequestError) {
        #expect(failure(parse(Array(input.utf8))) == expected)
        #expect(failure(parse(Array(input.utf8), splits: Array(repeating: 1, count: input.utf8.count))) == expected)
    }

    @Test("after a failure the parser yields nothing more")
    func stopsAfterFailure() {
        var parser = HTTPRequestReader()
        parser.feed(Array("BAD\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8), now: 0)
        guard case .failure? = parser.next() else { Issue.record("expected failure"); return }
        #expect(parser.next() == nil)
        parser.feed(Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8), now: 0)
        #expect(parser.next() == nil)
    }

    @Test("absolute-form targets keep only path and query")
    func absoluteForm() {
        let parsed = requests(parse(Array("GET http://api.warplink.app/v1/x?y=1 HTTP/1.1\r\nHost: api.warplink.app\r\n\r\n".utf8)))
        #expect(parsed.first?.path == "/v1/x" && parsed.first?.query == "y=1")
        #expect(parsed.first?.hostName == "api.warplink.app")
    }
}
