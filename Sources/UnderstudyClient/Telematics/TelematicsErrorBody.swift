import Foundation

/// The platform's error body `{code, message, status, traceId}`.
public struct TelematicsErrorBody: Sendable, Codable, Equatable {
    /// UPPER_SNAKE code, e.g. `ACCESS_TOKEN_REJECTED`.
    public var code: String
    /// A sentence for people.
    public var message: String
    /// The HTTP status, repeated in the body.
    public var status: Int
    /// The journal id of the request, also sent as `X-Understudy-Trace`.
    public var traceId: String
}
