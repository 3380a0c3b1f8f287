import Foundation
import Testing

@testable import HTTPServer

@Suite("Proxy requests: CONNECT, authorities, forwarded requests")
struct ProxyParsingTests {
    @Test("CONNECT host:port is read in authority form; Host becomes the authority")
    func connectAuthorityForm() {
        let parsed = requests(parse(Array("CONNECT api.warplink.app:443 HTTP/1.1\r\nHost: elsewhere\r\nUser-Agent: curl\r\n\r\n".utf8)))
        #expect(parsed.count == 1)
        let request = parsed.first
        #expect(request?.method == .connect && request?.target == "api.warplink.app:443")
        #expect(request?.headers["host"] == "api.warplink.app:443" && request?.hostName == "api.warplink.app")
        #expect(request?.connectAuthority == ProxyAuthority(host: "api.warplink.app", port: 443))
        // Some clients send no Host with CONNECT; the authority is the host anyway.
        let bare = requests(parse(Array("CONNECT [::1]:8443 HTTP/1.1\r\n\r\n".utf8)))
        #expect(bare.first?.connectAuthority == ProxyAuthority(host: "::1", port: 8443))
    }

    @Test(
        "CONNECT without a port, with garbage, or with another target form is a 400",
        arguments: [
            "CONNECT api.warplink.app HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT api.warplink.app: HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT api.warplink.app:0 HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT api.warplink.app:70000 HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT api.warplink.app:44x HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT user@api.warplink.app:443 HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT :443 HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT [::1 HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT [::1] HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT /v1/sdk/validate HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT http://api.warplink.app:443/ HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT * HTTP/1.1\r\nHost: a\r\n\r\n",
            "CONNECT \u{7f}\u{7f}:443 HTTP/1.1\r\nHost: a\r\n\r\n",
        ])
    func badConnect(input: String) {
        let error = failure(parse(Array(input.utf8)))
        #expect(error == .invalidTarget || error == .malformedRequestLine, "\(input)")
        #expect(error?.status == 400)
    }

    @Test("authority form is CONNECT's alone")
    func authorityFormOnlyForConnect() {
        #expect(failure(parse(Array("GET api.warplink.app:443 HTTP/1.1\r\nHost: a\r\n\r\n".utf8))) == .malformedRequestLine)
    }

    @Test("after a CONNECT the parser stops: pipelined bytes stay unconsumed for the tunnel, framing headers or not")
    func connectStopsParsing() {
        let hello: [UInt8] = [0x16, 0x03, 0x01, 0x00, 0x05, 1, 2, 3, 4, 5]
        let head = Array("CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\nContent-Length: 3\r\n\r\n".utf8)
        var reader = HTTPRequestReader()
        reader.feed(head + hello, now: 1)
        guard case .request(let request) = reader.next() else {
            Issue.record("no CONNECT request")
            return
        }
        #expect(request.body.isEmpty && request.method == .connect)
        #expect(reader.next() == nil && reader.isTunnel && !reader.isMidRequest)
        reader.feed(Array("GET / HTTP/1.1\r\n\r\n".utf8), now: 2)
        #expect(reader.next() == nil)
        #expect(reader.bufferedByteCount == hello.count + 18)
        #expect(reader.takeUnconsumedBytes() == hello + Array("GET / HTTP/1.1\r\n\r\n".utf8))
        #expect(reader.bufferedByteCount == 0 && reader.next() == nil)
    }

    @Test("authorities: required ports, default ports, IPv6, lower case")
    func authorities() {
        #expect(ProxyAuthority(authorityForm: "API.WarpLink.app:443") == ProxyAuthority(host: "api.warplink.app", port: 443))
        #expect(ProxyAuthority(authorityForm: "127.0.0.1:8080")?.description == "127.0.0.1:8080")
        #expect(ProxyAuthority(authorityForm: "[::1]:443")?.description == "[::1]:443")
        #expect(ProxyAuthority(authorityForm: "[::1]:443")?.host == "::1")
        for bad in ["example.org", "example.org:", "[::1]", ":80", "a:b:80", "a b:80", "example.org:65536", ""] {
            #expect(ProxyAuthority(authorityForm: bad) == nil, "\(bad)")
        }
        #expect(ProxyAuthority(urlAuthority: "example.org", defaultPort: 80) == ProxyAuthority(host: "example.org", port: 80))
        #expect(ProxyAuthority(urlAuthority: "example.org:8080", defaultPort: 80)?.port == 8080)
        #expect(ProxyAuthority(urlAuthority: "[::1]", defaultPort: 80)?.description == "[::1]:80")
        #expect(ProxyAuthority(urlAuthority: "example.org:", defaultPort: 80) == nil)
        #expect(ProxyAuthority(urlAuthority: "", defaultPort: 80) == nil)
    }

    @Test("a 200 to CONNECT says Connection Established, with no body and no framing headers")
    func connectEstablishedHead() {
        let output = ResponseSerializer.serialize(Response(status: 200, body: Data("ignored".utf8)), method: .connect, version: .http11, keepAlive: true)
        let text = String(decoding: output.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 Connection Established\r\n"))
        #expect(!text.lowercased().contains("content-length") && !text.lowercased().contains("connection:"))
        #expect(text.hasSuffix("\r\n\r\n") && output.bodyOffset == output.bytes.count)
        // A refusal is an ordinary response.
        let refusal = String(decoding: ResponseSerializer.serialize(.text("no", status: 403), method: .connect, version: .http11, keepAlive: false).bytes, as: UTF8.self)
        #expect(refusal.hasPrefix("HTTP/1.1 403 Forbidden\r\n") && refusal.contains("Content-Length: 2\r\n") && refusal.hasSuffix("\r\n\r\nno"))
    }

    @Test("a forwarded request goes out in origin form, hop-by-hop fields dropped, Connection: close, body as decoded")
    func forwardedRequestBytes() {
        let input =
            "POST http://example.org:8080/form?x=1 HTTP/1.1\r\nHost: ignored\r\nProxy-Connection: keep-alive\r\nConnection: keep-alive, X-Hop\r\n"
            + "X-Hop: 1\r\nProxy-Authorization: Basic eA==\r\nAccept: */*\r\nContent-Length: 5\r\n\r\nhello"
        guard let request = requests(parse(Array(input.utf8))).first else {
            Issue.record("not parsed")
            return
        }
        let text = String(decoding: ForwardedRequest.bytes(for: request), as: UTF8.self)
        #expect(text == "POST /form?x=1 HTTP/1.1\r\nHost: example.org:8080\r\nAccept: */*\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
    }

    @Test("an upstream response head is read for the journal: status and fields; incomplete or non-HTTP heads are nil")
    func upstreamResponseHead() {
        let bytes = Array("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\nnope".utf8)
        let head = UpstreamResponseHead(parsing: bytes)
        #expect(head?.status == 404 && head?.headers["content-type"] == "text/plain" && head?.headLength == bytes.count - 4)
        #expect(UpstreamResponseHead(parsing: Array("HTTP/1.1 200 OK\r\nA: b\r\n".utf8)) == nil)
        #expect(UpstreamResponseHead(parsing: Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) == nil)
        #expect(UpstreamResponseHead(parsing: Array("HTTP/1.1 2000 OK\r\n\r\n".utf8)) == nil)
    }
}
