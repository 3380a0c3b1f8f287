import EmulatorCore
import Foundation
import Storage

/// A short link as stored.
public struct LinkRecord: Sendable, Equatable, RowDecodable {
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

    /// A link.
    public init(
        id: String, appID: String?, slug: String, domain: String, destinationURL: String, iosURL: String?, iosFallbackURL: String?,
        androidURL: String?, androidFallbackURL: String?, customParams: JSONValue, tags: [String], password: String?, expiresAt: Date?,
        isActive: Bool, matchWindowHours: Int?, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.appID = appID
        self.slug = slug
        self.domain = domain
        self.destinationURL = destinationURL
        self.iosURL = iosURL
        self.iosFallbackURL = iosFallbackURL
        self.androidURL = androidURL
        self.androidFallbackURL = androidFallbackURL
        self.customParams = customParams
        self.tags = tags
        self.password = password
        self.expiresAt = expiresAt
        self.isActive = isActive
        self.matchWindowHours = matchWindowHours
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Reads a `warplink_links` row (`custom_params` and `tags` are JSON text).
    public init(row: Row) throws {
        guard case .array(let tagValues) = try row.json("tags") else {
            throw RowDecodingError.wrongType(column: "tags", expected: "JSON array", found: "TEXT")
        }
        self.init(
            id: try row.decode("id"), appID: try row.decodeIfPresent("app_id"), slug: try row.decode("slug"), domain: try row.decode("domain"),
            destinationURL: try row.decode("destination_url"), iosURL: try row.decodeIfPresent("ios_url"),
            iosFallbackURL: try row.decodeIfPresent("ios_fallback_url"), androidURL: try row.decodeIfPresent("android_url"),
            androidFallbackURL: try row.decodeIfPresent("android_fallback_url"), customParams: try row.json("custom_params"),
            tags: tagValues.compactMap(\.stringValue), password: try row.decodeIfPresent("password"),
            expiresAt: try row.timestampIfPresent("expires_at"), isActive: try row.decode("is_active"),
            matchWindowHours: try row.decodeIfPresent("match_window_hours"), createdAt: try row.timestamp("created_at"),
            updatedAt: try row.timestamp("updated_at"))
    }

    /// `https://{domain}/{slug}`.
    public var shortURL: String { "https://\(domain)/\(slug)" }
}

/// Where a click came from.
public enum ClickSource: String, Sendable, Equatable, SQLColumnDecodable {
    /// A browser opened the short link (`/r/{slug}` or `/{slug}` on a link host).
    case redirect
    /// An SDK resolved a tapped link (analytics only; never matched).
    case resolve
    /// The control plane seeded it.
    case seed

}

/// A recorded or seeded click.
public struct ClickRecord: Sendable, Equatable, RowDecodable {
    /// Click id (the tap id for resolve clicks).
    public var id: String
    /// The link clicked.
    public var linkID: String
    /// The link's app at click time.
    public var appID: String?
    /// Redirect, resolve or seed.
    public var source: ClickSource
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

    /// A click.
    public init(
        id: String, linkID: String, appID: String?, source: ClickSource, ip: String?, acceptLanguage: String?, language: String?,
        timezone: String?, timezoneOffset: Int?, deviceID: String?, fingerprint: String?, userAgent: String?, tapID: String?,
        destinationURL: String?, iosURL: String?, androidURL: String?, customParams: JSONValue, clickedAt: Date, claimedBy: String?,
        claimedAt: Date?
    ) {
        self.id = id
        self.linkID = linkID
        self.appID = appID
        self.source = source
        self.ip = ip
        self.acceptLanguage = acceptLanguage
        self.language = language
        self.timezone = timezone
        self.timezoneOffset = timezoneOffset
        self.deviceID = deviceID
        self.fingerprint = fingerprint
        self.userAgent = userAgent
        self.tapID = tapID
        self.destinationURL = destinationURL
        self.iosURL = iosURL
        self.androidURL = androidURL
        self.customParams = customParams
        self.clickedAt = clickedAt
        self.claimedBy = claimedBy
        self.claimedAt = claimedAt
    }

    /// Reads a `warplink_clicks` row (times are REAL epoch seconds).
    public init(row: Row) throws {
        self.init(
            id: try row.decode("id"), linkID: try row.decode("link_id"), appID: try row.decodeIfPresent("app_id"), source: try row.decode("source"),
            ip: try row.decodeIfPresent("ip"), acceptLanguage: try row.decodeIfPresent("accept_language"),
            language: try row.decodeIfPresent("language"), timezone: try row.decodeIfPresent("timezone"),
            timezoneOffset: try row.decodeIfPresent("timezone_offset"), deviceID: try row.decodeIfPresent("device_id"),
            fingerprint: try row.decodeIfPresent("fingerprint"), userAgent: try row.decodeIfPresent("user_agent"),
            tapID: try row.decodeIfPresent("tap_id"), destinationURL: try row.decodeIfPresent("destination_url"),
            iosURL: try row.decodeIfPresent("ios_url"), androidURL: try row.decodeIfPresent("android_url"),
            customParams: try row.json("custom_params"), clickedAt: try row.epochSeconds("clicked_at"),
            claimedBy: try row.decodeIfPresent("claimed_by"),
            claimedAt: try row.decodeIfPresent("claimed_at", as: Double.self).map { Date(timeIntervalSince1970: $0) })
    }

    /// The deferred-match keys of [W-M1].
    public func bucketKeys() -> [String] {
        guard source != .resolve, let ip, let language else { return [] }
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
public struct InstallRecord: Sendable, Equatable, RowDecodable {
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

    /// An install.
    public init(
        id: String, appID: String?, platform: String?, sdkVersion: String?, deviceID: String?, isReinstall: Bool?, outcome: String,
        matched: Bool, matchType: String?, matchConfidence: Double?, linkID: String?, clickID: String?, tapID: String?, ip: String?,
        source: String, createdAt: Date
    ) {
        self.id = id
        self.appID = appID
        self.platform = platform
        self.sdkVersion = sdkVersion
        self.deviceID = deviceID
        self.isReinstall = isReinstall
        self.outcome = outcome
        self.matched = matched
        self.matchType = matchType
        self.matchConfidence = matchConfidence
        self.linkID = linkID
        self.clickID = clickID
        self.tapID = tapID
        self.ip = ip
        self.source = source
        self.createdAt = createdAt
    }

    /// Reads a `warplink_installs` row (times are REAL epoch seconds).
    public init(row: Row) throws {
        self.init(
            id: try row.decode("id"), appID: try row.decodeIfPresent("app_id"), platform: try row.decodeIfPresent("platform"),
            sdkVersion: try row.decodeIfPresent("sdk_version"), deviceID: try row.decodeIfPresent("device_id"),
            isReinstall: try row.decodeIfPresent("is_reinstall"), outcome: try row.decode("outcome"), matched: try row.decode("matched"),
            matchType: try row.decodeIfPresent("match_type"), matchConfidence: try row.decodeIfPresent("match_confidence"),
            linkID: try row.decodeIfPresent("link_id"), clickID: try row.decodeIfPresent("click_id"), tapID: try row.decodeIfPresent("tap_id"),
            ip: try row.decodeIfPresent("ip"), source: try row.decode("source"), createdAt: try row.epochSeconds("created_at"))
    }
}
