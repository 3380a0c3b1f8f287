import Foundation
import Testing

@testable import HTTPServer

@Suite("Response serializer")
struct ResponseSerializerTests {
    @Test("one buffer with status line, Date, Content-Length and body; HEAD keeps the length but not the body")
    func serialize() {
        let response = Response.json(status: 201, bytes: Data("{\"a\":1}".utf8))
        let text = String(decoding: ResponseSerializer.serialize(response, method: .post, version: .http11, keepAlive: true).bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 201 Created\r\n"))
        #expect(text.contains("\r\nContent-Length: 7\r\n"))
        #expect(text.contains("\r\nDate: "))
        #expect(!text.contains("Connection"))
        #expect(text.hasSuffix("\r\n\r\n{\"a\":1}"))
        let head = String(decoding: ResponseSerializer.serialize(response, method: .head, version: .http11, keepAlive: false).bytes, as: UTF8.self)
        #expect(head.contains("Content-Length: 7\r\n") && head.contains("Connection: close\r\n") && head.hasSuffix("\r\n\r\n"))
    }

    @Test("handlers cannot smuggle framing headers or CRLF")
    func sanitizes() {
        var response = Response.text("x")
        response.headers.add("Content-Length", "999")
        response.headers.add("X-Evil", "a\r\nInjected: yes")
        let text = String(decoding: ResponseSerializer.serialize(response, method: .get, version: .http11, keepAlive: true).bytes, as: UTF8.self)
        #expect(!text.contains("999"))
        #expect(!text.contains("\r\nInjected"))
    }

    @Test("the Date header is an IMF-fixdate")
    func date() {
        #expect(HTTPDate.format(epochSeconds: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}
