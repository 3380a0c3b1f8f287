import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// Control-plane routes under `/__admin/projects/{id}/warplink`: seed and inspect apps, keys,
/// custom domains, links, clicks, installs and matching settings.
struct WarpLinkAdmin {
    let state: WarpLinkState
    var defaults: MatchingSettings { state.defaultSettings }

    func all() -> [Route] {
        var routes: [Route] = []

        // MARK: Settings
        routes.append(Route(.get, "/settings") { _, context in
            let project = try project(context)
            let settings = try await context.database.read { try WarpLinkStore.settings(project, defaults: defaults, $0) }
            return .json(settings)
        })
        routes.append(Route(.put, "/settings") { request, context in
            let project = try project(context)
            let patch = try object(request)
            let settings = try await context.database.write { connection -> MatchingSettings in
                var merged = try JSONValue.from(try WarpLinkStore.settings(project, defaults: defaults, connection)).objectValue ?? [:]
                for (key, value) in patch {
                    guard merged.keys.contains(key) else { throw AdminError.badRequest("Unknown field `\(key)`.", code: "unknown_field") }
                    merged[key] = value
                }
                let settings: MatchingSettings
                do { settings = try JSONValue.object(merged).decode(MatchingSettings.self) } catch {
                    throw AdminError.badRequest("Settings have a wrong type: \(error)", code: "wrong_type")
                }
                if let problem = settings.validationProblem { throw AdminError.badRequest(problem, code: "invalid_value") }
                try WarpLinkStore.saveSettings(settings, project: project, connection)
                return settings
            }
            return .json(settings)
        })

        // MARK: Apps
        routes.append(Route(.post, "/apps") { request, context in
            let project = try project(context)
            let input = try decode(AdminInputs.App.self, request)
            let now = context.now
            let app = try await context.database.write { connection -> AppRecord in
                let app = try withGenerator(context, project) { try AdminInputs.app(input, project: project, now: now, generator: &$0, connection) }
                try WarpLinkStore.insert(app, project: project, connection)
                return app
            }
            return .json(status: 201, bytes: Self.render(app).encoded())
        })
        routes.append(Route(.get, "/apps") { _, context in
            let project = try project(context)
            let apps = try await context.database.read { try WarpLinkStore.apps(project, $0) }
            return .json(status: 200, bytes: JSONValue.object(["apps": .array(apps.map(Self.render))]).encoded())
        })
        routes.append(Route(.delete, "/apps/{appId}") { _, context in
            let project = try project(context)
            let id = context.parameter("appId").lowercased()
            let deleted = try await context.database.write { connection -> Bool in
                // Keys, domains and links bound to a missing app would act for nothing; make the caller unbind them first.
                for table in ["warplink_keys", "warplink_domains", "warplink_links"] {
                    if try connection.scalar("SELECT 1 FROM \(table) WHERE project_id = ? AND app_id = ? LIMIT 1", project, id).int != nil {
                        throw AdminError(status: 409, code: "conflict", message: "App `\(id)` still has \(table.dropFirst("warplink_".count)); delete them first.")
                    }
                }
                return try WarpLinkStore.deleteApp(project, id: id, connection)
            }
            guard deleted else { throw AdminError.notFound("App `\(id)`") }
            return .empty(204)
        })

        // MARK: Keys
        routes.append(Route(.post, "/keys") { request, context in
            let project = try project(context)
            let input = try decode(AdminInputs.Key.self, request)
            let now = context.now
            let key = try await context.database.write { connection -> KeyRecord in
                let key = try withGenerator(context, project) { try AdminInputs.key(input, project: project, now: now, generator: &$0, connection) }
                try WarpLinkStore.insert(key, connection)
                return key
            }
            state.remember(key: key.value, project: project)
            return .json(status: 201, bytes: Self.render(key).encoded())
        })
        routes.append(Route(.get, "/keys") { _, context in
            let project = try project(context)
            let keys = try await context.database.read { try WarpLinkStore.keys(project, $0) }
            return .json(status: 200, bytes: JSONValue.object(["keys": .array(keys.map(Self.render))]).encoded())
        })
        for (action, newState) in [("revoke", "revoked"), ("restore", "active")] {
            routes.append(Route(.post, "/keys/{value}/" + action) { _, context in
                let project = try project(context)
                let value = context.parameter("value")
                let now = context.now
                let key = try await context.database.write { connection -> KeyRecord? in
                    guard try WarpLinkStore.setKeyState(project, value: value, state: newState, at: now, connection) else { return nil }
                    return try WarpLinkStore.key(value, connection)
                }
                guard let key else { throw AdminError.notFound("Key `\(value)`") }
                return .json(status: 200, bytes: Self.render(key).encoded())
            })
        }
        routes.append(Route(.delete, "/keys/{value}") { _, context in
            let project = try project(context)
            let value = context.parameter("value")
            guard try await context.database.write({ try WarpLinkStore.deleteKey(project, value: value, $0) }) else { throw AdminError.notFound("Key `\(value)`") }
            state.forget(key: value)
            return .empty(204)
        })

        // MARK: Domains
        routes.append(Route(.post, "/domains") { request, context in
            let project = try project(context)
            let input = try decode(AdminInputs.Domain.self, request)
            let now = context.now
            let domain = try await context.database.write { connection -> DomainRecord in
                let domain = try AdminInputs.domain(input, project: project, now: now, connection)
                try WarpLinkStore.insert(domain, project: project, connection)
                return domain
            }
            try await reloadDomains(context)
            return .json(status: 201, bytes: Self.render(domain).encoded())
        })
        routes.append(Route(.get, "/domains") { _, context in
            let project = try project(context)
            let domains = try await context.database.read { try WarpLinkStore.domains(project, $0) }
            return .json(status: 200, bytes: JSONValue.object(["domains": .array(domains.map(Self.render))]).encoded())
        })
        for (action, newState) in [("verify", "verified"), ("suspend", "suspended")] {
            routes.append(Route(.post, "/domains/{hostname}/" + action) { _, context in
                let project = try project(context)
                let host = context.parameter("hostname").lowercased()
                let domain = try await context.database.write { connection -> DomainRecord? in
                    guard try WarpLinkStore.setDomainState(project, hostname: host, state: newState, connection) else { return nil }
                    return try WarpLinkStore.domain(project, hostname: host, connection)
                }
                guard let domain else { throw AdminError.notFound("Domain `\(host)`") }
                return .json(status: 200, bytes: Self.render(domain).encoded())
            })
        }
        routes.append(Route(.delete, "/domains/{hostname}") { _, context in
            let project = try project(context)
            let host = context.parameter("hostname").lowercased()
            guard try await context.database.write({ try WarpLinkStore.deleteDomain(project, hostname: host, $0) }) else { throw AdminError.notFound("Domain `\(host)`") }
            try await reloadDomains(context)
            return .empty(204)
        })

        // MARK: Links
        routes.append(Route(.post, "/links") { request, context in
            let project = try project(context)
            let input = try decode(AdminInputs.Link.self, request)
            let now = context.now
            let link = try await context.database.write { connection -> LinkRecord in
                let link = try withGenerator(context, project) { try AdminInputs.link(input, project: project, now: now, existing: nil, generator: &$0, connection) }
                try WarpLinkStore.save(link, project: project, connection)
                return link
            }
            return .json(status: 201, bytes: Self.render(link).encoded())
        })
        routes.append(Route(.get, "/links") { request, context in
            let project = try project(context)
            let page = try Self.linkPage(request)
            let (links, total) = try await context.database.read { connection in
                (try page.map { try WarpLinkStore.links(project, limit: $0.limit, offset: $0.offset, connection) } ?? WarpLinkStore.links(project, connection),
                 try WarpLinkStore.linkCount(project, connection))
            }
            return .json(status: 200, bytes: JSONValue.object(["links": .array(links.map(Self.render)), "total": .int(Int64(total))]).encoded())
        })
        routes.append(Route(.get, "/links/{linkId}") { _, context in
            let project = try project(context)
            let id = context.parameter("linkId").lowercased()
            guard let link = try await context.database.read({ try WarpLinkStore.link(project, id: id, $0) }) else { throw AdminError.notFound("Link `\(id)`") }
            return .json(status: 200, bytes: Self.render(link).encoded())
        })
        routes.append(Route(.patch, "/links/{linkId}") { request, context in
            let project = try project(context)
            let id = context.parameter("linkId").lowercased()
            let patch = try object(request)
            let now = context.now
            let link = try await context.database.write { connection -> LinkRecord in
                guard let existing = try WarpLinkStore.link(project, id: id, connection) else { throw AdminError.notFound("Link `\(id)`") }
                var members = AdminInputs.input(from: existing).objectValue ?? [:]
                for (key, value) in patch {
                    guard Self.linkFields.contains(key), key != "id" else { throw AdminError.badRequest("Unknown or read-only field `\(key)`.", code: "unknown_field") }
                    members[key] = value == .null ? nil : value
                }
                let input: AdminInputs.Link
                do { input = try JSONValue.object(members).decode(AdminInputs.Link.self) } catch let error as DecodingError {
                    throw AdminError(JSONBody.describe(error))
                }
                var generator = IDGenerator()
                let link = try AdminInputs.link(input, project: project, now: now, existing: existing, generator: &generator, connection)
                try WarpLinkStore.save(link, project: project, connection)
                return link
            }
            return .json(status: 200, bytes: Self.render(link).encoded())
        })
        routes.append(Route(.post, "/links/{linkId}/expire") { _, context in
            let project = try project(context)
            let id = context.parameter("linkId").lowercased()
            let now = context.now
            let link = try await context.database.write { connection -> LinkRecord in
                guard var link = try WarpLinkStore.link(project, id: id, connection) else { throw AdminError.notFound("Link `\(id)`") }
                link.expiresAt = now
                link.updatedAt = now
                try WarpLinkStore.save(link, project: project, connection)
                return link
            }
            return .json(status: 200, bytes: Self.render(link).encoded())
        })
        routes.append(Route(.delete, "/links/{linkId}") { _, context in
            let project = try project(context)
            let id = context.parameter("linkId").lowercased()
            guard try await context.database.write({ try WarpLinkStore.deleteLink(project, id: id, $0) }) else { throw AdminError.notFound("Link `\(id)`") }
            return .empty(204)
        })

        // MARK: Clicks
        routes.append(Route(.post, "/clicks") { request, context in
            let project = try project(context)
            let input = try decode(AdminInputs.Click.self, request)
            let now = context.now
            let click = try await context.database.write { connection -> ClickRecord in
                let settings = try WarpLinkStore.settings(project, defaults: defaults, connection)
                let click = try withGenerator(context, project) { try AdminInputs.click(input, project: project, now: now, settings: settings, generator: &$0, connection) }
                try WarpLinkStore.insert(click, project: project, connection)
                return click
            }
            return .json(status: 201, bytes: Self.render(click).encoded())
        })
        routes.append(Route(.get, "/clicks") { request, context in
            let project = try project(context)
            var linkID: String?, source: String?, limit = 500
            for (name, value) in request.queryItems {
                switch name {
                case "link_id": linkID = value.lowercased()
                case "source":
                    guard ["redirect", "resolve", "seed"].contains(value) else { throw AdminError.badRequest("`source` must be redirect, resolve or seed.") }
                    source = value
                case "limit":
                    guard let number = Int(value), (1...10_000).contains(number) else { throw AdminError.badRequest("`limit` must be 1–10000.") }
                    limit = number
                default: throw AdminError.badRequest("Unknown query parameter `\(name)`; use link_id, source, limit.")
                }
            }
            let clicks = try await context.database.read { [linkID, source, limit] in try WarpLinkStore.clicks(project, linkID: linkID, source: source, limit: limit, $0) }
            return .json(status: 200, bytes: JSONValue.object(["clicks": .array(clicks.map(Self.render))]).encoded())
        })

        // MARK: Installs
        routes.append(Route(.post, "/installs") { request, context in
            let project = try project(context)
            let input = try decode(AdminInputs.Install.self, request)
            let now = context.now
            let install = try await context.database.write { connection -> InstallRecord in
                let install = try withGenerator(context, project) { try AdminInputs.install(input, project: project, now: now, generator: &$0, connection) }
                try WarpLinkStore.insert(install, project: project, connection)
                return install
            }
            return .json(status: 201, bytes: Self.render(install).encoded())
        })
        routes.append(Route(.get, "/installs") { request, context in
            let project = try project(context)
            var limit = 500
            for (name, value) in request.queryItems {
                guard name == "limit", let number = Int(value), (1...10_000).contains(number) else {
                    throw AdminError.badRequest("The only query parameter is `limit` (1–10000).")
                }
                limit = number
            }
            let installs = try await context.database.read { [limit] in try WarpLinkStore.installs(project, limit: limit, $0) }
            return .json(status: 200, bytes: JSONValue.object(["installs": .array(installs.map(Self.render))]).encoded())
        })
        return routes
    }

    // MARK: Helpers

    /// `limit` (1–10000) and `offset` of a links page; nil (every link) when neither is given.
    static func linkPage(_ request: Request) throws -> (limit: Int, offset: Int)? {
        var limit: Int?, offset: Int?
        for (name, value) in request.queryItems {
            switch name {
            case "limit":
                guard let number = Int(value), (1...10_000).contains(number) else { throw AdminError.badRequest("`limit` must be 1–10000.") }
                limit = number
            case "offset":
                guard let number = Int(value), number >= 0 else { throw AdminError.badRequest("`offset` must be 0 or more.") }
                offset = number
            default: throw AdminError.badRequest("Unknown query parameter `\(name)`; use limit, offset.")
            }
        }
        guard limit != nil || offset != nil else { return nil }
        return (limit ?? 500, offset ?? 0)
    }

    static let linkFields: Set<String> = ["id", "slug", "domain", "destination_url", "ios_url", "ios_fallback_url", "android_url",
                                          "android_fallback_url", "custom_params", "app_id", "tags", "password", "expires_at", "is_active",
                                          "match_window_hours", "created_at"]

    private func project(_ context: EmulatorContext) throws -> ProjectID {
        guard let project = context.projectID else { throw AdminError.notFound("Project") }
        return project
    }

    private func decode<T: Codable>(_ type: T.Type, _ request: Request) throws -> T {
        do { return try JSONBody.decode(type, from: request, rejectUnknownKeys: true) } catch { throw AdminError(error) }
    }

    private func object(_ request: Request) throws -> [String: JSONValue] {
        guard let value = try? JSONValue.parse(request.body) else { throw AdminError.badRequest("The request body is not valid JSON.", code: "invalid_json") }
        guard case .object(let members) = value else { throw AdminError.badRequest("The request body must be a JSON object.", code: "wrong_type") }
        return members
    }

    /// Runs `body` with the project's id generator (seeded projects get repeatable ids).
    private func withGenerator<T>(_ context: EmulatorContext, _ project: ProjectID, _ body: (inout IDGenerator) throws -> T) throws -> T {
        try context.services.generateIDs(for: project) { generator in Result { try body(&generator) } }.get()
    }

    private func reloadDomains(_ context: EmulatorContext) async throws {
        let owners = try await context.database.read { try WarpLinkStore.allDomainOwners($0) }
        state.setDomains(owners)
    }

    // MARK: Rendering

    static func render(_ app: AppRecord) -> JSONValue {
        ["id": .string(app.id), "name": .string(app.name), "handle": .string(app.handle), "domain": .string(app.handleDomain),
         "ios_bundle_id": WarpLinkWire.optional(app.iosBundleID), "android_package_name": WarpLinkWire.optional(app.androidPackageName),
         "created_at": .string(WarpLinkTime.format(app.createdAt))]
    }

    static func render(_ key: KeyRecord) -> JSONValue {
        ["value": .string(key.value), "kind": .string(key.kind), "scopes": .array(key.scopes.map(JSONValue.string)),
         "app_id": WarpLinkWire.optional(key.appID), "state": .string(key.state), "name": WarpLinkWire.optional(key.name),
         "created_at": .string(WarpLinkTime.format(key.createdAt)), "revoked_at": WarpLinkWire.optional(key.revokedAt.map { WarpLinkTime.format($0) })]
    }

    static func render(_ domain: DomainRecord) -> JSONValue {
        ["hostname": .string(domain.hostname), "state": .string(domain.state), "app_id": WarpLinkWire.optional(domain.appID),
         "created_at": .string(WarpLinkTime.format(domain.createdAt))]
    }

    static func render(_ link: LinkRecord) -> JSONValue {
        ["id": .string(link.id), "slug": .string(link.slug), "domain": .string(link.domain), "short_url": .string(link.shortURL),
         "destination_url": .string(link.destinationURL), "ios_url": WarpLinkWire.optional(link.iosURL),
         "ios_fallback_url": WarpLinkWire.optional(link.iosFallbackURL), "android_url": WarpLinkWire.optional(link.androidURL),
         "android_fallback_url": WarpLinkWire.optional(link.androidFallbackURL), "custom_params": link.customParams,
         "app_id": WarpLinkWire.optional(link.appID), "tags": .array(link.tags.map(JSONValue.string)),
         "password_protected": .bool(link.password != nil), "expires_at": WarpLinkWire.optional(link.expiresAt.map { WarpLinkTime.format($0) }),
         "is_active": .bool(link.isActive), "match_window_hours": link.matchWindowHours.map { .int(Int64($0)) } ?? .null,
         "created_at": .string(WarpLinkTime.format(link.createdAt)), "updated_at": .string(WarpLinkTime.format(link.updatedAt))]
    }

    static func render(_ click: ClickRecord) -> JSONValue {
        ["id": .string(click.id), "link_id": .string(click.linkID), "app_id": WarpLinkWire.optional(click.appID), "source": .string(click.source),
         "ip": WarpLinkWire.optional(click.ip), "accept_language": WarpLinkWire.optional(click.acceptLanguage),
         "language": WarpLinkWire.optional(click.language), "timezone": WarpLinkWire.optional(click.timezone),
         "timezone_offset": click.timezoneOffset.map { .int(Int64($0)) } ?? .null, "device_id": WarpLinkWire.optional(click.deviceID),
         "fingerprint": WarpLinkWire.optional(click.fingerprint), "user_agent": WarpLinkWire.optional(click.userAgent),
         "tap_id": WarpLinkWire.optional(click.tapID), "destination_url": WarpLinkWire.optional(click.destinationURL),
         "ios_url": WarpLinkWire.optional(click.iosURL), "android_url": WarpLinkWire.optional(click.androidURL),
         "custom_params": click.customParams, "clicked_at": .string(WarpLinkTime.format(click.clickedAt)),
         "claimed": .bool(click.claimedBy != nil), "claimed_by": WarpLinkWire.optional(click.claimedBy),
         "claimed_at": WarpLinkWire.optional(click.claimedAt.map { WarpLinkTime.format($0) })]
    }

    static func render(_ install: InstallRecord) -> JSONValue {
        ["install_id": .string(install.id), "app_id": WarpLinkWire.optional(install.appID), "platform": WarpLinkWire.optional(install.platform),
         "sdk_version": WarpLinkWire.optional(install.sdkVersion), "device_id": WarpLinkWire.optional(install.deviceID),
         "is_reinstall": install.isReinstall.map(JSONValue.bool) ?? .null, "outcome": .string(install.outcome), "matched": .bool(install.matched),
         "match_type": WarpLinkWire.optional(install.matchType), "match_confidence": install.matchConfidence.map(JSONValue.double) ?? .null,
         "link_id": WarpLinkWire.optional(install.linkID), "click_id": WarpLinkWire.optional(install.clickID),
         "tap_id": WarpLinkWire.optional(install.tapID), "ip": WarpLinkWire.optional(install.ip), "source": .string(install.source),
         "created_at": .string(WarpLinkTime.format(install.createdAt))]
    }
}
