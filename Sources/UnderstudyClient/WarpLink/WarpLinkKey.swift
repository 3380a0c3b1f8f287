import Foundation

/// An SDK or API key.
public struct WarpLinkKey: Sendable, Equatable, Codable {
    /// The key itself, `wl_live_…` or `wl_test_…` plus 32 letters or digits.
    public var value: String
    /// `sdk` (validate, resolve and attribution) or `api` (limited to its scopes; refused on attribution).
    public var kind: String
    /// What the key may do, e.g. `links:read` (needed to resolve); SDK keys always hold `links:read` and `attribution:write`.
    public var scopes: [String]
    /// The app an app-bound SDK key acts as; nil for an org-wide key.
    public var appID: String?
    /// `active` or `revoked` (a revoked key gets 401 everywhere).
    public var state: String
    /// A label for people; the SDKs never see it.
    public var name: String?
    /// When the key was created (`…T…:….mmmZ`).
    public var createdAt: String
    /// When the key was revoked; nil while active.
    public var revokedAt: String?

    enum CodingKeys: String, CodingKey {
        case value, kind, scopes, state, name
        case appID = "app_id", createdAt = "created_at", revokedAt = "revoked_at"
    }
}
