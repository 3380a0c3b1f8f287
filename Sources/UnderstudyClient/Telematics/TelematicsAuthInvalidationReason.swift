import Foundation

/// `TelematicsAuthInvalidationReason`, with the SDK's Objective-C values.
public enum TelematicsAuthInvalidationReason: Int, Sendable, Codable, Equatable {
    /// Renewal failed because the refresh token's lifetime is over (401 `REFRESH_TOKEN_EXPIRED`); the session ends.
    case refreshTokenExpired = 0
    /// Renewal failed because the refresh token was revoked or reused after rotation (401 `REFRESH_TOKEN_REJECTED`); the session ends.
    case refreshTokenRejected = 1
    /// The user's account is `INACTIVE` (403 `ACCOUNT_INACTIVE`); the session stays but is denied.
    case accountInactive = 2
    /// The user is `DENIED`, a feature is switched off, or the service code is refused (403 `ACCESS_DENIED`); the session stays.
    case accessDenied = 3
    /// The access token was refused and no refresh token can renew it (401 `ACCESS_TOKEN_REJECTED`); the session ends.
    case accessTokenRejected = 4

    /// True when the SDK destroys the session for this reason.
    public var invalidatesSession: Bool {
        switch self {
        case .refreshTokenExpired, .refreshTokenRejected, .accessTokenRejected: return true
        case .accountInactive, .accessDenied: return false
        }
    }
}
