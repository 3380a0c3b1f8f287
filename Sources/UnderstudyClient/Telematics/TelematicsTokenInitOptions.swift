import Foundation

/// What `TelematicsTokenInitOptions` takes: base URL, access token and optional refresh token, with ISO 8601 expiries.
public struct TelematicsTokenInitOptions: Sendable, Codable, Equatable {
    /// Base URL of the platform, e.g. `http://127.0.0.1:8080/telematics`.
    public var baseURL: String
    /// The access token, `tma_<tenantKey>_<secret>`, sent as `Authorization: Bearer`.
    public var token: String
    /// Access-token expiry (ISO 8601).
    public var tokenExpires: String?
    /// Refresh token; its presence enables automatic renewal.
    public var refreshToken: String?
    /// Refresh-token expiry (ISO 8601).
    public var refreshTokenExpires: String?

    /// Options as the host app would build them for the SDK.
    public init(baseURL: String, token: String, tokenExpires: String? = nil, refreshToken: String? = nil, refreshTokenExpires: String? = nil) {
        self.baseURL = baseURL
        self.token = token
        self.tokenExpires = tokenExpires
        self.refreshToken = refreshToken
        self.refreshTokenExpires = refreshTokenExpires
    }
}
