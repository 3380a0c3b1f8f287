import Foundation

/// A token pair as minted by the control plane or returned by refresh.
public struct TelematicsTokenPair: Sendable, Codable, Equatable {
    /// The access token, `tma_<tenantKey>_<secret>`.
    public var token: String
    /// Access-token expiry (ISO 8601, six fraction digits).
    public var tokenExpires: String
    /// Refresh token, or nil when minted without one.
    public var refreshToken: String?
    /// Refresh-token expiry (ISO 8601, six fraction digits).
    public var refreshTokenExpires: String?

    /// The init options for this pair at `baseURL`.
    public func options(baseURL: String) -> TelematicsTokenInitOptions {
        TelematicsTokenInitOptions(baseURL: baseURL, token: token, tokenExpires: tokenExpires, refreshToken: refreshToken, refreshTokenExpires: refreshTokenExpires)
    }
}
