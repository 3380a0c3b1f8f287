import Foundation

/// A request as the client sends it.
public struct ClientRequest: Sendable {
    /// Method, e.g. `GET`.
    public var method: String
    /// Path below the base URL, starting with `/`.
    public var path: String
    /// Query items, in order (encoded by the client).
    public var query: [(String, String)]
    /// Headers.
    public var headers: [String: String]
    /// The body to send, as is (set `Content-Type` in `headers`).
    public var body: Data?
    /// Whether redirects are followed (default no, so a 302 is visible).
    public var followRedirects: Bool
    /// Per-request timeout in seconds, overriding the client's.
    public var timeout: TimeInterval?

    /// Creates a request.
    public init(
        method: String, path: String, query: [(String, String)] = [], headers: [String: String] = [:], body: Data? = nil,
        followRedirects: Bool = false, timeout: TimeInterval? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.followRedirects = followRedirects
        self.timeout = timeout
    }

    /// A request with a JSON body encoded from `value`.
    public static func json<T: Encodable>(_ method: String, _ path: String, _ value: T, headers: [String: String] = [:]) throws(UnderstudyClientError) -> ClientRequest {
        var all = headers
        all["Content-Type"] = "application/json"
        do {
            return ClientRequest(method: method, path: path, headers: all, body: try JSONEncoder().encode(value))
        } catch {
            throw .encoding(String(describing: error))
        }
    }
}
