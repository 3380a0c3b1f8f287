import Testing

@testable import HTTPServer

@Suite("Request line")
struct RequestLineTests {
    /// The request-line parse as it was before it checked bytes first (arrays and lowered
    /// `Character` prefixes), kept as the reference.
    private static func reference(_ line: ArraySlice<UInt8>) -> RequestHeadParser.RequestLine? {
        let parts = line.split(separator: 32, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        let methodBytes = parts[0], targetBytes = parts[1], versionBytes = parts[2]
        guard !methodBytes.isEmpty, methodBytes.allSatisfy(RequestHeadParser.isTokenByte) else { return nil }
        guard !targetBytes.isEmpty, targetBytes.allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
        guard versionBytes.count == 8, versionBytes.starts(with: Array("HTTP/".utf8)) else { return nil }
        let digits = Array(versionBytes.suffix(3))
        guard digits[1] == UInt8(ascii: "."), (48...57).contains(digits[0]), (48...57).contains(digits[2]) else { return nil }
        let version: HTTPVersion?
        switch (digits[0], digits[2]) {
        case (49, 49): version = .http11
        case (49, 48): version = .http10
        default: version = nil
        }
        var target = String(decoding: targetBytes, as: UTF8.self)
        var absolute: (scheme: String, authority: String)?
        let lowered = target.prefix(8).lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            let scheme = lowered.hasPrefix("https://") ? "https" : "http"
            let afterScheme = target.dropFirst(scheme.count + 3)
            let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
            absolute = (scheme, String(afterScheme[..<authorityEnd]))
            let rest = afterScheme[authorityEnd...]
            target = rest.isEmpty ? "/" : rest.hasPrefix("?") ? "/" + rest : String(rest)
        }
        let method = HTTPMethod(String(decoding: methodBytes, as: UTF8.self))
        if absolute == nil && !(target.hasPrefix("/") || target == "*") && method != .connect { return nil }
        return RequestHeadParser.RequestLine(method: method, target: target, version: version, absolute: absolute)
    }

    private static func describe(_ line: RequestHeadParser.RequestLine?) -> String {
        guard let line else { return "nil" }
        return "\(line.method.rawValue)|\(line.target)|\(String(describing: line.version))|\(line.absolute.map { "\($0.scheme) \($0.authority)" } ?? "-")"
    }

    @Test("checking the bytes first gives what splitting into arrays gave, for valid and broken lines")
    func agreesWithReference() {
        let methods = ["GET", "POST", "CONNECT", "OPTIONS", "G@T", "", "get", "M-SEARCH"]
        let targets = [
            "/", "*", "/a?b=1", "HTTP://Host.Example/x?y", "https://h:8443", "hTtPs://h?q", "http:/x", "host:443", "", "/é", "/a b",
            "http://", "https://[::1]:80/p", "?x", "**", "/\u{7F}",
        ]
        let versions = ["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.x", "http/1.1", "HTTP/1.10", "HTTP/11", "", "HTTP/1.1 "]
        var lines: [String] = []
        for method in methods { for target in targets { for version in versions { lines.append(method + " " + target + " " + version) } } }
        lines += ["GET  / HTTP/1.1", "GET / HTTP/1.1 x", "GET /", " GET / HTTP/1.1", "GET / HTTP/1.1 ", "", " ", "  "]
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("GET /HTP1.0:sx* ?é".utf8)
        for _ in 0..<5_000 {
            lines.append(String(decoding: (0..<Int.random(in: 0...20, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self))
        }
        for line in lines {
            let bytes = Array(line.utf8)[...]
            #expect(Self.describe(RequestHeadParser.parseRequestLine(bytes)) == Self.describe(Self.reference(bytes)), "\(line.debugDescription)")
        }
    }

    @Test("a request's path and query split at the first ?, by bytes or by characters alike")
    func pathAndQuery() {
        for target in ["/a?b=1?c", "/a", "/?", "?x", "/é?ü=1", "/a?\u{301}b", "/a\u{301}?b"] {
            let request = Request(method: .get, target: target)
            let question = target.firstIndex(of: "?")
            #expect(request.path == (question.map { String(target[..<$0]) } ?? target), "\(target.debugDescription)")
            #expect(request.query == (question.map { String(target[target.index(after: $0)...]) } ?? ""), "\(target.debugDescription)")
        }
    }
}
