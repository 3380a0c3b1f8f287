import EmulatorCore
import Foundation
import SQLiteStore

/// Control-plane bodies (snake_case, like the Link object they seed) and their validation into
/// records. Fixtures go through the same builders, so a fixture cannot hold what the API refuses.
enum AdminInputs {
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

    static func bad(_ message: String) -> AdminError { AdminError.badRequest(message, code: "invalid_value") }

    static func parseDate(_ text: String?, field: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = Timestamp.parse(text) else { throw bad("`\(field)` must be an ISO 8601 date-time; got `\(text)`.") }
        return date
    }

    static func checkURL(_ url: String?, field: String, web: Bool = false) throws {
        guard let url else { return }
        guard url.utf8.count <= 4096, let colon = url.firstIndex(of: ":"), colon != url.startIndex,
              url[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }), !url.contains(" ") else {
            throw bad("`\(field)` must be an absolute URL; got `\(url)`.")
        }
        if web && !(url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://")) {
            throw bad("`\(field)` must be an http or https URL.")
        }
    }

    // MARK: Builders

    static func app(_ input: App, project: ProjectID, now: Date, generator: inout IDGenerator, _ connection: SQLiteConnection) throws -> AppRecord {
        guard !input.name.isEmpty, input.name.utf8.count <= 200 else { throw bad("`name` must be 1–200 characters.") }
        let handle = input.handle ?? "app-" + generator.lowerAlphanumeric(10)
        guard WarpLinkNames.isValidHandle(handle) else { throw bad("`handle` must be 1–63 characters of a–z, 0–9 and '-'.") }
        if try WarpLinkStore.project(forHandle: handle, connection) != nil {
            throw AdminError(status: 409, code: "conflict", message: "Handle `\(handle)` is taken.")
        }
        let id = input.id ?? generator.uuid()
        guard WarpLinkNames.isUUID(id) else { throw bad("`id` must be a UUID.") }
        if try WarpLinkStore.app(project, id: id.lowercased(), connection) != nil {
            throw AdminError(status: 409, code: "conflict", message: "App `\(id)` exists.")
        }
        for (field, value) in [("ios_bundle_id", input.iosBundleID), ("android_package_name", input.androidPackageName)] {
            if let value, value.isEmpty || value.utf8.count > 255 { throw bad("`\(field)` must be 1–255 characters.") }
        }
        return AppRecord(id: id.lowercased(), name: input.name, handle: handle, iosBundleID: input.iosBundleID,
                         androidPackageName: input.androidPackageName, createdAt: now)
    }

    static func key(_ input: Key, project: ProjectID, now: Date, generator: inout IDGenerator, _ connection: SQLiteConnection) throws -> KeyRecord {
        let kind = input.kind ?? "sdk"
        guard ["sdk", "api"].contains(kind) else { throw bad("`kind` must be sdk or api.") }
        let value = input.value ?? "wl_test_" + generator.alphanumeric(32)
        guard WarpLinkNames.isWellFormedKey(value) else { throw bad("`value` must match ^wl_(live|test)_[a-zA-Z0-9]{32}$.") }
        let state = input.state ?? "active"
        guard ["active", "revoked"].contains(state) else { throw bad("`state` must be active or revoked.") }
        var scopes = KeyRecord.sdkScopes
        if kind == "api" {
            scopes = input.scopes ?? ["links:read"]
            if let unknown = scopes.first(where: { !KeyRecord.apiScopes.contains($0) }) {
                throw bad("Unknown scope `\(unknown)`; allowed: \(KeyRecord.apiScopes.sorted().joined(separator: ", ")).")
            }
            if input.appID != nil { throw bad("Only SDK keys can be bound to an app.") }
        } else if let given = input.scopes, Set(given) != Set(KeyRecord.sdkScopes) {
            throw bad("SDK keys have the fixed scopes links:read and attribution:write.")
        }
        if let appID = input.appID, try WarpLinkStore.app(project, id: appID.lowercased(), connection) == nil {
            throw AdminError.notFound("App `\(appID)`")
        }
        if try WarpLinkStore.key(value, connection) != nil || (try connection.scalar("SELECT 1 FROM project_credentials WHERE platform = 'warplink' AND value = ? AND project_id != ?", value, project).int) != nil {
            throw AdminError(status: 409, code: "conflict", message: "Key `\(value)` exists.")
        }
        return KeyRecord(projectID: project, value: value, kind: kind, scopes: scopes, appID: input.appID?.lowercased(), state: state,
                         name: input.name, createdAt: now, revokedAt: state == "revoked" ? now : nil)
    }

    static func domain(_ input: Domain, project: ProjectID, now: Date, _ connection: SQLiteConnection) throws -> DomainRecord {
        let host = input.hostname.lowercased()
        guard WarpLinkNames.isValidCustomDomain(host) else {
            throw bad("`hostname` must be a DNS name with a dot, not an IP address, localhost or a WarpLink host.")
        }
        let state = input.state ?? "verified"
        guard ["verified", "suspended"].contains(state) else { throw bad("`state` must be verified or suspended.") }
        if let appID = input.appID, try WarpLinkStore.app(project, id: appID.lowercased(), connection) == nil {
            throw AdminError.notFound("App `\(appID)`")
        }
        if try connection.scalar("SELECT 1 FROM warplink_domains WHERE hostname = ?", host).int != nil {
            throw AdminError(status: 409, code: "conflict", message: "Domain `\(host)` is already configured.")
        }
        return DomainRecord(hostname: host, state: state, appID: input.appID?.lowercased(), createdAt: now)
    }

    static func link(_ input: Link, project: ProjectID, now: Date, existing: LinkRecord?, generator: inout IDGenerator,
                     _ connection: SQLiteConnection) throws -> LinkRecord {
        let slug = input.slug ?? generator.alphanumeric(8)
        guard WarpLinkNames.isValidSlug(slug) else { throw bad("`slug` must be 1–128 characters of A–Z, a–z, 0–9, '-', '_' and '.'.") }
        let domain = (input.domain ?? WarpLinkNames.sharedDomain).lowercased()
        if domain != WarpLinkNames.sharedDomain {
            var isHandle = false
            if domain.hasSuffix("." + WarpLinkNames.sharedDomain) {
                isHandle = try WarpLinkStore.project(forHandle: String(domain.dropLast(WarpLinkNames.sharedDomain.count + 1)), connection) == project
            }
            if !isHandle, try WarpLinkStore.domain(project, hostname: domain, connection) == nil {
                throw bad("`domain` must be aplnk.to, the handle domain of one of this project's apps, or one of its custom domains; got `\(domain)`.")
            }
        }
        try checkURL(input.destinationURL, field: "destination_url", web: true)
        try checkURL(input.iosURL, field: "ios_url")
        try checkURL(input.iosFallbackURL, field: "ios_fallback_url")
        try checkURL(input.androidURL, field: "android_url")
        try checkURL(input.androidFallbackURL, field: "android_fallback_url")
        let params = input.customParams ?? [:]
        guard case .object(let members) = params else { throw bad("`custom_params` must be an object.") }
        for (name, value) in members {
            switch value {
            case .string, .int, .double, .bool: continue
            default: throw bad("`custom_params.\(name)` must be a string, number or boolean.")
            }
        }
        if let hours = input.matchWindowHours, !(1...72).contains(hours) { throw bad("`match_window_hours` must be 1–72 (values over 24 are clamped to 24 when matching).") }
        if let appID = input.appID, try WarpLinkStore.app(project, id: appID.lowercased(), connection) == nil {
            throw AdminError.notFound("App `\(appID)`")
        }
        let id = existing?.id ?? input.id?.lowercased() ?? generator.uuid()
        guard WarpLinkNames.isUUID(id) else { throw bad("`id` must be a UUID.") }
        if existing == nil, try WarpLinkStore.link(project, id: id, connection) != nil {
            throw AdminError(status: 409, code: "conflict", message: "Link `\(id)` exists.")
        }
        if let clash = try WarpLinkStore.link(project, domain: domain, slug: slug, connection), clash.id != id {
            throw AdminError(status: 409, code: "conflict", message: "`\(domain)/\(slug)` is already link `\(clash.id)`.")
        }
        let createdAt = try parseDate(input.createdAt, field: "created_at") ?? existing?.createdAt ?? now
        return LinkRecord(id: id, appID: input.appID?.lowercased(), slug: slug, domain: domain, destinationURL: input.destinationURL,
                          iosURL: input.iosURL, iosFallbackURL: input.iosFallbackURL, androidURL: input.androidURL,
                          androidFallbackURL: input.androidFallbackURL, customParams: params, tags: input.tags ?? [],
                          password: input.password.flatMap { $0.isEmpty ? nil : $0 }, expiresAt: try parseDate(input.expiresAt, field: "expires_at"),
                          isActive: input.isActive ?? true, matchWindowHours: input.matchWindowHours, createdAt: createdAt, updatedAt: now)
    }

    /// The link's stored fields as a `Link` input, so a PATCH can overlay changes and re-validate.
    static func input(from link: LinkRecord) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(link.id), "slug": .string(link.slug), "domain": .string(link.domain), "destination_url": .string(link.destinationURL),
            "custom_params": link.customParams, "tags": .array(link.tags.map(JSONValue.string)), "is_active": .bool(link.isActive),
            "created_at": .string(WarpLinkTime.format(link.createdAt)),
        ]
        let optionals: [(String, String?)] = [("ios_url", link.iosURL), ("ios_fallback_url", link.iosFallbackURL), ("android_url", link.androidURL),
                                              ("android_fallback_url", link.androidFallbackURL), ("app_id", link.appID), ("password", link.password),
                                              ("expires_at", link.expiresAt.map { WarpLinkTime.format($0) })]
        for (name, value) in optionals { if let value { members[name] = .string(value) } }
        if let hours = link.matchWindowHours { members["match_window_hours"] = .int(Int64(hours)) }
        return .object(members)
    }

    static func click(_ input: Click, project: ProjectID, now: Date, settings: MatchingSettings, generator: inout IDGenerator,
                      _ connection: SQLiteConnection) throws -> ClickRecord {
        let link: LinkRecord
        if let id = input.linkID {
            guard let found = try WarpLinkStore.link(project, id: id.lowercased(), connection) else { throw AdminError.notFound("Link `\(id)`") }
            link = found
        } else if let slug = input.slug {
            let domain = (input.domain ?? WarpLinkNames.sharedDomain).lowercased()
            guard let found = try WarpLinkStore.link(project, domain: domain, slug: slug, connection) else { throw AdminError.notFound("Link `\(domain)/\(slug)`") }
            link = found
        } else {
            throw bad("Give `slug` (and optionally `domain`) or `link_id`.")
        }
        let ip = ClientAddress.reduce(input.ip ?? "127.0.0.1")
        guard ClientAddress.kind(of: ip) != .invalid else { throw bad("`ip` must be an IPv4 or IPv6 address.") }
        if let zone = input.timezone, !TimeZones.isValid(zone) { throw bad("`timezone` must be an IANA time zone name.") }
        if let offset = input.timezoneOffset, !(-900...900).contains(offset) { throw bad("`timezone_offset` must be -900…900 minutes.") }
        if let device = input.deviceID, !WarpLinkNames.isUUID(device) { throw bad("`device_id` must be a UUID.") }
        if let fingerprint = input.fingerprint, fingerprint.isEmpty || fingerprint.utf8.count > 128 { throw bad("`fingerprint` must be 1–128 characters.") }
        if input.clickedAt != nil && input.ageSeconds != nil { throw bad("Give `clicked_at` or `age_seconds`, not both.") }
        if let age = input.ageSeconds, !(age.isFinite && age >= 0 && age <= 365 * 86_400) { throw bad("`age_seconds` must be 0 to one year.") }
        let clickedAt = try parseDate(input.clickedAt, field: "clicked_at") ?? now.addingTimeInterval(-(input.ageSeconds ?? 0))
        let tapped = ParameterSet((input.params ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        let shaped = LinkReshaper.reshape(link, tapped: tapped)
        return ClickRecord(id: generator.uuid(), linkID: link.id, appID: link.appID, source: "seed", ip: ip, acceptLanguage: input.acceptLanguage,
                           language: LanguageNormalizer.normalize(input.acceptLanguage, mode: settings.languageMode), timezone: input.timezone,
                           timezoneOffset: input.timezoneOffset ?? input.timezone.flatMap { TimeZones.jsOffset($0, at: clickedAt) },
                           deviceID: input.deviceID, fingerprint: input.fingerprint?.lowercased(), userAgent: input.userAgent, tapID: nil,
                           destinationURL: shaped.destinationURL, iosURL: shaped.iosURL, androidURL: shaped.androidURL,
                           customParams: shaped.customParams.json, clickedAt: clickedAt, claimedBy: nil, claimedAt: nil)
    }

    static func install(_ input: Install, project: ProjectID, now: Date, generator: inout IDGenerator, _ connection: SQLiteConnection) throws -> InstallRecord {
        if let device = input.deviceID, !WarpLinkNames.isUUID(device) { throw bad("`device_id` must be a UUID.") }
        var linkID = input.linkID?.lowercased()
        if linkID == nil, let slug = input.slug {
            let domain = (input.domain ?? WarpLinkNames.sharedDomain).lowercased()
            guard let found = try WarpLinkStore.link(project, domain: domain, slug: slug, connection) else { throw AdminError.notFound("Link `\(domain)/\(slug)`") }
            linkID = found.id
        }
        if let platform = input.platform, !["ios", "android"].contains(platform) { throw bad("`platform` must be ios or android.") }
        let matchType = input.matchType ?? (linkID == nil ? nil : "deterministic")
        if let matchType, !["deterministic", "probabilistic"].contains(matchType) { throw bad("`match_type` must be deterministic or probabilistic.") }
        if let confidence = input.matchConfidence, !(0...1).contains(confidence) { throw bad("`match_confidence` must be 0–1.") }
        var appID = input.appID?.lowercased()
        if let given = appID {
            guard try WarpLinkStore.app(project, id: given, connection) != nil else { throw AdminError.notFound("App `\(given)`") }
        } else {
            let apps = try WarpLinkStore.apps(project, connection)
            if apps.count == 1 { appID = apps[0].id }
        }
        let id = input.id?.lowercased() ?? generator.uuid()
        guard WarpLinkNames.isUUID(id) else { throw bad("`id` must be a UUID.") }
        return InstallRecord(id: id, appID: appID, platform: input.platform, sdkVersion: input.sdkVersion, deviceID: input.deviceID,
                             isReinstall: input.isReinstall, outcome: linkID == nil ? "no_match" : "device_id", matched: linkID != nil,
                             matchType: matchType, matchConfidence: input.matchConfidence ?? (linkID == nil ? nil : 1.0), linkID: linkID,
                             clickID: nil, tapID: nil, ip: nil, source: "seed", createdAt: try parseDate(input.createdAt, field: "created_at") ?? now)
    }
}
