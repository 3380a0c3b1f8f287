import Foundation

/// What a WarpLink SDK call got back: the status, the decoded value on success, the error otherwise.
public struct WarpLinkResponse<Value: Decodable & Sendable>: Sendable {
    /// The HTTP status of the answer.
    public var status: Int
    /// The decoded 200 body.
    public var value: Value?
    /// The error body of a non-200 answer.
    public var error: WarpLinkAPIError?
    /// The raw response (headers, body).
    public var raw: ClientResponse

    /// The value, or a thrown `unexpectedStatus` carrying the body.
    public func get() throws(UnderstudyClientError) -> Value {
        guard let value else { throw .unexpectedStatus(status, body: raw.text) }
        return value
    }
}
