import Testing

@testable import HTTPServer

@Suite("Query strings")
struct URLQueryTests {
    /// The query parse as it was before it split by bytes: by `Character` throughout.
    private static func parseByCharacter(_ query: String) -> [(name: String, value: String)] {
        guard !query.isEmpty else { return [] }
        var items: [(String, String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = part.firstIndex(of: "=") {
                let name = URLQuery.percentDecode(part[..<equals], plusAsSpace: true) ?? String(part[..<equals])
                let value = URLQuery.percentDecode(part[part.index(after: equals)...], plusAsSpace: true) ?? String(part[part.index(after: equals)...])
                items.append((name, value))
            } else {
                items.append((URLQuery.percentDecode(part, plusAsSpace: true) ?? String(part), ""))
            }
        }
        return items
    }

    /// Random queries from pieces that stress the separators: empty pairs, repeated `=`, escapes
    /// (valid and not), `+`, and non-ASCII text with combining marks right after `&` and `=`.
    static func corpus(count: Int) -> [String] {
        let pieces = ["a", "b=1", "", "=", "==", "x=%41", "y=%4", "%zz", "a+b=c+d", "é=ü", "&", "\u{301}", "=\u{301}", "k=v\u{301}", "🇩🇪=1", "p=a%26b"]
        var generator = SystemRandomNumberGenerator()
        var queries = ["", "&", "&&", "=", "a", "a=", "=a", "a&b", "a=1&&b=2&", "&\u{301}a=1", "a=\u{301}", "é&ü"]
        for _ in 0..<count {
            let parts = (0..<Int.random(in: 1...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            queries.append(parts.joined(separator: Bool.random(using: &generator) ? "&" : ""))
        }
        return queries
    }

    @Test("parsing by bytes gives what parsing by characters gives, ASCII or not")
    func bytesAgreeWithCharacters() {
        for query in Self.corpus(count: 3_000) {
            let fast = URLQuery.parse(query), reference = Self.parseByCharacter(query)
            #expect(fast.map { [$0.name, $0.value] } == reference.map { [$0.name, $0.value] }, "\(query.debugDescription)")
        }
    }

    @Test("an ASCII split leaves out empty pieces; a non-ASCII text is left to the caller")
    func splitASCII() {
        #expect(URLQuery.splitASCII("&a&&b=1&", on: UInt8(ascii: "&"))?.map(String.init) == ["a", "b=1"])
        #expect(URLQuery.splitASCII("", on: UInt8(ascii: "&"))?.isEmpty == true)
        #expect(URLQuery.splitASCII("a&é", on: UInt8(ascii: "&")) == nil)
    }
}
