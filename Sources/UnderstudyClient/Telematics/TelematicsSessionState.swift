import Foundation

/// What the session knows without a request, as `getSessionState()` returns it.
public struct TelematicsSessionState: Sendable, Equatable {
    /// Whether the credentials are verified, unverified, denied or gone.
    public var status: TelematicsSessionStatus
    /// Why it is `.invalid` or `.denied`.
    public var invalidationReason: TelematicsAuthInvalidationReason?
    /// Whether a refresh token is held.
    public var isAutoRenewing: Bool
    /// Refresh-token expiry when auto-renewing, else access-token expiry.
    public var recoverableUntil: String?
    /// When the server last accepted the access token (device clock, ISO 8601).
    public var lastVerifiedAt: String?
}
