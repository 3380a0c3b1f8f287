import EmulatorCore
import Foundation
import HTTPServer
import Storage

extension PlatformID {
    /// WarrantyLife: device warranty registration.
    public static let warrantylife = PlatformID("warrantylife")
}

/// The WarrantyLife backend: routing, credentials, error format and fixtures.
public struct WarrantyLifePlatform: Platform {
    /// Configuration from the `warrantylife` section of the configuration file.
    public let configuration: JSONValue
    /// The section's settings over the contract's defaults.
    let settings: WarrantyLifeSettings
    /// Creates the platform.
    public init(configuration: JSONValue = .null) {
        self.configuration = configuration
        self.settings = WarrantyLifeSettings(configuration)
    }

    /// `warrantylife`.
    public var id: PlatformID { .warrantylife }

    /// `www.warrantylife.com` is served without the prefix (D-WL-01); extra hosts from `warrantylife.hosts`.
    public func pathPrefix(forHost host: String) -> String? {
        let extra = configuration["hosts"]?.arrayValue?.compactMap(\.stringValue).map { $0.lowercased() } ?? []
        return host == "www.warrantylife.com" || extra.contains(host) ? "/warrantylife" : nil
    }

    /// SDK routes under `/mapi/{clientCode}/100`.
    public func routes() -> [Route] { WarrantyLifeRoutes(settings: settings).routes() }

    /// The checks taken from the iOS integration guide's registration upload (`WarrantyLifeRules`).
    public var checkRules: [any CheckRule] { WarrantyLifeRules.all }

    /// Control-plane routes.
    public func adminRoutes() -> [AdminRoute] {
        WarrantyLifeAdmin.routes()
    }

    /// WarrantyLife's error envelope for failures the core detects.
    public func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        WarrantyLifeError.forCore(failure).response(trace: requestID)
    }

    /// The developer key of `X-WL-Developer-Key`, then the user credentials of `Authorization`:
    /// the one read of both, which the routes' authentication takes from the context.
    public func presentedCredentials(in request: Request) -> [PresentedCredential] {
        var presented: [PresentedCredential] = []
        if let key = Self.developerKey(in: request) { presented.append(PresentedCredential(kind: Self.developerKeyKind, value: key, carrier: .header("X-WL-Developer-Key"))) }
        if let user = UserCredentials(request) { presented += user.presented }
        return presented
    }

    /// The credential kind of developer keys, the only kind that names a project.
    static let developerKeyKind = "developerKey"

    /// The `X-WL-Developer-Key` value; nil when absent or blank.
    static func developerKey(in request: Request) -> String? {
        guard let key = request.headers["x-wl-developer-key"]?.trimmingASCIIWhitespace(), !key.isEmpty else { return nil }
        return String(key)
    }

    /// The project of a developer key, with its stored row as the record's details (routes read
    /// the key's state from it instead of looking the key up again). Keys issued at project
    /// creation have a row too (see `provision`); one without a row still identifies its project,
    /// and the routes answer it as an invalid key, as they always did.
    public func lookUpCredential(_ credential: PresentedCredential, services: EmulatorServices) async throws -> CredentialRecord? {
        // User credentials are per project: the routes look them up once the key named it.
        guard credential.kind == Self.developerKeyKind else { return nil }
        let value = credential.value
        if let key = try await services.database.read({ connection in try WarrantyLifeStore(connection: connection).key(value) }) {
            return CredentialRecord(project: key.projectID, kind: credential.kind, value: value, details: key)
        }
        guard let project = try await services.project(forIssuedCredential: value, platform: .warrantylife) else { return nil }
        return CredentialRecord(project: project, kind: credential.kind, value: value)
    }

    /// Fresh credentials for a new project.
    public func makeCredentials(using generator: inout IDGenerator) -> [String: String] {
        ["developerKey": generator.hex(32)]
    }

    /// Stores the project's developer key as a `valid` sandbox key.
    public func provision(project: ProjectID, credentials: [String: String], connection: any StoreConnection, now: Date) throws {
        guard let key = credentials["developerKey"] else { return }
        try WarrantyLifeStore(connection: connection).provisionKey(project, key: key, now: now)
    }

    /// SDK settings to paste: the two parameters of `WarrantyLifeSDK.build(clientCode:apiKey:…)`.
    /// The SDK has no base-URL setting (see `sdkConnection`).
    public func sdkSettings(endpoints: AdvertisedEndpoints, credentials: [String: String]) -> [String: String] {
        ["apiKey": credentials["developerKey"] ?? "", "clientCode": "wi"]
    }

    /// A production SDK build always calls `www.warrantylife.com` (and the configured extra hosts) over HTTPS.
    public var sdkConnection: SDKConnection {
        let extra = configuration["hosts"]?.arrayValue?.compactMap(\.stringValue).map { $0.lowercased() } ?? []
        return .proxy(realHosts: ["www.warrantylife.com"] + extra)
    }

    /// Per-project tables, parents first.
    public var projectTables: [String] {
        [
            "wl_developer_keys", "wl_users", "wl_vouchers", "wl_voucher_lookups", "wl_items", "wl_warranties", "wl_sensor_events", "wl_readings",
            "wl_audio_clips", "wl_diagnostics", "wl_images", "wl_fcm_tokens", "wl_opt_ins", "wl_insights", "wl_content", "wl_submissions",
        ]
    }

    /// Demo fixtures: `users`, `vouchers`, `items`, `warranties`, `insights`, `content` (same shapes as the control plane).
    public func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: any StoreConnection, now: Date) throws {
        try WarrantyLifeAdmin.loadFixtures(fixtures, project: project, store: WarrantyLifeStore(connection: connection), now: now)
    }

    /// OpenAPI document of the SDK and control-plane routes.
    public func openAPIDocument() -> JSONValue { WarrantyLifeOpenAPI.document(smartSaverRoutes: settings.smartSaverRoutes) }
}

extension WarrantyLifePlatform {
    /// Forgets a device (`deviceId`, or `item:<id>` for its item): its voucher lookups, its item
    /// and the item's stages and warranties, so the next lookup and registration are a first install's.
    public func forgetDevice(_ device: String, project: ProjectID, services: EmulatorServices) async throws -> Int {
        try await services.database.write { try WarrantyLifeStore(connection: $0).forgetDevice(device, project: project) }
    }
}
