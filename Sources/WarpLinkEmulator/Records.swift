import EmulatorCore
import Foundation

/// An app of the org (project): its handle gives it `<handle>.aplnk.to`.
public struct AppRecord: Sendable, Equatable {
    /// UUID.
    public var id: String
    /// Display name.
    public var name: String
    /// Handle, unique server-wide.
    public var handle: String
    /// iOS bundle identifier.
    public var iosBundleID: String?
    /// Android application id.
    public var androidPackageName: String?
    /// Creation time.
    public var createdAt: Date

    /// `<handle>.aplnk.to`.
    public var handleDomain: String { handle + "." + WarpLinkNames.sharedDomain }
}

/// An SDK or API key.
public struct KeyRecord: Sendable, Equatable {
    /// The owning project.
    public var projectID: ProjectID
    /// The key itself (`wl_test_…`).
    public var value: String
    /// `sdk` or `api`.
    public var kind: String
    /// Scopes; SDK keys always hold `links:read` and `attribution:write`.
    public var scopes: [String]
    /// The app an SDK key is bound to, if any.
    public var appID: String?
    /// `active` or `revoked`.
    public var state: String
    /// A label.
    public var name: String?
    /// Creation time.
    public var createdAt: Date
    /// When it was revoked.
    public var revokedAt: Date?

    /// The fixed scopes of an SDK key.
    public static let sdkScopes = ["links:read", "attribution:write"]
    /// Scopes an API key may hold.
    public static let apiScopes: Set<String> = ["links:read", "links:write", "apps:read", "apps:write", "apps:*", "analytics:read",
                                                "keys:read", "keys:write", "keys:*", "domains:read", "domains:write", "domains:*",
                                                "org:read", "attribution:write"]

    /// Whether the key may read links.
    public var canReadLinks: Bool { kind == "sdk" || scopes.contains("links:read") }
}

/// A custom link domain.
public struct DomainRecord: Sendable, Equatable {
    /// Lower-case host name.
    public var hostname: String
    /// `verified` or `suspended`.
    public var state: String
    /// The app it serves, if any.
    public var appID: String?
    /// Creation time.
    public var createdAt: Date
}

/// A short link as stored.
public struct LinkRecord: Sendable, Equatable {
    /// UUID.
    public var id: String
    /// The owning app, or nil for an org-wide link.
    public var appID: String?
    /// The slug (case-sensitive).
    public var slug: String
    /// Lower-case domain (`aplnk.to`, `<handle>.aplnk.to` or a custom domain).
    public var domain: String
    /// Web destination.
    public var destinationURL: String
    /// iOS deep link.
    public var iosURL: String?
    /// iOS fallback.
    public var iosFallbackURL: String?
    /// Android deep link.
    public var androidURL: String?
    /// Android fallback.
    public var androidFallbackURL: String?
    /// Stored custom parameters (a JSON object of scalars).
    public var customParams: JSONValue
    /// Tags.
    public var tags: [String]
    /// Password, when protected.
    public var password: String?
    /// Expiry.
    public var expiresAt: Date?
    /// Active flag.
    public var isActive: Bool
    /// Per-link match window in hours (nil = default).
    public var matchWindowHours: Int?
    /// Creation time.
    public var createdAt: Date
    /// Last change.
    public var updatedAt: Date

    /// `https://{domain}/{slug}`.
    public var shortURL: String { "https://\(domain)/\(slug)" }
}

/// A recorded or seeded click.
public struct ClickRecord: Sendable, Equatable {
    /// Click id (the tap id for resolve clicks).
    public var id: String
    /// The link clicked.
    public var linkID: String
    /// The link's app at click time.
    public var appID: String?
    /// `redirect`, `resolve` or `seed`.
    public var source: String
    /// Client IP.
    public var ip: String?
    /// Raw `Accept-Language`.
    public var acceptLanguage: String?
    /// Normalised language.
    public var language: String?
    /// IANA zone.
    public var timezone: String?
    /// JS-sign offset in minutes.
    public var timezoneOffset: Int?
    /// IDFV carried by a seeded click.
    public var deviceID: String?
    /// Opaque pre-computed fingerprint carried by a seeded click.
    public var fingerprint: String?
    /// User-Agent (log only).
    public var userAgent: String?
    /// `X-WarpLink-Tap-Id` of a resolve.
    public var tapID: String?
    /// Reshaped destination at click time.
    public var destinationURL: String?
    /// Reshaped iOS URL.
    public var iosURL: String?
    /// Reshaped Android URL.
    public var androidURL: String?
    /// Merged parameters at click time.
    public var customParams: JSONValue
    /// When.
    public var clickedAt: Date
    /// The install that claimed it.
    public var claimedBy: String?
    /// When it was claimed.
    public var claimedAt: Date?

    /// The deferred-match keys of [W-M1].
    public func bucketKeys() -> [String] {
        guard source != "resolve", let ip, let language else { return [] }
        var keys: [String] = []
        if let timezone { keys.append(BucketKey.zone(ip: ip, language: language, zone: timezone)) }
        if let timezoneOffset { keys.append(BucketKey.offset(ip: ip, language: language, minutes: timezoneOffset)) }
        keys.append(BucketKey.basic(ip: ip, language: language))
        return keys
    }
}

/// Bucket key spelling, shared by clicks and lookups.
public enum BucketKey {
    /// `tz:ip|lang|zone`.
    public static func zone(ip: String, language: String, zone: String) -> String { "tz:\(ip)|\(language)|\(zone)" }
    /// `offset:ip|lang|minutes`.
    public static func offset(ip: String, language: String, minutes: Int) -> String { "offset:\(ip)|\(language)|\(minutes)" }
    /// `basic:ip|lang`.
    public static func basic(ip: String, language: String) -> String { "basic:\(ip)|\(language)" }
}

/// An install record ([W-A5]).
public struct InstallRecord: Sendable, Equatable {
    /// `install_id`.
    public var id: String
    /// The app it was attributed for.
    public var appID: String?
    /// `ios` or `android`.
    public var platform: String?
    /// SDK version.
    public var sdkVersion: String?
    /// IDFV.
    public var deviceID: String?
    /// true/false/nil (unknown).
    public var isReinstall: Bool?
    /// `referrer`, `device_id`, `fingerprint`, `signals`, `no_match` or `ambiguous_app`.
    public var outcome: String
    /// Whether the answer said `matched:true`.
    public var matched: Bool
    /// `deterministic` / `probabilistic`.
    public var matchType: String?
    /// Confidence.
    public var matchConfidence: Double?
    /// Attributed link (kept even when the link is later deleted).
    public var linkID: String?
    /// Claimed click.
    public var clickID: String?
    /// Tap id of the request (log only).
    public var tapID: String?
    /// Client IP.
    public var ip: String?
    /// `sdk` or `seed`.
    public var source: String
    /// When.
    public var createdAt: Date
}
