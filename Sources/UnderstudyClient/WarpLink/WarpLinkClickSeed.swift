import Foundation

/// A click to seed (the deferred-match input) with a chosen age, IP, language, zone or device id.
public struct WarpLinkClickSeed: Sendable, Equatable, Encodable {
    /// The clicked link's slug, with `domain`; or give `linkID`.
    public var slug: String?
    /// The clicked link's host; `aplnk.to` when nil.
    public var domain: String?
    /// The clicked link's id, instead of `slug` and `domain`.
    public var linkID: String?
    /// The client IP of the click (127.0.0.1 when nil); private and loopback addresses lower the confidence.
    public var ip: String?
    /// The browser's `Accept-Language`; its first entry is the language of the signals bucket.
    public var acceptLanguage: String?
    /// The browser's IANA zone (what `?tz=` carries on a tap).
    public var timezone: String?
    /// The browser's UTC offset in minutes with JavaScript's sign (UTC+2 is -120).
    public var timezoneOffset: Int?
    /// An IDFV the click carries, for the deterministic device-id tier.
    public var deviceID: String?
    /// A pre-computed fingerprint the click carries, for the fingerprint tier.
    public var fingerprint: String?
    /// The browser's User-Agent (recorded, never matched on).
    public var userAgent: String?
    /// Query parameters of the tap, merged into the link's.
    public var params: [String: String]?
    /// When the click happened; give this or `ageSeconds`, else now on the project clock.
    public var clickedAt: String?
    /// How long before now (project clock) the click happened; puts it in a confidence tier.
    public var ageSeconds: Double?

    enum CodingKeys: String, CodingKey {
        case slug, domain, ip, timezone, fingerprint, params
        case linkID = "link_id", acceptLanguage = "accept_language", timezoneOffset = "timezone_offset", deviceID = "device_id"
        case userAgent = "user_agent", clickedAt = "clicked_at", ageSeconds = "age_seconds"
    }

    /// A click seed; the IP defaults to 127.0.0.1 on the server.
    public init(
        slug: String? = nil, domain: String? = nil, linkID: String? = nil, ip: String? = nil, acceptLanguage: String? = nil,
        timezone: String? = nil, timezoneOffset: Int? = nil, deviceID: String? = nil, fingerprint: String? = nil,
        userAgent: String? = nil, params: [String: String]? = nil, clickedAt: String? = nil, ageSeconds: Double? = nil
    ) {
        self.slug = slug
        self.domain = domain
        self.linkID = linkID
        self.ip = ip
        self.acceptLanguage = acceptLanguage
        self.timezone = timezone
        self.timezoneOffset = timezoneOffset
        self.deviceID = deviceID
        self.fingerprint = fingerprint
        self.userAgent = userAgent
        self.params = params
        self.clickedAt = clickedAt
        self.ageSeconds = ageSeconds
    }
}
