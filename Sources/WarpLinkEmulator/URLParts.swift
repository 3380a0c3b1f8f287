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
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        base = String(rest)
    }

    /// The URL text; special schemes get a lower-cased scheme and host and a `/` path when empty.
    public var serialized: String {
        var head = base
        if let colon = head.range(of: "://") {
            let scheme = head[..<colon.lowerBound].lowercased()
            if Self.specialSchemes.contains(scheme) {
                let afterScheme = head[colon.upperBound...]
                let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
                let host = afterScheme[..<hostEnd].lowercased()
                let path = afterScheme[hostEnd...]
                head = scheme + "://" + host + (path.isEmpty ? "/" : String(path))
            }
        }
        return head + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
    }
}
