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
    /// How an expired link is answered: 410 `GONE` (default, the public API's error table; the
    /// SDK reports `serverError(410)`) or 404 `NOT_FOUND` (what the SDK's own error documentation
    /// describes; it reports `linkNotFound`).
    public var expiredLinkStatus: Int

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
        expiredLinkStatus = 410
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
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
        case expiredLinkStatus = "expired_link_status"
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
        try container.encode(expiredLinkStatus, forKey: .expiredLinkStatus)
    }

    /// The first problem with these values, or nil when they are all allowed.
    public var validationProblem: String? {
        if !["401", "403", "valid_false"].contains(validateRejection) { return "`validate_rejection` must be 401, 403 or valid_false." }
        if ![401, 403].contains(apiKeyAttributionStatus) { return "`api_key_attribution_status` must be 401 or 403." }
        if !["explicit_nulls", "minimal"].contains(noMatchStyle) { return "`no_match_style` must be explicit_nulls or minimal." }
        if !["full", "primary"].contains(languageMode) { return "`language_mode` must be full or primary." }
        if !["current", "legacy"].contains(scoring) { return "`scoring` must be current or legacy." }
        if let clientIP, ClientAddress.kind(of: clientIP) == .invalid { return "`client_ip` must be an IPv4 or IPv6 address." }
        if ![404, 410].contains(expiredLinkStatus) { return "`expired_link_status` must be 404 or 410." }
        return nil
    }

    /// The contract's defaults as the bottom settings layer.
    public static var contractDefaults: JSONValue {
        // Encoding a struct of strings, integers and booleans cannot fail, so the error is irrelevant.
        (try? JSONValue.from(MatchingSettings())) ?? [:]
    }

    /// The server-wide layer from the configuration's `warplink` section, and why it was ignored
    /// when it is invalid (then the project sees the contract's defaults).
    public static func serverLayer(from configuration: JSONValue) -> (layer: JSONValue, problem: String?) {
        guard let section = configuration["settings"], section != .null else { return ([:], nil) }
        let settings: MatchingSettings
        do { settings = try SettingsDocument.resolve(MatchingSettings.self, layers: [contractDefaults, section]) } catch {
            return ([:], "warplink.settings has a wrong type")
        }
        if let problem = settings.validationProblem { return ([:], "warplink.settings: " + problem) }
        return (section, nil)
    }

    /// The effective settings of a project with `stored` (its own document, if any) over `server`.
    public static func resolve(server: JSONValue, stored: JSONValue?) throws(BodyError) -> MatchingSettings {
        try SettingsDocument.resolve(MatchingSettings.self, layers: [contractDefaults, server, stored ?? [:]])
    }

    /// A `PUT …/settings` body laid over the project's stored document: the new document to store
    /// and the settings it gives, or the control plane's 400 (`unknown_field`, `wrong_type`, `invalid_value`).
    public static func applying(_ patch: [String: JSONValue], to stored: JSONValue?, server: JSONValue) throws(AdminError) -> (document: JSONValue, settings: MatchingSettings) {
        let known = Set(CodingKeys.allCases.map(\.rawValue))
        if let unknown = patch.keys.sorted().first(where: { !known.contains($0) }) {
            throw AdminError.badRequest("Unknown field `\(unknown)`.", code: "unknown_field")
        }
        let document = SettingsDocument.merge(stored ?? [:], .object(patch))
        let settings: MatchingSettings
        do { settings = try resolve(server: server, stored: document) } catch {
            throw AdminError.badRequest("Settings have a wrong type: \(error.message)", code: "wrong_type")
        }
        if let problem = settings.validationProblem { throw AdminError.badRequest(problem, code: "invalid_value") }
        return (document, settings)
    }

    /// Whether the ≤ 1.0 scale is in use.
    public var isLegacy: Bool { scoring == "legacy" }
}
