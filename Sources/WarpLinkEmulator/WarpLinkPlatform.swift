import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

extension PlatformID {
    /// WarpLink: deep links and deferred install attribution.
    public static let warplink = PlatformID("warplink")
}

/// The WarpLink backend: routing, credentials, error format and fixtures.
public struct WarpLinkPlatform: Platform {
    /// Configuration from the `warplink` section of the configuration file.
    public let configuration: JSONValue
    /// Caches shared by every copy of this value.
    public let state: WarpLinkState

    /// Creates the platform from the configuration file's `warplink` section:
    /// `{"settings": {…matching settings…}, "autoProvisionKeysInto": "<project id>"}`.
    public init(configuration: JSONValue = .null) {
        self.configuration = configuration
        let (settings, _) = Self.defaultSettings(from: configuration)
        self.state = WarpLinkState(defaultSettings: settings, autoProvisionProject: configuration["autoProvisionKeysInto"]?.stringValue)
    }

    /// The server-wide default settings of `configuration`, and why they were not used if invalid.
    static func defaultSettings(from configuration: JSONValue) -> (MatchingSettings, String?) {
        guard let section = configuration["settings"], section != .null else { return (MatchingSettings(), nil) }
        guard let settings = try? section.decode(MatchingSettings.self) else { return (MatchingSettings(), "warplink.settings has a wrong type") }
        if let problem = settings.validationProblem { return (MatchingSettings(), "warplink.settings: " + problem) }
        return (settings, nil)
    }

    /// `warplink`.
    public var id: PlatformID { .warplink }

    /// `api.warplink.app` serves the SDK routes; `aplnk.to`, `<handle>.aplnk.to` and configured
    /// custom domains serve short links at `/{slug}` ([W-R2], [W-R3]).
    public func pathPrefix(forHost host: String) -> String? {
        if host == WarpLinkNames.apiHost { return "/warplink" }
        return WarpLinkRoutes(state: state).isLinkHost(host) ? "/warplink/r" : nil
    }

    /// SDK routes and the short-link redirect.
    public func routes() -> [Route] { WarpLinkRoutes(state: state).all() }

    /// Control-plane routes.
    public func adminRoutes() -> [AdminRoute] { WarpLinkAdmin(state: state).all() }

    /// WarpLink's envelope for failures the core detects (unknown route, bad body, injected fault).
    public func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        let status = failure.status
        let message: String
        switch failure {
        case .routeNotFound, .methodNotAllowed: message = "Not found"
        case .internalError: message = "Internal error"
        default: message = failure.message
        }
        let code = status == 405 ? "METHOD_NOT_ALLOWED" : WarpLinkError.code(forStatus: status)
        var response = WarpLinkError(status: status, code: code, message: status == 405 ? failure.message : message).response
        response.headers.set("X-RateLimit-Limit", "60")
        return response
    }

    /// The key of `Authorization: Bearer <key>`.
    public func presentedCredentials(in request: Request) -> [PresentedCredential] {
        guard let key = request.bearerToken else { return [] }
        return [PresentedCredential(kind: "key", value: key)]
    }

    /// The key row of a presented key (its `KeyRecord` is the record's details); an unknown
    /// well-formed key is provisioned into the configured project when `autoProvisionKeysInto` is set.
    public func lookUpCredential(_ credential: PresentedCredential, services: EmulatorServices) async throws -> CredentialRecord? {
        let value = credential.value
        guard WarpLinkNames.isWellFormedKey(value) else { return nil }
        if let key = try await services.database.read({ try WarpLinkStore.key(value, $0) }) {
            return CredentialRecord(project: key.projectID, kind: key.kind, value: value, details: key)
        }
        guard let target = state.autoProvisionProject else { return nil }
        // [W-K1] alternative: any well-formed unknown key becomes an org-wide SDK key of `target`.
        let provisioned = try await services.database.write { connection -> KeyRecord? in
            guard try connection.scalar("SELECT 1 FROM projects WHERE id = ?", target).int != nil else { return nil }
            let now = services.now(for: target)
            try WarpLinkStore.insert(KeyRecord(projectID: target, value: value, kind: "sdk", scopes: KeyRecord.sdkScopes, appID: nil, state: "active",
                                               name: "Auto-provisioned", createdAt: now, revokedAt: nil), ignoreExisting: true, connection)
            return try WarpLinkStore.key(value, connection)
        }
        guard let key = provisioned else { return nil }
        services.logger.info("warplink: auto-provisioned an SDK key", [("project", key.projectID)])
        return CredentialRecord(project: key.projectID, kind: key.kind, value: value, details: key)
    }

    /// For an unauthenticated short-link tap: the project owning the link's domain (custom
    /// domain, app handle) or, on `aplnk.to`, the project whose link at that slug was created last.
    public func identifyProjectWithoutCredential(_ request: Request, services: EmulatorServices) async throws -> ProjectID? {
        guard request.bearerToken == nil, let (domain, slug) = shortLinkTarget(request) else { return nil }
        if let owner = state.project(forDomain: domain) { return owner }
        return try await services.database.read { connection -> ProjectID? in
            if domain.hasSuffix("." + WarpLinkNames.sharedDomain) {
                return try WarpLinkStore.project(forHandle: String(domain.dropLast(WarpLinkNames.sharedDomain.count + 1)), connection)
            }
            return try WarpLinkStore.project(forLinkAt: domain, slug: slug, connection)
        }
    }

    /// (domain, slug) of a short-link request, from the Host or from `/warplink/r/{slug}?domain=`.
    private func shortLinkTarget(_ request: Request) -> (String, String)? {
        let routes = WarpLinkRoutes(state: state)
        var path = request.path
        let domain: String
        if let host = request.hostName, routes.isLinkHost(host) {
            domain = host
        } else {
            if let host = request.hostName, host == WarpLinkNames.apiHost { path = "/warplink" + path }
            guard path.hasPrefix("/warplink/r/") else { return nil }
            path = String(path.dropFirst("/warplink/r".count))
            domain = (request.queryValue("domain") ?? WarpLinkNames.sharedDomain).lowercased()
        }
        let slug = URLQuery.percentDecode(path.dropFirst()) ?? ""
        return slug.isEmpty || slug.contains("/") ? nil : (domain, slug)
    }

    /// An SDK key and an API key (`links:read`) per project.
    public func makeCredentials(using generator: inout IDGenerator) -> [String: String] {
        ["sdkKey": "wl_test_" + generator.alphanumeric(32), "apiKey": "wl_test_" + generator.alphanumeric(32)]
    }

    /// Stores the project's SDK key (org-scoped) and API key (`links:read`) as active keys.
    public func provision(project: ProjectID, credentials: [String: String], connection: SQLiteConnection, now: Date) throws {
        if let sdk = credentials["sdkKey"] {
            try WarpLinkStore.insert(KeyRecord(projectID: project, value: sdk, kind: "sdk", scopes: KeyRecord.sdkScopes, appID: nil, state: "active",
                                               name: "Project SDK key", createdAt: now, revokedAt: nil), ignoreExisting: true, connection)
        }
        if let api = credentials["apiKey"] {
            try WarpLinkStore.insert(KeyRecord(projectID: project, value: api, kind: "api", scopes: ["links:read"], appID: nil, state: "active",
                                               name: "Project API key", createdAt: now, revokedAt: nil), ignoreExisting: true, connection)
        }
    }

    /// What a developer sets in the WarpLink SDKs.
    public func sdkSettings(serverURL: String, credentials: [String: String]) -> [String: String] {
        ["apiEndpoint": serverURL + "/warplink/v1", "apiKey": credentials["sdkKey"] ?? ""]
    }

    /// Per-project tables, parents first.
    public var projectTables: [String] {
        ["warplink_settings", "warplink_apps", "warplink_keys", "warplink_domains", "warplink_links", "warplink_clicks",
         "warplink_click_buckets", "warplink_installs"]
    }

    /// Loads `apps`, `keys`, `domains`, `links` and `clicks` from `Config/fixtures/warplink.json`,
    /// through the same validation as the control plane.
    public func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: SQLiteConnection, now: Date) throws {
        var generator = IDGenerator(seed: 0x5741_5250)
        for value in fixtures["apps"]?.arrayValue ?? [] {
            try WarpLinkStore.insert(try AdminInputs.app(value.decode(AdminInputs.App.self), project: project, now: now, generator: &generator, connection),
                                     project: project, connection)
        }
        for value in fixtures["keys"]?.arrayValue ?? [] {
            try WarpLinkStore.insert(try AdminInputs.key(value.decode(AdminInputs.Key.self), project: project, now: now, generator: &generator, connection), connection)
        }
        for value in fixtures["domains"]?.arrayValue ?? [] {
            try WarpLinkStore.insert(try AdminInputs.domain(value.decode(AdminInputs.Domain.self), project: project, now: now, connection),
                                     project: project, connection)
        }
        for value in fixtures["links"]?.arrayValue ?? [] {
            let link = try AdminInputs.link(value.decode(AdminInputs.Link.self), project: project, now: now, existing: nil, generator: &generator, connection)
            try WarpLinkStore.save(link, project: project, connection)
        }
        state.setDomains(try WarpLinkStore.allDomainOwners(connection))
    }

    /// The OpenAPI 3.1 document of the SDK routes, the redirect and the control plane.
    public func openAPIDocument() -> JSONValue { WarpLinkOpenAPI.document() }

    /// Loads the custom-domain table used for Host routing.
    public func start(services: EmulatorServices) async {
        state.services = services
        if let problem = Self.defaultSettings(from: configuration).1 {
            services.logger.error("ignoring invalid WarpLink configuration; using the contract's defaults", [("problem", problem)])
        }
        if let owners = try? await services.database.read({ try WarpLinkStore.allDomainOwners($0) }) { state.setDomains(owners) }
    }

    /// Reloads custom domains after a reset, restore or deletion.
    public func projectStateDidChange(_ project: ProjectID) async {
        if let services = state.services, let owners = try? await services.database.read({ try WarpLinkStore.allDomainOwners($0) }) {
            state.setDomains(owners)
        } else {
            state.setDomains(state.domains().filter { $0.value != project })
        }
    }
}
