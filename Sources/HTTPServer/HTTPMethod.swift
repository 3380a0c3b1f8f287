/// An HTTP request method; any token is accepted, the common ones have names.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as sent (methods are case-sensitive).
    public let rawValue: String

    /// Wraps a method token.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a method token.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public static let get = HTTPMethod("GET")
    public static let head = HTTPMethod("HEAD")
    public static let post = HTTPMethod("POST")
    public static let put = HTTPMethod("PUT")
    public static let patch = HTTPMethod("PATCH")
    public static let delete = HTTPMethod("DELETE")
    public static let options = HTTPMethod("OPTIONS")

    /// The token, for logs and `Allow` headers.
    public var description: String { rawValue }
}
