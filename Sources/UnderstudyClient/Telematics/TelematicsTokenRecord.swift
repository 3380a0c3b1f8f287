import Foundation

/// A token pair as the control plane inspects it.
public struct TelematicsTokenRecord: Sendable, Codable, Equatable {
    /// The pair's id in the refresh chain.
    public var id: String
    /// The user the pair authenticates.
    public var userId: Int
    /// The access token, `tma_<tenantKey>_<secret>`.
    public var token: String
    /// Access-token expiry (project clock, ISO 8601).
    public var tokenExpires: String
    /// The refresh token, `tmr_<tenantKey>_<secret>`; nil when minted without one.
    public var refreshToken: String?
    /// Refresh-token expiry (project clock, ISO 8601).
    public var refreshTokenExpires: String?
    /// `active`, `expired` or `revoked`.
    public var accessState: String
    /// `active`, `expired`, `revoked`, `rotated`, or nil without a refresh token.
    public var refreshState: String?
    /// The pair this one was rotated from.
    public var parentId: String?
    /// The pair a refresh rotated this one into.
    public var successorId: String?
}
