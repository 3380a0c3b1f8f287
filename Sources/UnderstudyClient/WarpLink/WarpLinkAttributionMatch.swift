import Foundation

/// The `/attribution/match` answer.
public struct WarpLinkAttributionMatch: Sendable, Equatable, Decodable {
    /// Whether the install was attributed to a link.
    public var matched: Bool
    /// `deterministic` (referrer, device id, fingerprint) or `probabilistic` (IP and language signals).
    public var matchType: String?
    /// How sure the match is, from 0 to 1: 1.0 when deterministic, scored by click age and signals otherwise.
    public var matchConfidence: Double?
    /// True only for deterministic matches on a link.
    public var matchGuaranteed: Bool?
    /// The attributed link; nil for a routeless match whose link was deleted.
    public var linkID: String?
    /// The platform URL (`ios_url` or `android_url`) the SDK opens in the app, when the link has one.
    public var deepLinkURL: String?
    /// The link's destination with the click's parameters as its query.
    public var destinationURL: String?
    /// The parameters merged at click time, as the SDK hands them to the app.
    public var customParams: [String: AnyJSON]?
    /// The install record this answer stored (see `WarpLinkProjectAdmin.installs`).
    public var installID: String?
    /// The app the install was attributed for.
    public var appID: String?

    enum CodingKeys: String, CodingKey {
        case matched
        case matchType = "match_type", matchConfidence = "match_confidence", matchGuaranteed = "match_guaranteed", linkID = "link_id"
        case deepLinkURL = "deep_link_url", destinationURL = "destination_url", customParams = "custom_params", installID = "install_id", appID = "app_id"
    }
}
