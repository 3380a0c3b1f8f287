import Foundation

/// An HTTP response, plus how the connection should deliver it (faults need more than a status).
public struct Response: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields; `Content-Length`, `Date` and `Connection` are added by the serializer.
    public var headers: HTTPHeaders
    /// The body bytes (omitted on the wire for HEAD, 1xx, 204 and 304).
    public var body: Data
    /// How the bytes reach the client; `.normal` unless a fault says otherwise.
    public var delivery: Delivery

    /// How a response is delivered at the socket level.
    public enum Delivery: Sendable, Equatable {
        /// Write the whole response.
        case normal
        /// Send nothing and reset the connection (TCP RST).
        case reset
        /// Write the head only (with the full `Content-Length`), then close.
        case closeAfterHeaders
        /// Write the head and only the first `bytes` bytes of the body, then close.
        case truncateBody(bytes: Int)
        /// Write nothing and hold the connection until the client leaves or `seconds` pass, then close.
        case hang(seconds: Double)
        /// The proxy's answer to a `CONNECT` (or a forwarded request): write the head unless the
        /// plan relays the upstream's own, then stop speaking HTTP and carry out the plan.
        case tunnel(TunnelPlan)
    }

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(), delivery: Delivery = .normal) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delivery = delivery
    }

    /// A JSON response from already-encoded bytes.
    public static func json(status: Int = 200, bytes: Data, headers: HTTPHeaders = HTTPHeaders()) -> Response {
        var all = headers
        if !all.contains("content-type") { all.add("Content-Type", "application/json") }
        return Response(status: status, headers: all, body: bytes)
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data(text.utf8))
    }

    /// An empty response with only a status.
    public static func empty(_ status: Int) -> Response { Response(status: status) }
}
