import EmulatorCore
import Foundation
import HTTPServer
import Storage

extension PlatformID {
    /// WarpLink: deep links and deferred install attribution.
    public static let warplink = PlatformID("warplink")
}

/// The WarpLink backend: identity, host names, credentials, provisioning, fixtures and error format.
public struct WarpLinkPlatform: Platform {
    /// Configuration from the `warplink` section of the configuration file.
    public let configuration: JSONValue
    /// The configuration's `warplink.settings` as a settings layer (empty when invalid).
    let serverSettings: JSONValue
    /// The project unknown well-formed keys are provisioned into ([W-K1] alternative), if any.
    let autoProvisionProject: ProjectID?
    /// Which project owns each custom domain (shared by every copy of this value).
    let domains = CustomDomainTable()
    /// The rate-limit windows (shared by every copy of this value).
    let rateWindows = RateLimitWindows()

    /// Creates the platform from the configuration file's `warplink` section:
    /// `{"settings": {…matching settings…}, "autoProvisionKeysInto": "<project id>"}`.
    public init(configuration: JSONValue = .null) {
        self.configuration = configuration
        self.serverSettings = MatchingSettings.serverLayer(from: configuration).layer
        self.autoProvisionProject = configuration["autoProvisionKeysInto"]?.stringValue
    }

    /// `warplink`.
    public var id: PlatformID { .warplink }

    /// `api.warplink.app` serves the SDK routes; `aplnk.to`, `<handle>.aplnk.to` and configured
    /// custom domains serve short links at `/{slug}` ([W-R2], [W-R3]).
    public func pathPrefix(forHost host: String) -> String? {
        if host == WarpLinkNames.apiHost { return "/warplink" }
        return WarpLinkNames.isLinkHost(host, customDomains: domains) ? "/warplink/r" : nil
    }

    /// SDK routes and the short-link redirect.
    public func routes() -> [Route] { WarpLinkRoutes(serverSettings: serverSettings, domains: domains, rateWindows: rateWindows).routes() }

    /// WarpLink's integration checks (`WarpLinkRules`).
    public var checkRules: [any CheckRule] { WarpLinkRules.all }

    /// Control-plane routes.
    public func adminRoutes() -> [AdminRoute] { WarpLinkAdmin(serverSettings: serverSettings, domains: domains).routes() }

    /// WarpLink's envelope for failures the core detects, with the rate-limit ceiling header every answer carries.
    public func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        var response = WarpLinkError(failure: failure).response
        response.headers.set("X-RateLimit-Limit", "60")
        return response
    }

    // MARK: Credentials

    /// The key of `Authorization: Bearer <key>`.
    public func presentedCredentials(in request: Request) -> [PresentedCredential] {
        guard let key = request.bearerToken else { return [] }
        return [PresentedCredential(kind: "key", value: key, carrier: .header("Authorization"))]
    }

    /// The key row of a presented key (its `KeyRecord` is the record's details, revoked keys
    /// included so handlers can answer 401); an unknown well-formed key is provisioned into the
    /// configured project when `autoProvisionKeysInto` is set.
    public func lookUpCredential(_ credential: PresentedCredential, services: EmulatorServices) async throws -> CredentialRecord? {
        let value = credential.value
        guard WarpLinkNames.isWellFormedKey(value) else { return nil }
        if let key = try await services.database.read({ try WarpLinkStore(connection: $0).key(value) }) { return Self.record(key) }
        guard let target = autoProvisionProject else { return nil }
        // [W-K1] alternative: any well-formed unknown key becomes an org-wide SDK key of `target`.
        let now = services.now(for: target)
        let provisioned = try await services.database.write { connection -> KeyRecord? in
            let store = WarpLinkStore(connection: connection)
            guard try store.projectExists(target) else { return nil }
            try store.insert(
                KeyRecord(
                    projectID: target, value: value, kind: .sdk, scopes: KeyRecord.sdkScopes, appID: nil, state: .active,
                    name: "Auto-provisioned", createdAt: now, revokedAt: nil), ignoreExisting: true)
            return try store.key(value)
        }
        guard let key = provisioned else { return nil }
        services.logger.info("warplink: auto-provisioned an SDK key", [("project", key.projectID)])
        return Self.record(key)
    }

    private static func record(_ key: KeyRecord) -> CredentialRecord {
        CredentialRecord(project: key.projectID, kind: key.kind.rawValue, value: key.value, details: key)
    }

    /// For an unauthenticated short-link tap: the project owning the link's domain (custom
    /// domain, app handle) or, on `aplnk.to`, the project whose link at that slug was created last.
    public func identifyProjectWithoutCredential(_ request: Request, routedPath: String, byHost: Bool, services: EmulatorServices) async throws -> ProjectID? {
        guard request.bearerToken == nil, let (domain, slug) = Self.shortLinkTarget(request, routedPath: routedPath, byHost: byHost) else { return nil }
        if let owner = domains.owner(of: domain) { return owner }
        return try await services.database.read { connection -> ProjectID? in
            let store = WarpLinkStore(connection: connection)
            if let handle = WarpLinkNames.handle(ofHandleDomain: domain) { return try store.project(forHandle: handle) }
            return try store.project(forLinkAt: domain, slug: slug)
        }
    }

    /// (domain, slug) of a short-link request, from the routed `/warplink/r/{slug}` and the link
    /// host that chose WarpLink (`byHost`, as the resolver decided), else `?domain=`.
    static func shortLinkTarget(_ request: Request, routedPath: String, byHost: Bool) -> (String, String)? {
        guard routedPath.hasPrefix(redirectPrefix) else { return nil }
        let domain: String
        if byHost, let host = request.hostName, host != WarpLinkNames.apiHost {
            domain = host
        } else {
            domain = (request.queryValue("domain") ?? WarpLinkNames.sharedDomain).lowercased()
        }
        let slug = URLQuery.percentDecode(routedPath.dropFirst(redirectPrefix.count)) ?? ""
        return slug.isEmpty || slug.contains("/") ? nil : (domain, slug)
    }

    /// The routed path of the short-link redirect, before the slug.
    static let redirectPrefix = "/warplink/r/"

    // MARK: Provisioning

    /// An SDK key and an API key (`links:read`) per project, both `wl_live_` keys: the 1.1 SDKs'
    /// local format check accepts only `wl_live_` + 32 alphanumerics.
    public func makeCredentials(using generator: inout IDGenerator) -> [String: String] {
        ["sdkKey": WarpLinkNames.liveKey(using: &generator), "apiKey": WarpLinkNames.liveKey(using: &generator)]
    }

    /// Stores the project's SDK key (org-scoped) and API key (`links:read`) as active keys; a
    /// value another project already holds as a seeded key is a 409 in the admin format.
    public func provision(project: ProjectID, credentials: [String: String], connection: any StoreConnection, now: Date) throws {
        let store = WarpLinkStore(connection: connection)
        for (name, value) in credentials.sorted(by: { $0.key < $1.key }) {
            // A key is how a request finds its project, so one value cannot serve two projects.
            if let held = try store.key(value), held.projectID != project {
                throw AdminError(status: 409, code: "conflict", message: "The WarpLink \(name) is already a key of another project.")
            }
        }
        if let sdk = credentials["sdkKey"] {
            try store.insert(
                KeyRecord(
                    projectID: project, value: sdk, kind: .sdk, scopes: KeyRecord.sdkScopes, appID: nil, state: .active,
                    name: "Project SDK key", createdAt: now, revokedAt: nil), ignoreExisting: true)
        }
        if let api = credentials["apiKey"] {
            try store.insert(
                KeyRecord(
                    projectID: project, value: api, kind: .api, scopes: ["links:read"], appID: nil, state: .active,
                    name: "Project API key", createdAt: now, revokedAt: nil), ignoreExisting: true)
        }
    }

    /// What a developer sets in the WarpLink SDKs: `WarpLinkOptions.apiEndpoint` and
    /// `configure(apiKey:)` (the SDK key; the API key is no SDK setting).
    public func sdkSettings(endpoints: AdvertisedEndpoints, credentials: [String: String]) -> [String: String] {
        ["apiEndpoint": endpoints.baseURL + "/warplink/v1", "apiKey": credentials["sdkKey"] ?? ""]
    }

    /// `WarpLinkOptions.apiEndpoint` takes any URL, plain HTTP to an IP literal included.
    public var sdkConnection: SDKConnection { .baseURL(setting: "apiEndpoint") }

    /// Per-project tables, parents first.
    public var projectTables: [String] {
        [
            "warplink_settings", "warplink_apps", "warplink_keys", "warplink_domains", "warplink_links", "warplink_clicks",
            "warplink_click_buckets", "warplink_installs",
        ]
    }

    /// Loads `apps`, `keys`, `domains` and `links` from `Config/fixtures/warplink.json`, through
    /// the same validation as the control plane.
    public func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: any StoreConnection, now: Date) throws {
        let service = WarpLinkService(store: WarpLinkStore(connection: connection), project: project, now: now)
        var generator = IDGenerator(seed: 0x5741_5250)
        for value in fixtures["apps"]?.arrayValue ?? [] {
            try service.store.insert(try service.app(value.decode(AdminInputs.App.self), generator: &generator), project: project)
        }
        for value in fixtures["keys"]?.arrayValue ?? [] {
            try service.store.insert(try service.key(value.decode(AdminInputs.Key.self), generator: &generator))
        }
        for value in fixtures["domains"]?.arrayValue ?? [] {
            try service.store.insert(try service.domain(value.decode(AdminInputs.Domain.self)), project: project)
        }
        for value in fixtures["links"]?.arrayValue ?? [] {
            try service.store.save(try service.link(value.decode(AdminInputs.Link.self), existing: nil, generator: &generator), project: project)
        }
        domains.replace(with: try service.store.allDomainOwners())
    }

    /// The OpenAPI 3.1 document of the SDK routes, the redirect and the control plane.
    public func openAPIDocument() -> JSONValue { WarpLinkOpenAPI.document() }

    // MARK: Lifecycle

    /// Loads the custom-domain table used for Host routing.
    public func start(services: EmulatorServices) async {
        domains.attach(services.database)
        if let problem = MatchingSettings.serverLayer(from: configuration).problem {
            services.logger.error("ignoring invalid WarpLink configuration; using the contract's defaults", [("problem", problem)])
        }
        do { try await domains.reload() } catch {
            services.logger.error("warplink: could not load custom domains", [("error", String(describing: error))])
        }
    }

    /// Reloads custom domains after a reset, restore or deletion (dropping the project's own
    /// when the database cannot be read, so a deleted project's domains stop routing).
    public func projectStateDidChange(_ project: ProjectID) async {
        do { try await domains.reload(dropping: project) } catch {
            domains.replace(with: domains.all.filter { $0.value != project })
        }
    }
}

extension WarpLinkPlatform {
    /// Forgets a device (the deferred check's `device_id`): its install records go and the clicks
    /// they claimed are claimable again, so the next deferred check is a first install.
    public func forgetDevice(_ device: String, project: ProjectID, services: EmulatorServices) async throws -> Int {
        try await services.database.write { try WarpLinkStore(connection: $0).forgetDevice(project, deviceID: device) }
    }
}
