import EmulatorCore
import Foundation

/// Bodies exactly as WarpLink puts them on the wire: snake_case, string ids, explicit `null`s.
/// Built as `JSONValue` because Codable synthesis drops nil members, and the SDKs need them.
public enum WarpLinkWire {
    /// `{"valid": …, "domains": […]}` of `/sdk/validate`.
    public static func validate(valid: Bool, domains: [String]) -> JSONValue {
        ["valid": .bool(valid), "domains": .array(domains.map(JSONValue.string))]
    }

    /// The Link object of `/links/resolve` ([W-L4]).
    public static func link(_ link: LinkRecord, reshaped: ReshapedLink) -> JSONValue {
        [
            "id": .string(link.id),
            "slug": .string(link.slug),
            "domain": .string(link.domain),
            "short_url": .string(link.shortURL),
            "destination_url": .string(reshaped.destinationURL),
            "ios_url": optional(reshaped.iosURL),
            "ios_fallback_url": optional(reshaped.iosFallbackURL),
            "android_url": optional(reshaped.androidURL),
            "android_fallback_url": optional(reshaped.androidFallbackURL),
            "custom_params": reshaped.customParams.json,
            "app_id": optional(link.appID),
            "expires_at": optional(link.expiresAt.map { WarpLinkTime.format($0) }),
            "is_active": .bool(link.isActive),
            "tags": .array(link.tags.map(JSONValue.string)),
            "created_at": .string(WarpLinkTime.format(link.createdAt)),
            "updated_at": .string(WarpLinkTime.format(link.updatedAt)),
        ]
    }

    /// The `/attribution/match` answer.
    public static func attribution(_ result: AttributionResult, style: String) -> JSONValue {
        guard result.matched else {
            if style == "minimal" { return ["matched": false] }
            return ["matched": false, "match_type": nil, "match_confidence": nil, "match_guaranteed": nil, "link_id": nil,
                    "deep_link_url": nil, "destination_url": nil, "custom_params": nil, "install_id": nil, "app_id": nil]
        }
        return [
            "matched": true,
            "match_type": optional(result.matchType),
            "match_confidence": result.confidence.map(JSONValue.double) ?? .null,
            "match_guaranteed": .bool(result.guaranteed),
            "link_id": optional(result.linkID),
            "deep_link_url": optional(result.deepLinkURL),
            "destination_url": optional(result.destinationURL),
            "custom_params": result.customParams ?? [:],
            "install_id": .string(result.installID),
            "app_id": optional(result.appID),
        ]
    }

    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
}

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
        AttributionResult(matched: false, outcome: outcome, matchType: nil, confidence: nil, guaranteed: false, linkID: nil, deepLinkURL: nil,
                          destinationURL: nil, customParams: nil, installID: installID, appID: nil, installAppID: appID, installLinkID: nil,
                          claimedClickID: nil)
    }
}
