import Foundation

/// A WarpLink error body `{"error":{"code","message","details"}}` with its status.
public struct WarpLinkAPIError: Error, Sendable, Equatable, Decodable {
    /// One entry of `details.fields`.
    public struct FieldProblem: Sendable, Equatable, Decodable {
        /// The body field at fault, e.g. `platform` or `device_id`.
        public var field: String
        /// What is wrong with it.
        public var message: String
    }

    /// The HTTP status the error came with.
    public var status: Int
    /// `error.code`, e.g. `PASSWORD_REQUIRED`.
    public var code: String
    /// `error.message`, a sentence for people.
    public var message: String
    /// `error.details.fields`.
    public var fields: [FieldProblem]

    private struct Envelope: Decodable {
        struct Body: Decodable {
            struct Details: Decodable { var fields: [FieldProblem]? }
            var code: String
            var message: String
            var details: Details?
        }
        var error: Body
    }

    /// Decodes the envelope of `response`; nil when the body is not one.
    static func from(_ response: ClientResponse) -> WarpLinkAPIError? {
        // Not WarpLink's envelope (an injected malformed body, a proxy page): nil, as documented.
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: response.body) else { return nil }
        return WarpLinkAPIError(
            status: response.status, code: envelope.error.code, message: envelope.error.message,
            fields: envelope.error.details?.fields ?? [])
    }

    init(status: Int, code: String, message: String, fields: [FieldProblem]) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
    }

    /// Decodes the inner error object (used by `Decodable` only for symmetry; prefer `from`).
    public init(from decoder: Decoder) throws {
        let envelope = try Envelope(from: decoder)
        self.init(status: 0, code: envelope.error.code, message: envelope.error.message, fields: envelope.error.details?.fields ?? [])
    }
}
