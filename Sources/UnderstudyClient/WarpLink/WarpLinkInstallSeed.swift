import Foundation

/// An earlier install to seed (the IDFV tier and routeless matches build on it).
public struct WarpLinkInstallSeed: Sendable, Equatable, Encodable {
    /// A fixed install id; generated when nil.
    public var id: String?
    /// The IDFV of the earlier install, for the device-id tier of later attributions.
    public var deviceID: String?
    /// The link the earlier install was attributed to; or give `slug` and `domain`.
    public var linkID: String?
    /// The attributed link's slug, with `domain`.
    public var slug: String?
    /// The attributed link's host; `aplnk.to` when nil.
    public var domain: String?
    /// The app of the earlier install.
    public var appID: String?
    /// `ios` or `android`.
    public var platform: String?
    /// The SDK version recorded on the install.
    public var sdkVersion: String?
    /// How the earlier install was matched; a later device-id match reports it again.
    public var matchType: String?
    /// The earlier install's confidence; a later device-id match reports it again.
    public var matchConfidence: Double?
    /// The `is_reinstall` the earlier SDK sent.
    public var isReinstall: Bool?
    /// When the earlier install happened; now on the project clock when nil.
    public var createdAt: String?

    enum CodingKeys: String, CodingKey {
        case id, slug, domain, platform
        case deviceID = "device_id", linkID = "link_id", appID = "app_id", sdkVersion = "sdk_version", matchType = "match_type"
        case matchConfidence = "match_confidence", isReinstall = "is_reinstall", createdAt = "created_at"
    }

    /// An earlier install to create; nil members are left to the server's defaults.
    public init(
        deviceID: String? = nil, linkID: String? = nil, slug: String? = nil, domain: String? = nil, appID: String? = nil,
        platform: String? = nil, sdkVersion: String? = nil, matchType: String? = nil, matchConfidence: Double? = nil,
        isReinstall: Bool? = nil, id: String? = nil, createdAt: String? = nil
    ) {
        self.id = id
        self.deviceID = deviceID
        self.linkID = linkID
        self.slug = slug
        self.domain = domain
        self.appID = appID
        self.platform = platform
        self.sdkVersion = sdkVersion
        self.matchType = matchType
        self.matchConfidence = matchConfidence
        self.isReinstall = isReinstall
        self.createdAt = createdAt
    }
}
