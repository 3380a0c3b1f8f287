import Foundation

/// Access and refresh tokens (3.3 appId/appSecret).
public struct AsleepTokens: Sendable, Codable, Equatable {
    /// Sent as `Authorization: Bearer`.
    public var accessToken: String
    /// Exchanged at `/customer/v1/app/refresh`.
    public var refreshToken: String
    /// Access-token lifetime in seconds.
    public var expiresIn: Int
}
