import Foundation
import Testing

@testable import HTTPServer

@Suite("Request target and Host (RFC 9112 §3.2)")
struct HTTPRequestTargetTests {
    @Test(
        "two Host headers, or an invalid Host, are a 400",
        arguments: [
            "GET / HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n",
            "GET / HTTP/1.0\r\nHost: a.example\r\nhost: a.example\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: user@a.example\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a.example:80x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a.example:1234567\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: a%zz\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: \"a\"\r\n\r\n",
        ])
    func invalidHost(input: String) {
        #expect(failure(parse(Array(input.utf8))) == .invalidHost)
        #expect(HTTPRequestError.invalidHost.status == 400)
    }

    @Test(
        "valid Host values are accepted",
        arguments: [
            "example.com", "example.com:8080", "127.0.0.1:80", "[::1]:8080", "[fe80::1%25en0]", "my_host-1.example", "localhost:", "",
        ])
    func validHost(host: String) {
        let parsed = requests(parse(Array("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n".utf8)))
        #expect(parsed.first?.headers["host"] == host)
    }

    @Test("in absolute form the URL's authority wins over Host, and the form and scheme are kept")
    func absoluteFormAuthorityWins() {
        let parsed = requests(parse(Array("GET HTTPS://api.warplink.app:8443/v1/x?y=1 HTTP/1.1\r\nHost: elsewhere.example\r\nAccept: */*\r\n\r\n".utf8)))
        let request = parsed.first
        #expect(request?.headers["host"] == "api.warplink.app:8443" && request?.headers.values(for: "host").count == 1)
        #expect(request?.headers.fields.first?.lowercasedName == "host") // where the client put it
        #expect(request?.hostName == "api.warplink.app" && request?.path == "/v1/x" && request?.query == "y=1")
        #expect(request?.absoluteFormScheme == "https")

        let origin = requests(parse(Array("GET /v1/x HTTP/1.1\r\nHost: h\r\n\r\n".utf8)))
        #expect(origin.first?.absoluteFormScheme == nil)

        let old = requests(parse(Array("GET http://old.example/ HTTP/1.0\r\n\r\n".utf8)))
        #expect(old.first?.headers["host"] == "old.example" && old.first?.absoluteFormScheme == "http")
    }

    @Test(
        "an absolute-form target with no host or with user info is a 400",
        arguments: [
            "GET http:///x HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET http://user:pw@h.example/x HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET http://h .example/ HTTP/1.1\r\nHost: h\r\n\r\n",
            "GET https://?x HTTP/1.1\r\nHost: h\r\n\r\n",
        ])
    func invalidAbsoluteForm(input: String) {
        let error = failure(parse(Array(input.utf8)))
        #expect(error == .invalidTarget || error == .malformedRequestLine)
        #expect(error?.status == 400)
    }

    @Test("GET * is a 400; OPTIONS * is served")
    func asteriskForm() {
        #expect(failure(parse(Array("GET * HTTP/1.1\r\nHost: h\r\n\r\n".utf8))) == .invalidTarget)
        #expect(HTTPRequestError.invalidTarget.status == 400)
        let options = requests(parse(Array("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n".utf8)))
        #expect(options.first?.method == .options && options.first?.target == "*")
    }
}
