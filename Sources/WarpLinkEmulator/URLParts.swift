import Foundation

/// A URL split into base, query and fragment, enough to replace the query without a full parser.
public struct URLParts: Sendable, Equatable {
    /// Scheme through path.
    public var base: String
    /// The query without `?`, or nil when there is none.
    public var query: String?
    /// The fragment without `#`, or nil.
    public var fragment: String?

    private static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    /// Splits `url`.
    public init(_ url: String) {
        // ASCII URLs (the usual ones) are searched by bytes, others by Character: a combining
        // mark after `#` or `?` makes one grapheme with it, which is then no separator.
        let ascii = url.utf8.allSatisfy { $0 < 0x80 }
        var rest = Substring(url)
        if let hash = ascii ? rest.utf8.firstIndex(of: UInt8(ascii: "#")) : rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = ascii ? rest.utf8.firstIndex(of: UInt8(ascii: "?")) : rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        base = String(rest)
    }

    /// The URL text; special schemes get a lower-cased scheme and host and a `/` path when empty.
    public var serialized: String {
        var head = base
        // By bytes for ASCII text (Foundation's `range(of:)` bridged to NSString on every resolve).
        let ascii = head.utf8.allSatisfy { $0 < 0x80 }
        if let colon = ascii ? Self.asciiRange(of: "://", in: head) : head.range(of: "://") {
            let scheme = head[..<colon.lowerBound].lowercased()
            if Self.specialSchemes.contains(scheme) {
                let afterScheme = head[colon.upperBound...]
                let hostEnd = (ascii ? afterScheme.utf8.firstIndex(of: UInt8(ascii: "/")) : afterScheme.firstIndex(of: "/")) ?? afterScheme.endIndex
                let host = afterScheme[..<hostEnd].lowercased()
                let path = afterScheme[hostEnd...]
                head = scheme + "://" + host + (path.isEmpty ? "/" : String(path))
            }
        }
        return head + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
    }

    /// The first occurrence of ASCII `needle` in ASCII `text`, by bytes.
    static func asciiRange(of needle: StaticString, in text: String) -> Range<String.Index>? {
        let bytes = text.utf8, count = needle.utf8CodeUnitCount
        var start = bytes.startIndex
        while let end = bytes.index(start, offsetBy: count, limitedBy: bytes.endIndex) {
            if bytes[start..<end].elementsEqual(UnsafeBufferPointer(start: needle.utf8Start, count: count)) { return start..<end }
            start = bytes.index(after: start)
        }
        return nil
    }
}
