import Testing

@testable import HTTPServer

@Suite("Header names and tokens")
struct HTTPHeadersTests {
    @Test("names compare in any case, ASCII or not, without changing what was sent")
    func names() {
        var headers: HTTPHeaders = ["Content-TYPE": "a", "x-lower": "b", "X-Ünïcode": "c"]
        #expect(headers["content-type"] == "a" && headers["CONTENT-TYPE"] == "a" && headers["Content-Type"] == "a")
        #expect(headers["X-LOWER"] == "b")
        #expect(headers["x-ünïcode"] == "c" && headers["X-ÜNÏCODE"] == "c")
        #expect(headers.fields.map(\.name) == ["Content-TYPE", "x-lower", "X-Ünïcode"])
        #expect(headers.fields.map(\.lowercasedName) == ["content-type", "x-lower", "x-ünïcode"])
        headers.set("CONTENT-type", "d")
        #expect(headers.values(for: "content-type") == ["d"])
        #expect(HTTPHeaders.lowercasedName("Z@[`a{") == "z@[`a{", "only A-Z move: the bytes either side of them stay")
    }

    @Test("a comma-separated header holds a token in any case and spacing, across repeated fields")
    func tokens() {
        let headers = HTTPHeaders([("Connection", " Upgrade ,\tKeep-Alive\t"), ("connection", "TE"), ("Other", "close")])
        #expect(headers.containsToken("keep-alive", in: "connection"))
        #expect(headers.containsToken("UPGRADE", in: "Connection"))
        #expect(headers.containsToken("te", in: "CONNECTION"))
        #expect(!headers.containsToken("close", in: "connection"), "a token of another header does not count")
        #expect(!headers.containsToken("keep", in: "connection"), "a prefix is not the token")
        #expect(!headers.containsToken("keep-alive", in: "upgrade"))
    }

    @Test("the host name drops the port and lower-cases, and IPv6 literals keep their address")
    func hostName() {
        func host(_ value: String) -> String? { Request(method: .get, target: "/", headers: ["Host": value]).hostName }
        #expect(host("API.WarpLink.app:443") == "api.warplink.app")
        #expect(host("api.warplink.app") == "api.warplink.app")
        #expect(host("127.0.0.1:8080") == "127.0.0.1")
        #expect(host("[::1]:8080") == "::1")
        #expect(host(":8080") == nil)
        #expect(Request(method: .get, target: "/").hostName == nil)
    }

    @Test("a bearer token is the value after a case-insensitive `Bearer `, ASCII white space around it dropped")
    func bearerTokens() {
        func bearer(_ value: String?) -> String? {
            Request(method: .get, target: "/", headers: value.map { HTTPHeaders([("Authorization", $0)]) } ?? HTTPHeaders()).bearerToken
        }
        #expect(bearer("Bearer abc") == "abc" && bearer("bEaReR abc") == "abc" && bearer(" \tBearer \t abc\t ") == "abc")
        #expect(bearer("Bearer a b") == "a b", "only the ends are trimmed")
        #expect(bearer(nil) == nil && bearer("") == nil && bearer("Bearer") == nil && bearer("Bearer  \t") == nil)
        #expect(bearer("Bearer\tabc") == nil && bearer("Bearerabc") == nil && bearer("Basic abc") == nil && bearer("Bearr abc") == nil)
        #expect(bearer("Bearer tökén") == "tökén" && bearer("BEARER  ü ") == "ü")
        #expect(bearer("Bearer \u{301}abc") == nil, "a combining mark joins the space: the scheme is no longer `bearer `")
        // The byte scan of ASCII values answers as the Character-based reading does.
        let corpus = [
            "Bearer x", " bearer   x  ", "BEARER\tx", "Bearer ", "Bearerx", "Basic abc", "bearer  ", "Bearer a b", "\tBearer tok\t",
            "Bearer\u{20}\u{20}", "xBearer y", "Bearer_y", "@EARER y", "BEARER y", "bearer\u{0B}y", "  ", "B",
        ]
        for value in corpus {
            #expect(bearer(value) == Request.bearerToken(unicode: value), "\(value.debugDescription)")
        }
    }

    @Test("trimming ASCII white space drops spaces and tabs at both ends only")
    func asciiTrimming() {
        #expect(" \t a b \t".trimmingASCIIWhitespace() == "a b" && "ab".trimmingASCIIWhitespace() == "ab" && " \t ".trimmingASCIIWhitespace() == "")
        #expect("\na\r".trimmingASCIIWhitespace() == "\na\r" && "\u{A0}a".trimmingASCIIWhitespace() == "\u{A0}a", "only space and tab are HTTP's white space")
        #expect(" é\u{301} ".trimmingASCIIWhitespace() == "é\u{301}" && "x \u{301}".trimmingASCIIWhitespace() == "x \u{301}")
        #expect("[ ab ]".dropFirst().dropLast().trimmingASCIIWhitespace() == "ab", "substrings trim within their bounds")
    }
}
