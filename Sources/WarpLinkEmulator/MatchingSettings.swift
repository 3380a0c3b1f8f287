import EmulatorCore
import Foundation

/// Per-project switches for the choices the wire contract leaves configurable ([W-V2], [W-A1],
/// [W-A4], [W-L1], [W-M2], [W-M3], [W-M4], [W-M5], [W-E1]). Stored as JSON in `warplink_settings`.
public struct MatchingSettings: Codable, Sendable, Equatable {
    /// How `/sdk/validate` rejects a key: `401` (default), `403`, or `valid_false` (200 `{"valid":false}`).
    public var validateRejection: String
    /// Status for an API key on `/attribution/match`: 403 (default) or 401.
    public var apiKeyAttributionStatus: Int
    /// No-match body: `explicit_nulls` (default) or `minimal` (`{"matched":false}`).
    public var noMatchStyle: String
    /// Language normalisation: `full` (`en-us`, default) or `primary` (`en`).
    public var languageMode: String
    /// Scoring: `current` (1.1 table, 6 h window, default) or `legacy` (≤ 1.0 scale, 72 h window).
    public var scoring: String
    /// Whether the click-IP multipliers apply (default true).
    public var ipMultipliers: Bool
    /// When set, every WarpLink data-plane request is treated as coming from this IP.
    public var clientIP: String?
    /// Whether the first `X-Forwarded-For` entry is trusted as the client IP (default false).
    public var trustForwardedFor: Bool
    /// Whether resolve may find a link by slug alone when the domain does not match and the slug is unique.
    public var lenientLookup: Bool
    /// Whether the 60 requests/minute limit is enforced (headers are always sent).
    public var enforceRateLimit: Bool

    /// The defaults the contract names.
    public init() {
        validateRejection = "401"
        apiKeyAttributionStatus = 403
        noMatchStyle = "explicit_nulls"
        languageMode = "full"
        scoring = "current"
        ipMultipliers = true
        clientIP = nil
        trustForwardedFor = false
        lenientLookup = false
        enforceRateLimit = false
    }

    enum CodingKeys: String, CodingKey {
        case validateRejection = "validate_rejection"
        case apiKeyAttributionStatus = "api_key_attribution_status"
        case noMatchStyle = "no_match_style"
        case languageMode = "language_mode"
        case scoring
        case ipMultipliers = "ip_multipliers"
        case clientIP = "client_ip"
        case trustForwardedFor = "trust_forwarded_for"
        case lenientLookup = "lenient_lookup"
        case enforceRateLimit = "enforce_rate_limit"
    }

    /// Decodes, taking defaults for absent members (stored settings survive new switches).
    public init(from decoder: Decoder) throws {
        self.init()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        validateRejection = try container.decodeIfPresent(String.self, forKey: .validateRejection) ?? validateRejection
        apiKeyAttributionStatus = try container.decodeIfPresent(Int.self, forKey: .apiKeyAttributionStatus) ?? apiKeyAttributionStatus
        noMatchStyle = try container.decodeIfPresent(String.self, forKey: .noMatchStyle) ?? noMatchStyle
        languageMode = try container.decodeIfPresent(String.self, forKey: .languageMode) ?? languageMode
        scoring = try container.decodeIfPresent(String.self, forKey: .scoring) ?? scoring
        ipMultipliers = try container.decodeIfPresent(Bool.self, forKey: .ipMultipliers) ?? ipMultipliers
        clientIP = try container.decodeIfPresent(String.self, forKey: .clientIP)
        trustForwardedFor = try container.decodeIfPresent(Bool.self, forKey: .trustForwardedFor) ?? trustForwardedFor
        lenientLookup = try container.decodeIfPresent(Bool.self, forKey: .lenientLookup) ?? lenientLookup
        enforceRateLimit = try container.decodeIfPresent(Bool.self, forKey: .enforceRateLimit) ?? enforceRateLimit
    }

    /// Encodes every member, `client_ip` as explicit null when unset.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(validateRejection, forKey: .validateRejection)
        try container.encode(apiKeyAttributionStatus, forKey: .apiKeyAttributionStatus)
        try container.encode(noMatchStyle, forKey: .noMatchStyle)
        try container.encode(languageMode, forKey: .languageMode)
        try container.encode(scoring, forKey: .scoring)
        try container.encode(ipMultipliers, forKey: .ipMultipliers)
        try container.encode(clientIP, forKey: .clientIP)
        try container.encode(trustForwardedFor, forKey: .trustForwardedFor)
        try container.encode(lenientLookup, forKey: .lenientLookup)
        try container.encode(enforceRateLimit, forKey: .enforceRateLimit)
    }

    /// The first problem with these values, or nil when they are all allowed.
    public var validationProblem: String? {
        if !["401", "403", "valid_false"].contains(validateRejection) { return "`validate_rejection` must be 401, 403 or valid_false." }
        if ![401, 403].contains(apiKeyAttributionStatus) { return "`api_key_attribution_status` must be 401 or 403." }
        if !["explicit_nulls", "minimal"].contains(noMatchStyle) { return "`no_match_style` must be explicit_nulls or minimal." }
        if !["full", "primary"].contains(languageMode) { return "`language_mode` must be full or primary." }
        if !["current", "legacy"].contains(scoring) { return "`scoring` must be current or legacy." }
        if let clientIP, ClientAddress.kind(of: clientIP) == .invalid { return "`client_ip` must be an IPv4 or IPv6 address." }
        return nil
    }

    /// Whether the ≤ 1.0 scale is in use.
    public var isLegacy: Bool { scoring == "legacy" }
}
