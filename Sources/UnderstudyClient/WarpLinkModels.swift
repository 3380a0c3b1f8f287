import Foundation

/// A WarpLink error body `{"error":{"code","message","details"}}` with its status.
public struct WarpLinkAPIError: Error, Sendable, Equatable, Decodable {
    /// One entry of `details.fields`.
    public struct FieldProblem: Sendable, Equatable, Decodable {
        /// The body field at fault, e.g. `platform` or `device_id`.
        public var field: String
        /// What is wrong with it.
        public var message: String
    }

    /// The HTTP status the error came with.
    public var status: Int
    /// `error.code`, e.g. `PASSWORD_REQUIRED`.
    public var code: String
    /// `error.message`, a sentence for people.
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
    /// The HTTP status of the answer.
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
    /// Whether the key is accepted; false only with the `valid_false` rejection setting.
    public var valid: Bool
    /// The hosts the SDK treats as its links: `aplnk.to`, app handle domains and verified custom domains.
    public var domains: [String]

    /// An answer, for comparing with what the server sent.
    public init(valid: Bool, domains: [String]) {
        self.valid = valid
        self.domains = domains
    }
}

/// The Link object of `/links/resolve`.
public struct WarpLinkLink: Sendable, Equatable, Decodable {
    /// The link's id (a UUID string).
    public var id: String
    /// The path segment after the domain in the short URL; case-sensitive.
    public var slug: String
    /// The short-link host the link lives on: `aplnk.to`, an app handle domain or a custom domain.
    public var domain: String
    /// `https://{domain}/{slug}`, the URL a user taps.
    public var shortURL: String?
    /// Where the link sends a user, with the merged parameters as its query.
    public var destinationURL: String
    /// The URL an iOS app opens instead of the destination, if the link has one.
    public var iosURL: String?
    /// Where an iOS user without the app is sent, if the link has one.
    public var iosFallbackURL: String?
    /// The URL an Android app opens instead of the destination, if the link has one.
    public var androidURL: String?
    /// Where an Android user without the app is sent, if the link has one.
    public var androidFallbackURL: String?
    /// The link's parameters merged with the tapped ones (the tapped win), as the SDK hands them to the app.
    public var customParams: [String: AnyJSON]
    /// The app the link belongs to; nil for an org-wide link.
    public var appID: String?
    /// When the link starts answering 410 `GONE`; nil when it never expires.
    public var expiresAt: String?
    /// Whether the link resolves at all; an inactive link answers 404.
    public var isActive: Bool?
    /// Free-form labels set when the link was created.
    public var tags: [String]?
    /// When the link was created (`…T…:….mmmZ`).
    public var createdAt: String
    /// When the link last changed (`…T…:….mmmZ`).
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
    /// `ios` or `android`.
    public var platform: String
    /// The SDK's version, e.g. `1.1.0`.
    public var sdkVersion: String
    /// Which signals the SDK collected (`enriched_tz`, `enriched` or `basic`); it caps the confidence.
    public var fingerprintVersion: String
    /// Whether the SDK believes the app was installed before on this device; stored on the install record.
    public var isReinstall: Bool?
    /// The Android package name; picks the app when the key is org-wide.
    public var appPackageName: String?
    /// The iOS bundle id; picks the app when the key is org-wide.
    public var appBundleID: String?
    /// The iOS IDFV (a UUID), matched against seeded clicks and earlier installs.
    public var deviceID: String?
    /// The Play install referrer (a link id), the deterministic Android tier; ignored unless a UUID.
    public var referrer: String?
    /// The device languages as an `Accept-Language` value; part of every signals bucket.
    public var acceptLanguage: String?
    /// The device's UTC offset in minutes with JavaScript's sign (UTC+2 is -120).
    public var timezoneOffset: Int?
    /// The device's IANA zone, e.g. `Europe/Paris`; the most specific signals bucket.
    public var timezone: String?
    /// A hex fingerprint the SDK computed, matched exactly against clicks that carry one.
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
    /// Whether the install was attributed to a link.
    public var matched: Bool
    /// `deterministic` (referrer, device id, fingerprint) or `probabilistic` (IP and language signals).
    public var matchType: String?
    /// How sure the match is, from 0 to 1: 1.0 when deterministic, scored by click age and signals otherwise.
    public var matchConfidence: Double?
    /// True only for deterministic matches on a link.
    public var matchGuaranteed: Bool?
    /// The attributed link; nil for a routeless match whose link was deleted.
    public var linkID: String?
    /// The platform URL (`ios_url` or `android_url`) the SDK opens in the app, when the link has one.
    public var deepLinkURL: String?
    /// The link's destination with the click's parameters as its query.
    public var destinationURL: String?
    /// The parameters merged at click time, as the SDK hands them to the app.
    public var customParams: [String: AnyJSON]?
    /// The install record this answer stored (see `WarpLinkProjectAdmin.installs`).
    public var installID: String?
    /// The app the install was attributed for.
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
    /// The `Location` header: the destination reshaped with the tap's parameters.
    public var location: String?
    /// The error of a non-302 answer.
    public var error: WarpLinkAPIError?
}

// MARK: - Control plane

/// An app of the project: its handle domain and the identifiers attribution picks it by.
public struct WarpLinkApp: Sendable, Equatable, Codable {
    /// The app's id (a UUID string).
    public var id: String
    /// Display name.
    public var name: String
    /// The subdomain label of the app's own short-link host, `<handle>.aplnk.to`.
    public var handle: String
    /// The app's handle domain, `<handle>.aplnk.to`.
    public var domain: String
    /// The iOS bundle id an org-wide key uses to pick this app in attribution.
    public var iosBundleID: String?
    /// The Android package name an org-wide key uses to pick this app in attribution.
    public var androidPackageName: String?
    /// When the app was created (`…T…:….mmmZ`).
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case id, name, handle, domain
        case iosBundleID = "ios_bundle_id", androidPackageName = "android_package_name", createdAt = "created_at"
    }
}

/// An SDK or API key.
public struct WarpLinkKey: Sendable, Equatable, Codable {
    /// The key itself, `wl_live_…` or `wl_test_…` plus 32 letters or digits.
    public var value: String
    /// `sdk` (validate, resolve and attribution) or `api` (limited to its scopes; refused on attribution).
    public var kind: String
    /// What the key may do, e.g. `links:read` (needed to resolve); SDK keys always hold `links:read` and `attribution:write`.
    public var scopes: [String]
    /// The app an app-bound SDK key acts as; nil for an org-wide key.
    public var appID: String?
    /// `active` or `revoked` (a revoked key gets 401 everywhere).
    public var state: String
    /// A label for people; the SDKs never see it.
    public var name: String?
    /// When the key was created (`…T…:….mmmZ`).
    public var createdAt: String
    /// When the key was revoked; nil while active.
    public var revokedAt: String?

    enum CodingKeys: String, CodingKey {
        case value, kind, scopes, state, name
        case appID = "app_id", createdAt = "created_at", revokedAt = "revoked_at"
    }
}

/// A custom short-link host of the project.
public struct WarpLinkDomain: Sendable, Equatable, Codable {
    /// The custom short-link host, lower-case.
    public var hostname: String
    /// `verified` (serves links and is listed by `/sdk/validate`) or `suspended` (its links answer 404).
    public var state: String
    /// The app whose links the domain serves; nil for org-wide.
    public var appID: String?
    /// When the domain was added (`…T…:….mmmZ`).
    public var createdAt: String

    enum CodingKeys: String, CodingKey {
        case hostname, state
        case appID = "app_id", createdAt = "created_at"
    }
}

/// A link as stored (the control plane's view: stored URLs, password flag, window).
public struct WarpLinkStoredLink: Sendable, Equatable, Decodable {
    /// The link's id (a UUID string).
    public var id: String
    /// The path segment after the domain in the short URL; case-sensitive.
    public var slug: String
    /// The short-link host the link lives on: `aplnk.to`, an app handle domain or a custom domain.
    public var domain: String
    /// `https://{domain}/{slug}`, the URL a user taps.
    public var shortURL: String
    /// The destination as stored, before the tap's parameters are merged in.
    public var destinationURL: String
    /// The URL an iOS app opens instead of the destination, if the link has one.
    public var iosURL: String?
    /// Where an iOS user without the app is sent, if the link has one.
    public var iosFallbackURL: String?
    /// The URL an Android app opens instead of the destination, if the link has one.
    public var androidURL: String?
    /// Where an Android user without the app is sent, if the link has one.
    public var androidFallbackURL: String?
    /// The link's own parameters, merged into every tap.
    public var customParams: [String: AnyJSON]
    /// The app the link belongs to; nil for an org-wide link.
    public var appID: String?
    /// Free-form labels set when the link was created.
    public var tags: [String]
    /// Whether resolving needs the password (403 `PASSWORD_REQUIRED` otherwise); the password itself is never returned.
    public var passwordProtected: Bool
    /// When the link starts answering 410 `GONE`; nil when it never expires.
    public var expiresAt: String?
    /// Whether the link resolves at all; an inactive link answers 404.
    public var isActive: Bool
    /// How old a click on this link may be and still be matched by signals (default 6, at most 24).
    public var matchWindowHours: Int?
    /// When the link was created (`…T…:….mmmZ`).
    public var createdAt: String
    /// When the link last changed (`…T…:….mmmZ`).
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
    /// The click's id; for a resolve it is the `X-WarpLink-Tap-Id` answered.
    public var id: String
    /// The clicked link.
    public var linkID: String
    /// The link's app when it was clicked.
    public var appID: String?
    /// `redirect` (a browser tap), `resolve` (an in-app resolve) or `seed` (the control plane).
    public var source: String
    /// The client IP the click was recorded with.
    public var ip: String?
    /// The raw `Accept-Language` of the click.
    public var acceptLanguage: String?
    /// The normalised language the click is bucketed under, e.g. `en-us`.
    public var language: String?
    /// The IANA zone of the click, if it carried one.
    public var timezone: String?
    /// The UTC offset in minutes (JavaScript sign) of the click, if known.
    public var timezoneOffset: Int?
    /// The IDFV a seeded click carries.
    public var deviceID: String?
    /// The fingerprint a seeded click carries.
    public var fingerprint: String?
    /// The User-Agent of the click (recorded only).
    public var userAgent: String?
    /// The `X-WarpLink-Tap-Id` of a resolve click.
    public var tapID: String?
    /// The destination as reshaped for this click.
    public var destinationURL: String?
    /// The iOS URL as reshaped for this click.
    public var iosURL: String?
    /// The Android URL as reshaped for this click.
    public var androidURL: String?
    /// The parameters merged for this click, as an attribution would return them.
    public var customParams: [String: AnyJSON]
    /// When the click happened (`…T…:….mmmZ`).
    public var clickedAt: String
    /// Whether an install has claimed the click; a claimed click matches no other install.
    public var claimed: Bool
    /// The install that claimed the click.
    public var claimedBy: String?
    /// When the click was claimed.
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

/// What an attribution request stored: its outcome, the match and the click it claimed.
public struct WarpLinkInstall: Sendable, Equatable, Decodable {
    /// The install's id, as returned in `install_id`.
    public var installID: String
    /// The app the install was attributed for.
    public var appID: String?
    /// `ios` or `android`.
    public var platform: String?
    /// The SDK version of the request.
    public var sdkVersion: String?
    /// The IDFV of the request.
    public var deviceID: String?
    /// The `is_reinstall` the SDK sent; nil when it sent none.
    public var isReinstall: Bool?
    /// Which tier decided: `referrer`, `device_id`, `fingerprint`, `signals`, `no_match` or `ambiguous_app`.
    public var outcome: String
    /// Whether the answer said `matched: true`.
    public var matched: Bool
    /// `deterministic` or `probabilistic`; nil without a match.
    public var matchType: String?
    /// The confidence answered; nil without a match.
    public var matchConfidence: Double?
    /// The attributed link (kept after the link is deleted).
    public var linkID: String?
    /// The click the install claimed, for signals and fingerprint matches.
    public var clickID: String?
    /// The tap id of the request, if it had one.
    public var tapID: String?
    /// The client IP the request was matched with.
    public var ip: String?
    /// `sdk` for a real attribution request, `seed` for a seeded install.
    public var source: String
    /// When the install was recorded (`…T…:….mmmZ`).
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
