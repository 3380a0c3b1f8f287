import Foundation

/// A fully received HTTP request: head, decoded body and where it came from.
public struct Request: Sendable {
    /// The method token.
    public var method: HTTPMethod
    /// The request target as sent (origin form, e.g. `/a/b?x=1`).
    public var target: String
    /// The path part of the target, still percent-encoded (the router decodes segments itself).
    public var path: String
    /// The raw query string without `?`, or empty.
    public var query: String
    /// `1.0` or `1.1`, as (major, minor).
    public var version: HTTPVersion
    /// Header fields in wire order.
    public var headers: HTTPHeaders
    /// Chunked-encoding trailer fields, if any.
    public var trailers: HTTPHeaders
    /// The body after transfer and content decoding (gzip/deflate inflated).
    public var body: Data
    /// The body's size on the wire before content decoding.
    public var wireBodySize: Int
    /// The body as it arrived when it was gzip-coded (`Content-Encoding: gzip` or `x-gzip`), a
    /// stream that inflates to `body`; nil otherwise. For handlers that store what was sent.
    public var gzipStream: Data? = nil
    /// The peer's address as text (IPv4 dotted or IPv6), or empty when unknown.
    public var remoteAddress: String
    /// When the first byte of the request arrived (monotonic seconds, for durations).
    public var receivedAt: UInt64
    /// The scheme (`http` or `https`, lower-cased) when the request line carried an absolute-form
    /// target, as clients send to a proxy; nil for origin form. `Host` then holds the URL's authority.
    public var absoluteFormScheme: String?
    /// How the connection this request arrived on was reached (listener, TLS, proxy tunnel).
    public var connection = ConnectionInfo.plain

    /// Creates a request; used by the parser and by in-process tests.
    public init(
        method: HTTPMethod, target: String, version: HTTPVersion = .http11,
        headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(), remoteAddress: String = ""
    ) {
        self.init(
            method: method, target: target, version: version, headers: headers, body: body,
            remoteAddress: remoteAddress, receivedAt: MonotonicClock.nanoseconds())
    }

    /// Creates a request that arrived at `receivedAt`; the parser passes its own time so it reads no clock.
    init(
        method: HTTPMethod, target: String, version: HTTPVersion, headers: HTTPHeaders, body: Data,
        remoteAddress: String, receivedAt: UInt64
    ) {
        self.method = method
        self.target = target
        // By bytes when the target is ASCII (every target the parser accepts), else by Character.
        let ascii = target.utf8.allSatisfy { $0 < 0x80 }
        if let question = ascii ? target.utf8.firstIndex(of: UInt8(ascii: "?")) : target.firstIndex(of: "?") {
            path = String(target[..<question])
            query = String(target[target.index(after: question)...])
        } else {
            path = target
            query = ""
        }
        self.version = version
        self.headers = headers
        self.trailers = HTTPHeaders()
        self.body = body
        self.wireBodySize = body.count
        self.remoteAddress = remoteAddress
        self.receivedAt = receivedAt
    }

    /// The query decoded into ordered name/value pairs (`+` is a space, as in forms).
    public var queryItems: [(name: String, value: String)] { URLQuery.parse(query) }

    /// The first value of query parameter `name`, decoded.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The `Host` header without its port, lower-cased.
    public var hostName: String? {
        guard let host = headers["host"], !host.isEmpty else { return nil }
        if host.hasPrefix("[") { // IPv6 literal
            return host.split(separator: "]").first.map { String($0.dropFirst()).lowercased() }
        }
        // Every request asks (platform resolution, the dashboard, link hosts): no split, no
        // lower-casing when the name is lower case already.
        let utf8 = host.utf8
        let end = utf8.firstIndex(of: UInt8(ascii: ":")) ?? utf8.endIndex
        guard end != utf8.startIndex else { return nil }
        let name = end == utf8.endIndex ? host : String(host[..<end])
        return HTTPHeaders.lowercasedName(name)
    }

    /// Whether the client asked to keep the connection open after this request.
    public var wantsKeepAlive: Bool {
        switch version {
        case .http11: return !headers.containsToken("close", in: "connection")
        default: return headers.containsToken("keep-alive", in: "connection")
        }
    }
}

/// The HTTP version of a request.
public enum HTTPVersion: Sendable, Equatable {
    /// HTTP/1.0: connections close after each request unless it asks for keep-alive.
    case http10
    /// HTTP/1.1: connections stay open unless the request says `Connection: close`.
    case http11

    /// The version as it appears on a status line.
    public var text: String { self == .http10 ? "HTTP/1.0" : "HTTP/1.1" }
}
