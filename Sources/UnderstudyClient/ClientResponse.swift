import Foundation

/// A response as the client received it.
public struct ClientResponse: Sendable {
    /// The HTTP status.
    public let status: Int
    /// Headers, names lower-cased.
    public let headers: [String: String]
    /// The body as received (decompressed by URLSession when it was gzip).
    public let body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as `T`.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(UnderstudyClientError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw .decoding(type: String(describing: T.self), status: status, body: text, reason: String(describing: error))
        }
    }

    /// The body as loosely typed JSON.
    public func json() throws(UnderstudyClientError) -> AnyJSON { try decode(AnyJSON.self) }

    /// The body decoded as `T` if the status is `expected`, else an `unexpectedStatus` error.
    public func expect<T: Decodable>(_ expected: Int, as type: T.Type = T.self) throws(UnderstudyClientError) -> T {
        guard status == expected else { throw .unexpectedStatus(status, body: text) }
        return try decode(T.self)
    }

    /// Throws `unexpectedStatus` unless the status is `expected`.
    public func expect(_ expected: Int) throws(UnderstudyClientError) {
        guard status == expected else { throw .unexpectedStatus(status, body: text) }
    }
}
