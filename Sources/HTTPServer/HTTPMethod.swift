/// An HTTP request method; any token is accepted, the common ones have names.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method token exactly as sent (methods are case-sensitive).
    public let rawValue: String

    /// Wraps a method token.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Wraps a method token.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `GET`: fetch a resource.
    public static let get = HTTPMethod("GET")
    /// `HEAD`: like GET, with the headers only and no body.
    public static let head = HTTPMethod("HEAD")
    /// `POST`: submit data to a resource.
    public static let post = HTTPMethod("POST")
    /// `PUT`: replace a resource with the body.
    public static let put = HTTPMethod("PUT")
    /// `PATCH`: change part of a resource.
    public static let patch = HTTPMethod("PATCH")
    /// `DELETE`: remove a resource.
    public static let delete = HTTPMethod("DELETE")
    /// `OPTIONS`: ask which methods a resource allows (also the only method for target `*`).
    public static let options = HTTPMethod("OPTIONS")
    /// `CONNECT`: ask a proxy for a tunnel to `host:port` (the only method with an authority-form target).
    public static let connect = HTTPMethod("CONNECT")

    /// The token, for logs and `Allow` headers.
    public var description: String { rawValue }
}
