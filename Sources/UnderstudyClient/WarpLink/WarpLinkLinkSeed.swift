import Foundation

/// A link to seed; nil members are left to the server's defaults.
public struct WarpLinkLinkSeed: Sendable, Equatable, Encodable {
    /// A fixed id for the link; generated when nil.
    public var id: String?
    /// The slug; generated when nil. Use a unique one when tests share a server on `aplnk.to`.
    public var slug: String?
    /// The host; `aplnk.to` when nil.
    public var domain: String?
    /// Where the link sends users; its query is kept and merged with the link's parameters.
    public var destinationURL: String
    /// The URL an iOS app opens instead of the destination, if the link has one.
    public var iosURL: String?
    /// Where an iOS user without the app is sent, if the link has one.
    public var iosFallbackURL: String?
    /// The URL an Android app opens instead of the destination, if the link has one.
    public var androidURL: String?
    /// Where an Android user without the app is sent, if the link has one.
    public var androidFallbackURL: String?
    /// Parameters added to every tap of the link.
    public var customParams: [String: AnyJSON]?
    /// The app the link belongs to; nil for an org-wide link.
    public var appID: String?
    /// Free-form labels set when the link was created.
    public var tags: [String]?
    /// A password that resolving must supply (403 `PASSWORD_REQUIRED` without it).
    public var password: String?
    /// When the link starts answering 410 `GONE`.
    public var expiresAt: String?
    /// false makes the link answer 404; true when nil.
    public var isActive: Bool?
    /// How old a click may be and still be matched by signals (default 6, at most 24).
    public var matchWindowHours: Int?
    /// A back-dated creation time; now on the project clock when nil.
    public var createdAt: String?

    enum CodingKeys: String, CodingKey {
        case id, slug, domain, tags, password
        case destinationURL = "destination_url", iosURL = "ios_url", iosFallbackURL = "ios_fallback_url", androidURL = "android_url"
        case androidFallbackURL = "android_fallback_url", customParams = "custom_params", appID = "app_id", expiresAt = "expires_at"
        case isActive = "is_active", matchWindowHours = "match_window_hours", createdAt = "created_at"
    }

    /// A link to create; only the destination is required.
    public init(
        slug: String? = nil, domain: String? = nil, destinationURL: String, iosURL: String? = nil, iosFallbackURL: String? = nil,
        androidURL: String? = nil, androidFallbackURL: String? = nil, customParams: [String: AnyJSON]? = nil, appID: String? = nil,
        tags: [String]? = nil, password: String? = nil, expiresAt: String? = nil, isActive: Bool? = nil, matchWindowHours: Int? = nil,
        id: String? = nil, createdAt: String? = nil
    ) {
        self.id = id
        self.slug = slug
        self.domain = domain
        self.destinationURL = destinationURL
        self.iosURL = iosURL
        self.iosFallbackURL = iosFallbackURL
        self.androidURL = androidURL
        self.androidFallbackURL = androidFallbackURL
        self.customParams = customParams
        self.appID = appID
        self.tags = tags
        self.password = password
        self.expiresAt = expiresAt
        self.isActive = isActive
        self.matchWindowHours = matchWindowHours
        self.createdAt = createdAt
    }
}
