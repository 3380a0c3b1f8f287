import EmulatorCore
import Foundation
import HTTPServer
import Storage

/// Control-plane routes under `/__admin/projects/{id}/warplink`: seed and inspect apps, keys,
/// custom domains, links, clicks, installs and matching settings. Bodies decode with `AdminBody`;
/// the rules are `WarpLinkService`'s and the SQL the store's. The core drops the project's cached
/// credentials after every write here, so a revoked or deleted key is refused at once.
struct WarpLinkAdmin {
    /// The configuration file's settings layer.
    let serverSettings: JSONValue
    /// Host routing's domain table, reloaded after domain changes.
    let domains: CustomDomainTable

    /// Every control-plane route, relative to `/__admin/projects/{id}/warplink`.
    func routes() -> [AdminRoute] {
        [
            AdminRoute(.get, "/settings") { try await settings($0, $1) },
            AdminRoute(.put, "/settings") { try await updateSettings($0, $1) },
            AdminRoute(.post, "/apps") { try await createApp($0, $1) },
            AdminRoute(.get, "/apps") { try await listApps($0, $1) },
            AdminRoute(.delete, "/apps/{appId}") { try await deleteApp($0, $1) },
            AdminRoute(.post, "/keys") { try await createKey($0, $1) },
            AdminRoute(.get, "/keys") { try await listKeys($0, $1) },
            AdminRoute(.post, "/keys/{value}/revoke") { try await setKeyState(.revoked, $0, $1) },
            AdminRoute(.post, "/keys/{value}/restore") { try await setKeyState(.active, $0, $1) },
            AdminRoute(.delete, "/keys/{value}") { try await deleteKey($0, $1) },
            AdminRoute(.post, "/domains") { try await addDomain($0, $1) },
            AdminRoute(.get, "/domains") { try await listDomains($0, $1) },
            AdminRoute(.post, "/domains/{hostname}/verify") { try await setDomainState(.verified, $0, $1) },
            AdminRoute(.post, "/domains/{hostname}/suspend") { try await setDomainState(.suspended, $0, $1) },
            AdminRoute(.delete, "/domains/{hostname}") { try await deleteDomain($0, $1) },
            AdminRoute(.post, "/links") { try await createLink($0, $1) },
            AdminRoute(.get, "/links") { try await listLinks($0, $1) },
            AdminRoute(.get, "/links/{linkId}") { try await link($0, $1) },
            AdminRoute(.patch, "/links/{linkId}") { try await updateLink($0, $1) },
            AdminRoute(.post, "/links/{linkId}/expire") { try await expireLink($0, $1) },
            AdminRoute(.delete, "/links/{linkId}") { try await deleteLink($0, $1) },
            AdminRoute(.post, "/clicks") { try await seedClick($0, $1) },
            AdminRoute(.get, "/clicks") { try await listClicks($0, $1) },
            AdminRoute(.post, "/installs") { try await seedInstall($0, $1) },
            AdminRoute(.get, "/installs") { try await listInstalls($0, $1) },
        ]
    }

    // MARK: Settings

    private func settings(_ request: Request, _ context: AdminContext) async throws -> Response {
        let stored = try await read(context) { try $0.store.settingsDocument($0.project) }
        return .json(try MatchingSettings.resolve(server: serverSettings, stored: stored))
    }

    private func updateSettings(_ request: Request, _ context: AdminContext) async throws -> Response {
        let patch = try AdminBody.decode([String: JSONValue].self, from: request)
        let server = serverSettings
        let settings = try await write(context) { service in
            let change = try MatchingSettings.applying(patch, to: try service.store.settingsDocument(service.project), server: server)
            try service.store.saveSettingsDocument(change.document, project: service.project)
            return change.settings
        }
        return .json(settings)
    }

    // MARK: Apps

    private func createApp(_ request: Request, _ context: AdminContext) async throws -> Response {
        let input = try AdminBody.decode(AdminInputs.App.self, from: request)
        let app = try await write(context) { service in
            let app = try withGenerator(context) { try service.app(input, generator: &$0) }
            try service.store.insert(app, project: service.project)
            return app
        }
        return .json(status: 201, bytes: WarpLinkWire.app(app).encoded())
    }

    private func listApps(_ request: Request, _ context: AdminContext) async throws -> Response {
        let apps = try await read(context) { try $0.store.apps($0.project) }
        return .json(status: 200, bytes: JSONValue.object(["apps": .array(apps.map(WarpLinkWire.app))]).encoded())
    }

    private func deleteApp(_ request: Request, _ context: AdminContext) async throws -> Response {
        let id = context.parameter("appId").lowercased()
        let deleted = try await write(context) { service in
            // Keys, domains and links bound to a missing app would act for nothing; make the caller unbind them first.
            if let dependents = try service.store.firstDependent(ofApp: id, project: service.project) {
                throw AdminError(status: 409, code: "conflict", message: "App `\(id)` still has \(dependents); delete them first.")
            }
            return try service.store.deleteApp(service.project, id: id)
        }
        guard deleted else { throw AdminError.notFound("App `\(id)`") }
        return .empty(204)
    }

    // MARK: Keys

    private func createKey(_ request: Request, _ context: AdminContext) async throws -> Response {
        let input = try AdminBody.decode(AdminInputs.Key.self, from: request)
        let key = try await write(context) { service in
            let key = try withGenerator(context) { try service.key(input, generator: &$0) }
            try service.store.insert(key)
            return key
        }
        return .json(status: 201, bytes: WarpLinkWire.key(key).encoded())
    }

    private func listKeys(_ request: Request, _ context: AdminContext) async throws -> Response {
        let keys = try await read(context) { try $0.store.keys($0.project) }
        return .json(status: 200, bytes: JSONValue.object(["keys": .array(keys.map(WarpLinkWire.key))]).encoded())
    }

    private func setKeyState(_ state: KeyState, _ request: Request, _ context: AdminContext) async throws -> Response {
        let value = context.parameter("value")
        let key = try await write(context) { service -> KeyRecord? in
            guard try service.store.setKeyState(service.project, value: value, state: state, at: service.now) else { return nil }
            return try service.store.key(value)
        }
        guard let key else { throw AdminError.notFound("Key `\(value)`") }
        return .json(status: 200, bytes: WarpLinkWire.key(key).encoded())
    }

    private func deleteKey(_ request: Request, _ context: AdminContext) async throws -> Response {
        let value = context.parameter("value")
        guard try await write(context, { try $0.store.deleteKey($0.project, value: value) }) else { throw AdminError.notFound("Key `\(value)`") }
        return .empty(204)
    }

    // MARK: Domains

    private func addDomain(_ request: Request, _ context: AdminContext) async throws -> Response {
        let input = try AdminBody.decode(AdminInputs.Domain.self, from: request)
        let domain = try await write(context) { service in
            let domain = try service.domain(input)
            try service.store.insert(domain, project: service.project)
            return domain
        }
        try await domains.reload()
        return .json(status: 201, bytes: WarpLinkWire.domain(domain).encoded())
    }

    private func listDomains(_ request: Request, _ context: AdminContext) async throws -> Response {
        let all = try await read(context) { try $0.store.domains($0.project) }
        return .json(status: 200, bytes: JSONValue.object(["domains": .array(all.map(WarpLinkWire.domain))]).encoded())
    }

    private func setDomainState(_ state: DomainState, _ request: Request, _ context: AdminContext) async throws -> Response {
        let host = context.parameter("hostname").lowercased()
        let domain = try await write(context) { service -> DomainRecord? in
            guard try service.store.setDomainState(service.project, hostname: host, state: state) else { return nil }
            return try service.store.domain(service.project, hostname: host)
        }
        guard let domain else { throw AdminError.notFound("Domain `\(host)`") }
        return .json(status: 200, bytes: WarpLinkWire.domain(domain).encoded())
    }

    private func deleteDomain(_ request: Request, _ context: AdminContext) async throws -> Response {
        let host = context.parameter("hostname").lowercased()
        guard try await write(context, { try $0.store.deleteDomain($0.project, hostname: host) }) else { throw AdminError.notFound("Domain `\(host)`") }
        try await domains.reload()
        return .empty(204)
    }

    // MARK: Transactions

    /// Runs `body` in a write transaction with the project's service. The rules check every
    /// clash first; a constraint failure that still reaches the store is answered by
    /// `ErrorAnswers` as the control plane's 409 or 400, never a 500 showing SQL.
    func write<T: Sendable>(_ context: AdminContext, _ body: @escaping @Sendable (WarpLinkService) throws -> T) async throws -> T {
        let (project, now) = (context.projectID, context.now)
        return try await context.database.write { try body(WarpLinkService(store: WarpLinkStore(connection: $0), project: project, now: now)) }
    }

    /// Runs `body` in a read transaction with the project's service.
    func read<T: Sendable>(_ context: AdminContext, _ body: @escaping @Sendable (WarpLinkService) throws -> T) async throws -> T {
        let (project, now) = (context.projectID, context.now)
        return try await context.database.read { try body(WarpLinkService(store: WarpLinkStore(connection: $0), project: project, now: now)) }
    }

    /// Runs `body` with the project's id generator (seeded projects get repeatable ids).
    func withGenerator<T>(_ context: AdminContext, _ body: (inout IDGenerator) throws -> T) throws -> T {
        try context.services.generateIDs(for: context.projectID) { generator in Result { try body(&generator) } }.get()
    }
}
