import Foundation
import HTTPServer
import Testing

@testable import WarpLinkEmulator

@Suite("WarpLink URL pieces by bytes")
struct URLReshapingTests {
    /// `URLParts` as it was before it searched by bytes (Character search, Foundation's `range(of:)`).
    private static func partsByCharacter(_ url: String) -> (base: String, query: String?, fragment: String?, serialized: String) {
        var rest = Substring(url)
        var fragment: String?, query: String?
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        var head = String(rest)
        if let colon = head.range(of: "://") {
            let scheme = head[..<colon.lowerBound].lowercased()
            if ["http", "https", "ws", "wss", "ftp"].contains(scheme) {
                let afterScheme = head[colon.upperBound...]
                let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
                head = scheme + "://" + afterScheme[..<hostEnd].lowercased() + (afterScheme[hostEnd...].isEmpty ? "/" : String(afterScheme[hostEnd...]))
            }
        }
        return (String(rest), query, fragment, head + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? ""))
    }

    private static func corpus(count: Int) -> [String] {
        let pieces = ["HTTPS://", "http://", "myapp://", "://", "Shop.Example", "/", "/p/a", "?", "#", "a=1", "&", "b=%41", "é", "\u{301}", ":", "//", "x"]
        var generator = SystemRandomNumberGenerator()
        var urls = [
            "", "https://demo-shop.example/welcome?utm=1#top", "HTTPS://EXAMPLE.COM", "https://x.example#\u{301}frag", "myapp://open?\u{301}a=1",
            "https://ex.example/é?q=ü#f", "://", "a://b", "https:/x",
        ]
        for _ in 0..<count {
            urls.append((0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        return urls
    }

    @Test("splitting and serialising a URL by bytes agrees with doing it by characters")
    func partsAgree() {
        for url in Self.corpus(count: 3_000) {
            let parts = URLParts(url), reference = Self.partsByCharacter(url)
            #expect(parts.base == reference.base && parts.query == reference.query && parts.fragment == reference.fragment, "\(url.debugDescription)")
            #expect(parts.serialized == reference.serialized, "\(url.debugDescription)")
        }
    }

    @Test("parsing a link query by bytes agrees with parsing it by characters")
    func queryAgrees() {
        func reference(_ query: String) -> [[String]]? {
            guard !query.isEmpty else { return [] }
            var items: [[String]] = []
            for part in query.split(separator: "&", omittingEmptySubsequences: true) {
                let equals = part.firstIndex(of: "=")
                let name = equals.map { part[..<$0] } ?? part, value = equals.map { part[part.index(after: $0)...] } ?? ""
                guard let n = URLQuery.percentDecode(name, plusAsSpace: true), let v = URLQuery.percentDecode(value, plusAsSpace: true) else { return nil }
                items.append([n, v])
            }
            return items
        }
        let pieces = ["a", "b=1", "", "=", "x=%41", "y=%4", "a+b=c", "é=ü", "&", "\u{301}", "=\u{301}", "k=v\u{301}", "p=a%26b"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            let query = (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: "&")
            #expect(LinkReshaper.parseQuery(query).map { $0.map { [$0.0, $0.1] } } == reference(query), "\(query.debugDescription)")
        }
    }
}
