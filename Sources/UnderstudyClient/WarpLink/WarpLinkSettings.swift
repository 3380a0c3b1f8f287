import Foundation

/// Per-project matching settings; in an update, nil members are left unchanged.
public struct WarpLinkSettings: Sendable, Equatable, Codable {
    /// `401`, `403` or `valid_false`.
    public var validateRejection: String?
    /// The status an API key gets on `/attribution/match`: 403 (the default) or 401.
    public var apiKeyAttributionStatus: Int?
    /// `explicit_nulls` or `minimal`.
    public var noMatchStyle: String?
    /// `full` keeps the region of the language (`en-us`), `primary` only the language (`en`).
    public var languageMode: String?
    /// `current` (age tiers per fingerprint variant) or `legacy` (the older scale, 72 h window).
    public var scoring: String?
    /// Whether the click IP's kind (private, public IPv4, IPv6) scales the confidence.
    public var ipMultipliers: Bool?
    /// Client-IP override (clear it with `updateSettings(json:)` and `client_ip: null`).
    public var clientIP: String?
    /// Whether the first `X-Forwarded-For` entry replaces the socket peer as the client IP.
    public var trustForwardedFor: Bool?
    /// Whether resolve may find a link by slug alone when the domain does not match and the slug is unique.
    public var lenientLookup: Bool?
    /// Whether the 61st request in a minute per key gets 429 (the headers are always sent).
    public var enforceRateLimit: Bool?
    /// How an expired link answers: 410 `GONE` (the default; the SDK reports `serverError(410)`)
    /// or 404 `NOT_FOUND` (the SDK reports `linkNotFound`).
    public var expiredLinkStatus: Int?

    enum CodingKeys: String, CodingKey {
        case scoring
        case validateRejection = "validate_rejection", apiKeyAttributionStatus = "api_key_attribution_status", noMatchStyle = "no_match_style"
        case languageMode = "language_mode", ipMultipliers = "ip_multipliers", clientIP = "client_ip", trustForwardedFor = "trust_forwarded_for"
        case lenientLookup = "lenient_lookup", enforceRateLimit = "enforce_rate_limit", expiredLinkStatus = "expired_link_status"
    }

    /// Settings (or an update of them).
    public init(
        validateRejection: String? = nil, apiKeyAttributionStatus: Int? = nil, noMatchStyle: String? = nil, languageMode: String? = nil,
        scoring: String? = nil, ipMultipliers: Bool? = nil, clientIP: String? = nil, trustForwardedFor: Bool? = nil,
        lenientLookup: Bool? = nil, enforceRateLimit: Bool? = nil, expiredLinkStatus: Int? = nil
    ) {
        self.validateRejection = validateRejection
        self.apiKeyAttributionStatus = apiKeyAttributionStatus
        self.noMatchStyle = noMatchStyle
        self.languageMode = languageMode
        self.scoring = scoring
        self.ipMultipliers = ipMultipliers
        self.clientIP = clientIP
        self.trustForwardedFor = trustForwardedFor
        self.lenientLookup = lenientLookup
        self.enforceRateLimit = enforceRateLimit
        self.expiredLinkStatus = expiredLinkStatus
    }
}
