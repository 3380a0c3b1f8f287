import Foundation

/// A WarpLink error body `{"error":{"code","message","details"}}` with its status.
public struct WarpLinkAPIError: Error, Sendable, Equatable, Decodable {
    /// One entry of `details.fields`.
    public struct FieldProblem: Sendable, Equatable, Decodable {
        /// The field.
        public var field: String
        /// What is wrong.
        public var message: String
    }

    /// HTTP status.
    public var status: Int
    /// `error.code`, e.g. `PASSWORD_REQUIRED`.
    public var code: String
    /// `error.message`.
    public var message: String
    /// `error.details.fields`.
    public var fields: [FieldProblem]

    private struct Envelope: Decodable {
        struct Body: Decodable {
            struct Details: Decodable { var fields: [FieldProblem]? }
            var code: String
            var message: String
            var details: Details?
        }
        var error: Body
    }

    /// Decodes the envelope of `response`; nil when the body is not one.
    static func from(_ response: ClientResponse) -> WarpLinkAPIError? {
        guard let envelope = try? JSONDecoder().decode(Envelope.self, from: response.body) else { return nil }
        return WarpLinkAPIError(status: response.status, code: envelope.error.code, message: envelope.error.message,
                                fields: envelope.error.details?.fields ?? [])
    }

    init(status: Int, code: String, message: String, fields: [FieldProblem]) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
    }

    /// Decodes the inner error object (used by `Decodable` only for symmetry; prefer `from`).
    public init(from decoder: Decoder) throws {
        let envelope = try Envelope(from: decoder)
        self.init(status: 0, code: envelope.error.code, message: envelope.error.message, fields: envelope.error.details?.fields ?? [])
    }
}

/// What a WarpLink SDK call got back: the status, the decoded value on success, the error otherwise.
public struct WarpLinkResponse<Value: Decodable & Sendable>: Sendable {
    /// HTTP status.
    public var status: Int
    /// The decoded 200 body.
    public var value: Value?
    /// The error body of a non-200 answer.
    public var error: WarpLinkAPIError?
    /// The raw response (headers, body).
    public var raw: ClientResponse

    /// The value, or a thrown `unexpectedStatus` carrying the body.
    public func get() throws(UnderstudyClientError) -> Value {
        guard let value else { throw .unexpectedStatus(status, body: raw.text) }
        return value
    }
}

/// The `/sdk/validate` answer.
public struct WarpLinkValidation: Sendable, Equatable, Decodable {
    /// `valid`.
    public var valid: Bool
    /// `domains`.
    public var domains: [String]

    /// An answer.
    public init(valid: Bool, domains: [String]) {
        self.valid = valid
        self.domains = domains
    }
}

/// The Link object of `/links/resolve`.
public struct WarpLinkLink: Sendable, Equatable, Decodable {
    public var id: String
    public var slug: String
    public var domain: String
    public var shortURL: String?
    public var destinationURL: String
    public var iosURL: String?
    public var iosFallbackURL: String?
    public var androidURL: String?
    public var androidFallbackURL: String?
    public var customParams: [String: AnyJSON]
    public var appID: String?
    public var expiresAt: String?
    public var isActive: Bool?
    public var tags: [String]?
    public var createdAt: String
    public var updatedAt: String?

    enum CodingKeys: String, CodingKey {
        case id, slug, domain, tags
        case shortURL = "short_url", destinationURL = "destination_url", iosURL = "ios_url", iosFallbackURL = "ios_fallback_url"
        case androidURL = "android_url", androidFallbackURL = "android_fallback_url", customParams = "custom_params", appID = "app_id"
        case expiresAt = "expires_at", isActive = "is_active", createdAt = "created_at", updatedAt = "updated_at"
    }
}

/// A `/attribution/match` body as an SDK sends it; nil members are omitted.
public struct WarpLinkAttributionRequest: Sendable, Equatable, Encodable {
    public var platform: String
    public var sdkVersion: String
    public var fingerprintVersion: String
    public var isReinstall: Bool?
    public var appPackageName: String?
    public var appBundleID: String?
    public var deviceID: String?
    public var referrer: String?
    public var acceptLanguage: String?
    public var timezoneOffset: Int?
    public var timezone: String?
    public var fingerprint: String?

    enum CodingKeys: String, CodingKey {
        case platform, referrer, timezone, fingerprint
        case sdkVersion = "sdk_version", fingerprintVersion = "fingerprint_version", isReinstall = "is_reinstall"
        case appPackageName = "app_package_name", appBundleID = "app_bundle_id", deviceID = "device_id"
        case acceptLanguage = "accept_language", timezoneOffset = "timezone_offset"
    }

    /// A body; defaults are what Android 1.1.0 sends on a first install.
    public init(platform: String = "android", sdkVersion: String = "1.1.0", fingerprintVersion: String = "enriched_tz", isReinstall: Bool? = false,
                appPackageName: String? = nil, appBundleID: String? = nil, deviceID: String? = nil, referrer: String? = nil,
                acceptLanguage: String? = "en-US", timezoneOffset: Int? = nil, timezone: String? = nil, fingerprint: String? = nil) {
        self.platform = platform
        self.sdkVersion = sdkVersion
        self.fingerprintVersion = fingerprintVersion
        self.isReinstall = isReinstall
        self.appPackageName = appPackageName
        self.appBundleID = appBundleID
        self.deviceID = deviceID
        self.referrer = referrer
        self.acceptLanguage = acceptLanguage
        self.timezoneOffset = timezoneOffset
        self.timezone = timezone
        self.fingerprint = fingerprint
    }
}

/// The `/attribution/match` answer.
public struct WarpLinkAttributionMatch: Sendable, Equatable, Decodable {
    public var matched: Bool
    public var matchType: String?
    public var matchConfidence: Double?
    public var matchGuaranteed: Bool?
    public var linkID: String?
    public var deepLinkURL: String?
    public var destinationURL: String?
    public var customParams: [String: AnyJSON]?
    public var installID: String?
    public var appID: String?

    enum CodingKeys: String, CodingKey {
        case matched
        case matchType = "match_type", matchConfidence = "match_confidence", matchGuaranteed = "match_guaranteed", linkID = "link_id"
        case deepLinkURL = "deep_link_url", destinationURL = "destination_url", customParams = "custom_params", installID = "install_id", appID = "app_id"
    }
}

/// What a browser tap on a short link got: a 302 with `Location`, or an error body.
public struct WarpLinkTap: Sendable, Equatable {
    /// HTTP status (302 on success).
    public var status: Int
    /// `Location`.
    public var location: String?
    /// The error of a non-302 answer.
    public var error: WarpLinkAPIError?
}

// MARK: - Control plane

/// An app.
public struct WarpLinkApp: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    public var handle: String
    public var domain: String
    public var iosBundleID: String?
    public var androidPackageName: String?
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, name, handle, domain
        case iosBundleID = "ios_bundle_id", androidPackageName = "android_package_name", createdAt = "created_at"
    }
}

/// An SDK or API key.
public struct WarpLinkKey: Sendable, Equatable, Codable {
    public var value: String
    public var kind: String
    public var scopes: [String]
    public var appID: String?
    public var state: String
    public var name: String?
    public var createdAt: String
    public var revokedAt: String?

    enum CodingKeys: String, CodingKey {
        case value, kind, scopes, state, name
        case appID = "app_id", createdAt = "created_at", revokedAt = "revoked_at"
    }
}

/// A custom domain.
public struct WarpLinkDomain: Sendable, Equatable, Codable {
    public var hostname: String
    public var state: String
    public var appID: String?
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case hostname, state
        case appID = "app_id", createdAt = "created_at"
    }
}

/// A link as stored (the control plane's view: stored URLs, password flag, window).
public struct WarpLinkStoredLink: Sendable, Equatable, Decodable {
    public var id: String
    public var slug: String
    public var domain: String
    public var shortURL: String
    public var destinationURL: String
    public var iosURL: String?
    public var iosFallbackURL: String?
    public var androidURL: String?
    public var androidFallbackURL: String?
    public var customParams: [String: AnyJSON]
    public var appID: String?
    public var tags: [String]
    public var passwordProtected: Bool
    public var expiresAt: String?
    public var isActive: Bool
    public var matchWindowHours: Int?
    public var createdAt: String
    public var updatedAt: String

    enum CodingKeys: String, CodingKey {
        case id, slug, domain, tags
        case shortURL = "short_url", destinationURL = "destination_url", iosURL = "ios_url", iosFallbackURL = "ios_fallback_url"
        case androidURL = "android_url", androidFallbackURL = "android_fallback_url", customParams = "custom_params", appID = "app_id"
        case passwordProtected = "password_protected", expiresAt = "expires_at", isActive = "is_active", matchWindowHours = "match_window_hours"
        case createdAt = "created_at", updatedAt = "updated_at"
    }
}

/// A link to seed; nil members are left to the server's defaults.
public struct WarpLinkLinkSeed: Sendable, Equatable, Encodable {
    public var id: String?
    public var slug: String?
    public var domain: String?
    public var destinationURL: String
    public var iosURL: String?
    public var iosFallbackURL: String?
    public var androidURL: String?
    public var androidFallbackURL: String?
    public var customParams: [String: AnyJSON]?
    public var appID: String?
    public var tags: [String]?
    public var password: String?
    public var expiresAt: String?
    public var isActive: Bool?
    public var matchWindowHours: Int?
    public var createdAt: String?

    enum CodingKeys: String, CodingKey {
        case id, slug, domain, tags, password
        case destinationURL = "destination_url", iosURL = "ios_url", iosFallbackURL = "ios_fallback_url", androidURL = "android_url"
        case androidFallbackURL = "android_fallback_url", customParams = "custom_params", appID = "app_id", expiresAt = "expires_at"
        case isActive = "is_active", matchWindowHours = "match_window_hours", createdAt = "created_at"
    }

    /// A link seed.
    public init(slug: String? = nil, domain: String? = nil, destinationURL: String, iosURL: String? = nil, iosFallbackURL: String? = nil,
                androidURL: String? = nil, androidFallbackURL: String? = nil, customParams: [String: AnyJSON]? = nil, appID: String? = nil,
                tags: [String]? = nil, password: String? = nil, expiresAt: String? = nil, isActive: Bool? = nil, matchWindowHours: Int? = nil,
                id: String? = nil, createdAt: String? = nil) {
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

/// A click to seed (the deferred-match input) with a chosen age, IP, language, zone or device id.
public struct WarpLinkClickSeed: Sendable, Equatable, Encodable {
    public var slug: String?
    public var domain: String?
    public var linkID: String?
    public var ip: String?
    public var acceptLanguage: String?
    public var timezone: String?
    public var timezoneOffset: Int?
    public var deviceID: String?
    public var fingerprint: String?
    public var userAgent: String?
    public var params: [String: String]?
    public var clickedAt: String?
    public var ageSeconds: Double?

    enum CodingKeys: String, CodingKey {
        case slug, domain, ip, timezone, fingerprint, params
        case linkID = "link_id", acceptLanguage = "accept_language", timezoneOffset = "timezone_offset", deviceID = "device_id"
        case userAgent = "user_agent", clickedAt = "clicked_at", ageSeconds = "age_seconds"
    }

    /// A click seed; the IP defaults to 127.0.0.1 on the server.
    public init(slug: String? = nil, domain: String? = nil, linkID: String? = nil, ip: String? = nil, acceptLanguage: String? = nil,
                timezone: String? = nil, timezoneOffset: Int? = nil, deviceID: String? = nil, fingerprint: String? = nil,
                userAgent: String? = nil, params: [String: String]? = nil, clickedAt: String? = nil, ageSeconds: Double? = nil) {
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

/// A click as recorded (redirect, resolve or seed), with its claim state.
public struct WarpLinkClick: Sendable, Equatable, Decodable {
    public var id: String
    public var linkID: String
    public var appID: String?
    public var source: String
    public var ip: String?
    public var acceptLanguage: String?
    public var language: String?
    public var timezone: String?
    public var timezoneOffset: Int?
    public var deviceID: String?
    public var fingerprint: String?
    public var userAgent: String?
    public var tapID: String?
    public var destinationURL: String?
    public var iosURL: String?
    public var androidURL: String?
    public var customParams: [String: AnyJSON]
    public var clickedAt: String
    public var claimed: Bool
    public var claimedBy: String?
    public var claimedAt: String?

    enum CodingKeys: String, CodingKey {
        case id, source, ip, language, timezone, fingerprint, claimed
        case linkID = "link_id", appID = "app_id", acceptLanguage = "accept_language", timezoneOffset = "timezone_offset"
        case deviceID = "device_id", userAgent = "user_agent", tapID = "tap_id", destinationURL = "destination_url", iosURL = "ios_url"
        case androidURL = "android_url", customParams = "custom_params", clickedAt = "clicked_at", claimedBy = "claimed_by", claimedAt = "claimed_at"
    }
}

/// An earlier install to seed (the IDFV tier and routeless matches build on it).
public struct WarpLinkInstallSeed: Sendable, Equatable, Encodable {
    public var id: String?
    public var deviceID: String?
    public var linkID: String?
    public var slug: String?
    public var domain: String?
    public var appID: String?
    public var platform: String?
    public var sdkVersion: String?
    public var matchType: String?
    public var matchConfidence: Double?
    public var isReinstall: Bool?
    public var createdAt: String?

    enum CodingKeys: String, CodingKey {
        case id, slug, domain, platform
        case deviceID = "device_id", linkID = "link_id", appID = "app_id", sdkVersion = "sdk_version", matchType = "match_type"
        case matchConfidence = "match_confidence", isReinstall = "is_reinstall", createdAt = "created_at"
    }

    /// An install seed.
    public init(deviceID: String? = nil, linkID: String? = nil, slug: String? = nil, domain: String? = nil, appID: String? = nil,
                platform: String? = nil, sdkVersion: String? = nil, matchType: String? = nil, matchConfidence: Double? = nil,
                isReinstall: Bool? = nil, id: String? = nil, createdAt: String? = nil) {
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

/// An install record.
public struct WarpLinkInstall: Sendable, Equatable, Decodable {
    public var installID: String
    public var appID: String?
    public var platform: String?
    public var sdkVersion: String?
    public var deviceID: String?
    public var isReinstall: Bool?
    public var outcome: String
    public var matched: Bool
    public var matchType: String?
    public var matchConfidence: Double?
    public var linkID: String?
    public var clickID: String?
    public var tapID: String?
    public var ip: String?
    public var source: String
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case platform, outcome, matched, ip, source
        case installID = "install_id", appID = "app_id", sdkVersion = "sdk_version", deviceID = "device_id", isReinstall = "is_reinstall"
        case matchType = "match_type", matchConfidence = "match_confidence", linkID = "link_id", clickID = "click_id", tapID = "tap_id"
        case createdAt = "created_at"
    }
}

/// Per-project matching settings; in an update, nil members are left unchanged.
public struct WarpLinkSettings: Sendable, Equatable, Codable {
    /// `401`, `403` or `valid_false`.
    public var validateRejection: String?
    /// 403 or 401.
    public var apiKeyAttributionStatus: Int?
    /// `explicit_nulls` or `minimal`.
    public var noMatchStyle: String?
    /// `full` or `primary`.
    public var languageMode: String?
    /// `current` or `legacy`.
    public var scoring: String?
    /// IP multipliers on/off.
    public var ipMultipliers: Bool?
    /// Client-IP override (clear it with `updateSettings(json:)` and `client_ip: null`).
    public var clientIP: String?
    /// Trust `X-Forwarded-For`.
    public var trustForwardedFor: Bool?
    /// Lenient slug-only lookup.
    public var lenientLookup: Bool?
    /// Enforce 60 requests/minute.
    public var enforceRateLimit: Bool?

    enum CodingKeys: String, CodingKey {
        case scoring
        case validateRejection = "validate_rejection", apiKeyAttributionStatus = "api_key_attribution_status", noMatchStyle = "no_match_style"
        case languageMode = "language_mode", ipMultipliers = "ip_multipliers", clientIP = "client_ip", trustForwardedFor = "trust_forwarded_for"
        case lenientLookup = "lenient_lookup", enforceRateLimit = "enforce_rate_limit"
    }

    /// Settings (or an update of them).
    public init(validateRejection: String? = nil, apiKeyAttributionStatus: Int? = nil, noMatchStyle: String? = nil, languageMode: String? = nil,
                scoring: String? = nil, ipMultipliers: Bool? = nil, clientIP: String? = nil, trustForwardedFor: Bool? = nil,
                lenientLookup: Bool? = nil, enforceRateLimit: Bool? = nil) {
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
    }
}
