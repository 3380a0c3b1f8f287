import EmulatorCore
import Foundation

/// What the attribution cascade decided, before it is put on the wire.
public struct AttributionResult: Sendable, Equatable {
    /// `matched`.
    public var matched: Bool
    /// `referrer`, `device_id`, `fingerprint`, `signals`, `no_match` or `ambiguous_app` (install outcome).
    public var outcome: String
    /// `deterministic` / `probabilistic`.
    public var matchType: String?
    /// Confidence.
    public var confidence: Double?
    /// Deterministic only.
    public var guaranteed: Bool
    /// Link id on the wire (nil for a routeless match).
    public var linkID: String?
    /// Platform deep link.
    public var deepLinkURL: String?
    /// Destination.
    public var destinationURL: String?
    /// Parameters.
    public var customParams: JSONValue?
    /// The new install's id.
    public var installID: String
    /// App id on the wire.
    public var appID: String?
    /// The app the install counts for.
    public var installAppID: String?
    /// The link the install is attributed to (kept for routeless chains even when the link is gone).
    public var installLinkID: String?
    /// The click claimed, if any.
    public var claimedClickID: String?

    /// A no-match with `outcome`.
    public static func noMatch(_ outcome: String, installID: String, appID: String?) -> AttributionResult {
        AttributionResult(
            matched: false, outcome: outcome, matchType: nil, confidence: nil, guaranteed: false, linkID: nil, deepLinkURL: nil,
            destinationURL: nil, customParams: nil, installID: installID, appID: nil, installAppID: appID, installLinkID: nil,
            claimedClickID: nil)
    }
}
