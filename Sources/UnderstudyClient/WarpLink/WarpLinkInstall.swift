import Foundation

/// What an attribution request stored: its outcome, the match and the click it claimed.
public struct WarpLinkInstall: Sendable, Equatable, Decodable {
    /// The install's id, as returned in `install_id`.
    public var installID: String
    /// The app the install was attributed for.
    public var appID: String?
    /// `ios` or `android`.
    public var platform: String?
    /// The SDK version of the request.
    public var sdkVersion: String?
    /// The IDFV of the request.
    public var deviceID: String?
    /// The `is_reinstall` the SDK sent; nil when it sent none.
    public var isReinstall: Bool?
    /// Which tier decided: `referrer`, `device_id`, `fingerprint`, `signals`, `no_match` or `ambiguous_app`.
    public var outcome: String
    /// Whether the answer said `matched: true`.
    public var matched: Bool
    /// `deterministic` or `probabilistic`; nil without a match.
    public var matchType: String?
    /// The confidence answered; nil without a match.
    public var matchConfidence: Double?
    /// The attributed link (kept after the link is deleted).
    public var linkID: String?
    /// The click the install claimed, for signals and fingerprint matches.
    public var clickID: String?
    /// The tap id of the request, if it had one.
    public var tapID: String?
    /// The client IP the request was matched with.
    public var ip: String?
    /// `sdk` for a real attribution request, `seed` for a seeded install.
    public var source: String
    /// When the install was recorded (`…T…:….mmmZ`).
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case platform, outcome, matched, ip, source
        case installID = "install_id", appID = "app_id", sdkVersion = "sdk_version", deviceID = "device_id", isReinstall = "is_reinstall"
        case matchType = "match_type", matchConfidence = "match_confidence", linkID = "link_id", clickID = "click_id", tapID = "tap_id"
        case createdAt = "created_at"
    }
}
