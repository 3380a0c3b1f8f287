import EmulatorCore
import Foundation

/// Control-plane request bodies exactly as sent (snake_case, like the Link object they seed).
/// `WarpLinkService`'s control-plane builders validate them into records; fixtures go through
/// the same builders, so a fixture cannot hold what the API refuses.
enum AdminInputs {
    /// `POST …/apps`.
    struct App: Codable {
        var id: String?
        var name: String
        var handle: String?
        var iosBundleID: String?
        var androidPackageName: String?

        enum CodingKeys: String, CodingKey {
            case id
            case name
            case handle
            case iosBundleID = "ios_bundle_id"
            case androidPackageName = "android_package_name"
        }
    }

    /// `POST …/keys`.
    struct Key: Codable {
        var value: String?
        var kind: String?
        var scopes: [String]?
        var appID: String?
        var name: String?
        var state: String?

        enum CodingKeys: String, CodingKey {
            case value
            case kind
            case scopes
            case appID = "app_id"
            case name
            case state
        }
    }

    /// `POST …/domains`.
    struct Domain: Codable {
        var hostname: String
        var state: String?
        var appID: String?

        enum CodingKeys: String, CodingKey {
            case hostname
            case state
            case appID = "app_id"
        }
    }

    /// `POST …/links`, and a stored link overlaid by a `PATCH`.
    struct Link: Codable {
        var id: String?
        var slug: String?
        var domain: String?
        var destinationURL: String
        var iosURL: String?
        var iosFallbackURL: String?
        var androidURL: String?
        var androidFallbackURL: String?
        var customParams: JSONValue?
        var appID: String?
        var tags: [String]?
        var password: String?
        var expiresAt: String?
        var isActive: Bool?
        var matchWindowHours: Int?
        var createdAt: String?

        enum CodingKeys: String, CodingKey {
            case id
            case slug
            case domain
            case destinationURL = "destination_url"
            case iosURL = "ios_url"
            case iosFallbackURL = "ios_fallback_url"
            case androidURL = "android_url"
            case androidFallbackURL = "android_fallback_url"
            case customParams = "custom_params"
            case appID = "app_id"
            case tags
            case password
            case expiresAt = "expires_at"
            case isActive = "is_active"
            case matchWindowHours = "match_window_hours"
            case createdAt = "created_at"
        }
    }

    /// `POST …/clicks`: a seeded click.
    struct Click: Codable {
        var slug: String?
        var domain: String?
        var linkID: String?
        var ip: String?
        var acceptLanguage: String?
        var timezone: String?
        var timezoneOffset: Int?
        var deviceID: String?
        var fingerprint: String?
        var userAgent: String?
        var params: [String: String]?
        var clickedAt: String?
        var ageSeconds: Double?

        enum CodingKeys: String, CodingKey {
            case slug
            case domain
            case linkID = "link_id"
            case ip
            case acceptLanguage = "accept_language"
            case timezone
            case timezoneOffset = "timezone_offset"
            case deviceID = "device_id"
            case fingerprint
            case userAgent = "user_agent"
            case params
            case clickedAt = "clicked_at"
            case ageSeconds = "age_seconds"
        }
    }

    /// `POST …/installs`: a seeded earlier install.
    struct Install: Codable {
        var id: String?
        var deviceID: String?
        var linkID: String?
        var slug: String?
        var domain: String?
        var appID: String?
        var platform: String?
        var sdkVersion: String?
        var matchType: String?
        var matchConfidence: Double?
        var isReinstall: Bool?
        var createdAt: String?

        enum CodingKeys: String, CodingKey {
            case id
            case deviceID = "device_id"
            case linkID = "link_id"
            case slug
            case domain
            case appID = "app_id"
            case platform
            case sdkVersion = "sdk_version"
            case matchType = "match_type"
            case matchConfidence = "match_confidence"
            case isReinstall = "is_reinstall"
            case createdAt = "created_at"
        }
    }
}

/// Control-plane answers: records as the control plane shows them, with explicit `null`s.
extension WarpLinkWire {
    /// An app as the control plane shows it.
    static func app(_ app: AppRecord) -> JSONValue {
        [
            "id": .string(app.id), "name": .string(app.name), "handle": .string(app.handle), "domain": .string(app.handleDomain),
            "ios_bundle_id": optional(app.iosBundleID), "android_package_name": optional(app.androidPackageName),
            "created_at": .string(WarpLinkTime.format(app.createdAt)),
        ]
    }

    /// A key as the control plane shows it.
    static func key(_ key: KeyRecord) -> JSONValue {
        [
            "value": .string(key.value), "kind": .string(key.kind.rawValue), "scopes": .array(key.scopes.map(JSONValue.string)),
            "app_id": optional(key.appID), "state": .string(key.state.rawValue), "name": optional(key.name),
            "created_at": .string(WarpLinkTime.format(key.createdAt)), "revoked_at": optional(key.revokedAt.map { WarpLinkTime.format($0) }),
        ]
    }

    /// A custom domain as the control plane shows it.
    static func domain(_ domain: DomainRecord) -> JSONValue {
        [
            "hostname": .string(domain.hostname), "state": .string(domain.state.rawValue), "app_id": optional(domain.appID),
            "created_at": .string(WarpLinkTime.format(domain.createdAt)),
        ]
    }

    /// A stored link as the control plane shows it (the password only as `password_protected`).
    static func storedLink(_ link: LinkRecord) -> JSONValue {
        [
            "id": .string(link.id), "slug": .string(link.slug), "domain": .string(link.domain), "short_url": .string(link.shortURL),
            "destination_url": .string(link.destinationURL), "ios_url": optional(link.iosURL),
            "ios_fallback_url": optional(link.iosFallbackURL), "android_url": optional(link.androidURL),
            "android_fallback_url": optional(link.androidFallbackURL), "custom_params": link.customParams,
            "app_id": optional(link.appID), "tags": .array(link.tags.map(JSONValue.string)),
            "password_protected": .bool(link.password != nil), "expires_at": optional(link.expiresAt.map { WarpLinkTime.format($0) }),
            "is_active": .bool(link.isActive), "match_window_hours": link.matchWindowHours.map { .int(Int64($0)) } ?? .null,
            "created_at": .string(WarpLinkTime.format(link.createdAt)), "updated_at": .string(WarpLinkTime.format(link.updatedAt)),
        ]
    }

    /// A click with its claim state.
    static func click(_ click: ClickRecord) -> JSONValue {
        [
            "id": .string(click.id), "link_id": .string(click.linkID), "app_id": optional(click.appID), "source": .string(click.source.rawValue),
            "ip": optional(click.ip), "accept_language": optional(click.acceptLanguage),
            "language": optional(click.language), "timezone": optional(click.timezone),
            "timezone_offset": click.timezoneOffset.map { .int(Int64($0)) } ?? .null, "device_id": optional(click.deviceID),
            "fingerprint": optional(click.fingerprint), "user_agent": optional(click.userAgent),
            "tap_id": optional(click.tapID), "destination_url": optional(click.destinationURL),
            "ios_url": optional(click.iosURL), "android_url": optional(click.androidURL),
            "custom_params": click.customParams, "clicked_at": .string(WarpLinkTime.format(click.clickedAt)),
            "claimed": .bool(click.claimedBy != nil), "claimed_by": optional(click.claimedBy),
            "claimed_at": optional(click.claimedAt.map { WarpLinkTime.format($0) }),
        ]
    }

    /// An install record.
    static func install(_ install: InstallRecord) -> JSONValue {
        [
            "install_id": .string(install.id), "app_id": optional(install.appID), "platform": optional(install.platform),
            "sdk_version": optional(install.sdkVersion), "device_id": optional(install.deviceID),
            "is_reinstall": install.isReinstall.map(JSONValue.bool) ?? .null, "outcome": .string(install.outcome), "matched": .bool(install.matched),
            "match_type": optional(install.matchType), "match_confidence": install.matchConfidence.map(JSONValue.double) ?? .null,
            "link_id": optional(install.linkID), "click_id": optional(install.clickID),
            "tap_id": optional(install.tapID), "ip": optional(install.ip), "source": .string(install.source),
            "created_at": .string(WarpLinkTime.format(install.createdAt)),
        ]
    }
}
