import EmulatorCore
import Foundation

/// Control-plane rules: a seeding body validated into the record it creates, with the checks
/// the store must answer (taken handles, clashing slugs, unknown apps) asked through its typed
/// methods. Each throws the control plane's `AdminError` (400 `invalid_value`, 404, 409 `conflict`).
extension WarpLinkService {
    private static func bad(_ message: String) -> AdminError { AdminError.badRequest(message, code: "invalid_value") }

    private static func parseDate(_ text: String?, field: String) throws -> Date? {
        guard let text else { return nil }
        guard let date = Timestamp.parse(text) else { throw Self.bad("`\(field)` must be an ISO 8601 date-time; got `\(text)`.") }
        return date
    }

    private static func checkURL(_ url: String?, field: String, web: Bool = false) throws {
        guard let url else { return }
        guard url.utf8.count <= 4096, let colon = url.firstIndex(of: ":"), colon != url.startIndex,
            url[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }), !url.contains(" ")
        else {
            throw Self.bad("`\(field)` must be an absolute URL; got `\(url)`.")
        }
        if web && !(url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://")) {
            throw Self.bad("`\(field)` must be an http or https URL.")
        }
    }

    // MARK: Builders

    func app(_ input: AdminInputs.App, generator: inout IDGenerator) throws -> AppRecord {
        guard !input.name.isEmpty, input.name.utf8.count <= 200 else { throw Self.bad("`name` must be 1–200 characters.") }
        let handle = input.handle ?? "app-" + generator.lowerAlphanumeric(10)
        guard WarpLinkNames.isValidHandle(handle) else { throw Self.bad("`handle` must be 1–63 characters of a–z, 0–9 and '-'.") }
        if try store.project(forHandle: handle) != nil {
            throw AdminError(status: 409, code: "conflict", message: "Handle `\(handle)` is taken.")
        }
        let id = input.id ?? generator.uuid()
        guard WarpLinkNames.isUUID(id) else { throw Self.bad("`id` must be a UUID.") }
        if try store.app(project, id: id.lowercased()) != nil {
            throw AdminError(status: 409, code: "conflict", message: "App `\(id)` exists.")
        }
        for (field, value) in [("ios_bundle_id", input.iosBundleID), ("android_package_name", input.androidPackageName)] {
            if let value, value.isEmpty || value.utf8.count > 255 { throw Self.bad("`\(field)` must be 1–255 characters.") }
        }
        return AppRecord(
            id: id.lowercased(), name: input.name, handle: handle, iosBundleID: input.iosBundleID,
            androidPackageName: input.androidPackageName, createdAt: now)
    }

    func key(_ input: AdminInputs.Key, generator: inout IDGenerator) throws -> KeyRecord {
        guard let kind = KeyKind(rawValue: input.kind ?? "sdk") else { throw Self.bad("`kind` must be sdk or api.") }
        let value = input.value ?? WarpLinkNames.liveKey(using: &generator)
        guard WarpLinkNames.isWellFormedKey(value) else { throw Self.bad("`value` must match ^wl_(live|test)_[a-zA-Z0-9]{32}$.") }
        guard let state = KeyState(rawValue: input.state ?? "active") else { throw Self.bad("`state` must be active or revoked.") }
        var scopes = KeyRecord.sdkScopes
        if kind == .api {
            scopes = input.scopes ?? ["links:read"]
            if let unknown = scopes.first(where: { !KeyRecord.apiScopes.contains($0) }) {
                throw Self.bad("Unknown scope `\(unknown)`; allowed: \(KeyRecord.apiScopes.sorted().joined(separator: ", ")).")
            }
            if input.appID != nil { throw Self.bad("Only SDK keys can be bound to an app.") }
        } else if let given = input.scopes, Set(given) != Set(KeyRecord.sdkScopes) {
            throw Self.bad("SDK keys have the fixed scopes links:read and attribution:write.")
        }
        if let appID = input.appID, try store.app(project, id: appID.lowercased()) == nil {
            throw AdminError.notFound("App `\(appID)`")
        }
        if try store.key(value) != nil || store.isIssuedCredential(value, toOtherThan: project) {
            throw AdminError(status: 409, code: "conflict", message: "Key `\(value)` exists.")
        }
        return KeyRecord(
            projectID: project, value: value, kind: kind, scopes: scopes, appID: input.appID?.lowercased(), state: state,
            name: input.name, createdAt: now, revokedAt: state == .revoked ? now : nil)
    }

    func domain(_ input: AdminInputs.Domain) throws -> DomainRecord {
        let host = input.hostname.lowercased()
        guard WarpLinkNames.isValidCustomDomain(host) else {
            throw Self.bad("`hostname` must be a DNS name with a dot, not an IP address, localhost or a WarpLink host.")
        }
        guard let state = DomainState(rawValue: input.state ?? "verified") else { throw Self.bad("`state` must be verified or suspended.") }
        if let appID = input.appID, try store.app(project, id: appID.lowercased()) == nil {
            throw AdminError.notFound("App `\(appID)`")
        }
        if try store.isDomainConfigured(host) {
            throw AdminError(status: 409, code: "conflict", message: "Domain `\(host)` is already configured.")
        }
        return DomainRecord(hostname: host, state: state, appID: input.appID?.lowercased(), createdAt: now)
    }

    func link(_ input: AdminInputs.Link, existing: LinkRecord?, generator: inout IDGenerator) throws -> LinkRecord {
        let slug = input.slug ?? generator.alphanumeric(8)
        guard WarpLinkNames.isValidSlug(slug) else { throw Self.bad("`slug` must be 1–128 characters of A–Z, a–z, 0–9, '-', '_' and '.'.") }
        let domain = (input.domain ?? WarpLinkNames.sharedDomain).lowercased()
        if domain != WarpLinkNames.sharedDomain {
            var isHandle = false
            if let handle = WarpLinkNames.handle(ofHandleDomain: domain) { isHandle = try store.project(forHandle: handle) == project }
            if !isHandle, try store.domain(project, hostname: domain) == nil {
                throw Self.bad("`domain` must be aplnk.to, the handle domain of one of this project's apps, or one of its custom domains; got `\(domain)`.")
            }
        }
        try Self.checkURL(input.destinationURL, field: "destination_url", web: true)
        try Self.checkURL(input.iosURL, field: "ios_url")
        try Self.checkURL(input.iosFallbackURL, field: "ios_fallback_url")
        try Self.checkURL(input.androidURL, field: "android_url")
        try Self.checkURL(input.androidFallbackURL, field: "android_fallback_url")
        let params = input.customParams ?? [:]
        guard case .object(let members) = params else { throw Self.bad("`custom_params` must be an object.") }
        for (name, value) in members {
            switch value {
            case .string, .int, .double, .bool: continue
            default: throw Self.bad("`custom_params.\(name)` must be a string, number or boolean.")
            }
        }
        if let hours = input.matchWindowHours, !(1...72).contains(hours) { throw Self.bad("`match_window_hours` must be 1–72 (values over 24 are clamped to 24 when matching).") }
        if let appID = input.appID, try store.app(project, id: appID.lowercased()) == nil {
            throw AdminError.notFound("App `\(appID)`")
        }
        let id = existing?.id ?? input.id?.lowercased() ?? generator.uuid()
        guard WarpLinkNames.isUUID(id) else { throw Self.bad("`id` must be a UUID.") }
        if existing == nil, try store.link(project, id: id) != nil {
            throw AdminError(status: 409, code: "conflict", message: "Link `\(id)` exists.")
        }
        if let clash = try store.link(project, domain: domain, slug: slug), clash.id != id {
            throw AdminError(status: 409, code: "conflict", message: "`\(domain)/\(slug)` is already link `\(clash.id)`.")
        }
        let createdAt = try Self.parseDate(input.createdAt, field: "created_at") ?? existing?.createdAt ?? now
        return LinkRecord(
            id: id, appID: input.appID?.lowercased(), slug: slug, domain: domain, destinationURL: input.destinationURL,
            iosURL: input.iosURL, iosFallbackURL: input.iosFallbackURL, androidURL: input.androidURL,
            androidFallbackURL: input.androidFallbackURL, customParams: params, tags: input.tags ?? [],
            password: input.password.flatMap { $0.isEmpty ? nil : $0 }, expiresAt: try Self.parseDate(input.expiresAt, field: "expires_at"),
            isActive: input.isActive ?? true, matchWindowHours: input.matchWindowHours, createdAt: createdAt, updatedAt: now)
    }

    /// The link's stored fields as a `Link` input, so a PATCH can overlay changes and re-validate.
    static func linkInput(from link: LinkRecord) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(link.id), "slug": .string(link.slug), "domain": .string(link.domain), "destination_url": .string(link.destinationURL),
            "custom_params": link.customParams, "tags": .array(link.tags.map(JSONValue.string)), "is_active": .bool(link.isActive),
            "created_at": .string(WarpLinkTime.format(link.createdAt)),
        ]
        let optionals: [(String, String?)] = [
            ("ios_url", link.iosURL), ("ios_fallback_url", link.iosFallbackURL), ("android_url", link.androidURL),
            ("android_fallback_url", link.androidFallbackURL), ("app_id", link.appID), ("password", link.password),
            ("expires_at", link.expiresAt.map { WarpLinkTime.format($0) }),
        ]
        for (name, value) in optionals { if let value { members[name] = .string(value) } }
        if let hours = link.matchWindowHours { members["match_window_hours"] = .int(Int64(hours)) }
        return .object(members)
    }

    func click(_ input: AdminInputs.Click, settings: MatchingSettings, generator: inout IDGenerator) throws -> ClickRecord {
        let link: LinkRecord
        if let id = input.linkID {
            guard let found = try store.link(project, id: id.lowercased()) else { throw AdminError.notFound("Link `\(id)`") }
            link = found
        } else if let slug = input.slug {
            let domain = (input.domain ?? WarpLinkNames.sharedDomain).lowercased()
            guard let found = try store.link(project, domain: domain, slug: slug) else { throw AdminError.notFound("Link `\(domain)/\(slug)`") }
            link = found
        } else {
            throw Self.bad("Give `slug` (and optionally `domain`) or `link_id`.")
        }
        let ip = ClientAddress.reduce(input.ip ?? "127.0.0.1")
        guard ClientAddress.kind(of: ip) != .invalid else { throw Self.bad("`ip` must be an IPv4 or IPv6 address.") }
        if let zone = input.timezone, !TimeZones.isValid(zone) { throw Self.bad("`timezone` must be an IANA time zone name.") }
        if let offset = input.timezoneOffset, !(-900...900).contains(offset) { throw Self.bad("`timezone_offset` must be -900…900 minutes.") }
        if let device = input.deviceID, !WarpLinkNames.isUUID(device) { throw Self.bad("`device_id` must be a UUID.") }
        if let fingerprint = input.fingerprint, fingerprint.isEmpty || fingerprint.utf8.count > 128 { throw Self.bad("`fingerprint` must be 1–128 characters.") }
        if input.clickedAt != nil && input.ageSeconds != nil { throw Self.bad("Give `clicked_at` or `age_seconds`, not both.") }
        if let age = input.ageSeconds, !(age.isFinite && age >= 0 && age <= 365 * 86_400) { throw Self.bad("`age_seconds` must be 0 to one year.") }
        let clickedAt = try Self.parseDate(input.clickedAt, field: "clicked_at") ?? now.addingTimeInterval(-(input.ageSeconds ?? 0))
        let tapped = ParameterSet((input.params ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        let shaped = LinkReshaper.reshape(link, tapped: tapped)
        return ClickRecord(
            id: generator.uuid(), linkID: link.id, appID: link.appID, source: .seed, ip: ip, acceptLanguage: input.acceptLanguage,
            language: LanguageNormalizer.normalize(input.acceptLanguage, mode: settings.languageMode), timezone: input.timezone,
            timezoneOffset: input.timezoneOffset ?? input.timezone.flatMap { TimeZones.jsOffset($0, at: clickedAt) },
            deviceID: input.deviceID, fingerprint: input.fingerprint?.lowercased(), userAgent: input.userAgent, tapID: nil,
            destinationURL: shaped.destinationURL, iosURL: shaped.iosURL, androidURL: shaped.androidURL,
            customParams: shaped.customParams.json, clickedAt: clickedAt, claimedBy: nil, claimedAt: nil)
    }

    func install(_ input: AdminInputs.Install, generator: inout IDGenerator) throws -> InstallRecord {
        if let device = input.deviceID, !WarpLinkNames.isUUID(device) { throw Self.bad("`device_id` must be a UUID.") }
        var linkID = input.linkID?.lowercased()
        if linkID == nil, let slug = input.slug {
            let domain = (input.domain ?? WarpLinkNames.sharedDomain).lowercased()
            guard let found = try store.link(project, domain: domain, slug: slug) else { throw AdminError.notFound("Link `\(domain)/\(slug)`") }
            linkID = found.id
        }
        if let platform = input.platform, !["ios", "android"].contains(platform) { throw Self.bad("`platform` must be ios or android.") }
        let matchType = input.matchType ?? (linkID == nil ? nil : "deterministic")
        if let matchType, !["deterministic", "probabilistic"].contains(matchType) { throw Self.bad("`match_type` must be deterministic or probabilistic.") }
        if let confidence = input.matchConfidence, !(0...1).contains(confidence) { throw Self.bad("`match_confidence` must be 0–1.") }
        var appID = input.appID?.lowercased()
        if let given = appID {
            guard try store.app(project, id: given) != nil else { throw AdminError.notFound("App `\(given)`") }
        } else {
            let apps = try store.apps(project)
            if apps.count == 1 { appID = apps[0].id }
        }
        let id = input.id?.lowercased() ?? generator.uuid()
        guard WarpLinkNames.isUUID(id) else { throw Self.bad("`id` must be a UUID.") }
        if try store.install(project, id: id) != nil {
            throw AdminError(status: 409, code: "conflict", message: "Install `\(id)` exists.")
        }
        return InstallRecord(
            id: id, appID: appID, platform: input.platform, sdkVersion: input.sdkVersion, deviceID: input.deviceID,
            isReinstall: input.isReinstall, outcome: linkID == nil ? "no_match" : "device_id", matched: linkID != nil,
            matchType: matchType, matchConfidence: input.matchConfidence ?? (linkID == nil ? nil : 1.0), linkID: linkID,
            clickID: nil, tapID: nil, ip: nil, source: "seed", createdAt: try Self.parseDate(input.createdAt, field: "created_at") ?? now)
    }
}
