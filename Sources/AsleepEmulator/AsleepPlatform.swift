import EmulatorCore
import Foundation
import HTTPServer
import Storage
import Synchronization

extension PlatformID {
    /// Asleep: sleep tracking.
    public static let asleep = PlatformID("asleep")
}

/// The Asleep backend: routing, credentials, error format and fixtures.
public struct AsleepPlatform: Platform {
    /// Configuration from the `asleep` section of the configuration file (any `AsleepSettings`
    /// field, used as the default of every project).
    public let configuration: JSONValue
    /// The section as a settings layer: an object, or empty when the section is absent or does not
    /// read as settings (ignored, as it always was, rather than failing every request).
    let settingsLayer: JSONValue

    /// Creates the platform.
    public init(configuration: JSONValue = .null) {
        self.configuration = configuration
        // Why the section does not read as settings is irrelevant: it is ignored either way (see above).
        if case .object = configuration, (try? configuration.decode(AsleepSettings.self)) != nil {
            settingsLayer = configuration
        } else {
            settingsLayer = [:]
        }
    }

    /// `asleep`.
    public var id: PlatformID { .asleep }

    /// Real host names served without the path prefix.
    public func pathPrefix(forHost host: String) -> String? {
        host == "api.asleep.ai" || host == "test-api.asleep.ai" ? "/asleep" : nil
    }

    /// SDK routes.
    public func routes() -> [Route] { AsleepRoutes(configuration: settingsLayer).routes() }

    /// The checks taken from the 3.3 product-registration guide (`AsleepRules`).
    public var checkRules: [any CheckRule] { AsleepRules.all }

    /// Control-plane routes.
    public func adminRoutes() -> [AdminRoute] { AsleepAdmin(configuration: settingsLayer).routes() }

    /// The platform's own error body: `{"detail": "…"}` with the real service's wording where known.
    public func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        AsleepError(failure).response
    }

    /// The credential kinds Asleep presents, as `presentedCredentials` names them.
    enum CredentialKind {
        /// `x-api-key`.
        static let apiKey = "apiKey"
        /// The bearer access token.
        static let accessToken = "accessToken"
        /// `app_id` in the token route's body.
        static let appID = "appId"
        /// `app_secret` in the token route's body: presented so the route need not parse the body
        /// again, but never looked up (the app id names the app).
        static let appSecret = "appSecret"
        /// `refresh_token` in the refresh route's body.
        static let refreshToken = "refreshToken"
    }

    /// The API key (`x-api-key`), else the bearer access token, else — on the token routes —
    /// the app id (with its secret) or refresh token in the body.
    public func presentedCredentials(in request: Request) -> [PresentedCredential] {
        var presented: [PresentedCredential] = []
        if let key = request.headers["x-api-key"], !key.isEmpty { presented.append(PresentedCredential(kind: CredentialKind.apiKey, value: key, carrier: .header("x-api-key"))) }
        if let token = request.bearerToken { presented.append(PresentedCredential(kind: CredentialKind.accessToken, value: token, carrier: .header("Authorization"))) }
        // The token routes carry their credential in the body: this is its one parse (the routes
        // read the values back from the context). A body that does not parse presents none, which
        // the routes answer with the same 401 as a wrong secret.
        switch Self.tokenRoute(request.path) {
        case "token":
            let body = try? JSONValue.parse(request.body)
            if let app = body?["app_id"]?.stringValue { presented.append(PresentedCredential(kind: CredentialKind.appID, value: app, carrier: .bodyField("app_id"))) }
            if let secret = body?["app_secret"]?.stringValue {
                presented.append(PresentedCredential(kind: CredentialKind.appSecret, value: secret, carrier: .bodyField("app_secret"), namesProject: false))
            }
        case "refresh":
            if let token = (try? JSONValue.parse(request.body))?["refresh_token"]?.stringValue {
                presented.append(PresentedCredential(kind: CredentialKind.refreshToken, value: token, carrier: .bodyField("refresh_token")))
            }
        default:
            break
        }
        return presented
    }

    /// `token` or `refresh` when `path` ends with a token route's path, spelled as the router
    /// takes it (a trailing `/` and percent-escapes name the same route, and the route reads its
    /// credential from what is presented here, so every spelling that reaches it must count).
    static func tokenRoute(_ path: String) -> String? {
        if path.hasSuffix("/customer/v1/app/token") { return "token" }
        if path.hasSuffix("/customer/v1/app/refresh") { return "refresh" }
        guard path.hasSuffix("/") || path.contains("%") else { return nil }
        var segments = path.split(separator: "/", omittingEmptySubsequences: false)
        if segments.last?.isEmpty == true { segments.removeLast() }
        guard segments.count >= 5 else { return nil }
        let tail = segments.suffix(4).map { URLQuery.percentDecode($0) ?? String($0) }
        guard tail[0] == "customer", tail[1] == "v1", tail[2] == "app", ["token", "refresh"].contains(tail[3]) else { return nil }
        return tail[3]
    }

    /// The project of an API key, token or app id, with its row for the handlers (a bearer token
    /// with its app).
    public func lookUpCredential(_ credential: PresentedCredential, services: EmulatorServices) async throws -> CredentialRecord? {
        let value = credential.value
        // An app secret names no app on its own: nothing to read.
        if credential.kind == CredentialKind.appSecret { return nil }
        let found: (project: ProjectID, details: any Sendable)? = try await services.database.read { connection in
            let store = AsleepStore(connection: connection)
            switch credential.kind {
            case CredentialKind.apiKey:
                return try store.apiKey(value).map { ($0.project, $0) }
            case CredentialKind.accessToken, CredentialKind.refreshToken:
                guard let token = try store.token(value) else { return nil }
                return (token.project, BearerCredential(token: token, app: try store.app(token.appID)))
            case CredentialKind.appID:
                return try store.app(value).map { ($0.project, $0) }
            default:
                return nil
            }
        }
        return found.map { CredentialRecord(project: $0.project, kind: credential.kind, value: value, details: $0.details) }
    }

    /// Fresh credentials: an API key, plus an appId/appSecret pair derived from it (derived so the
    /// project generator's draws, and thus every other platform's seeded credentials, stay as they were).
    public func makeCredentials(using generator: inout IDGenerator) -> [String: String] {
        let key = generator.alphanumeric(40)
        return ["apiKey": key].merging(Self.appCredentials(apiKey: key)) { first, _ in first }
    }

    /// The appId/appSecret pair that goes with an API key.
    static func appCredentials(apiKey: String) -> [String: String] {
        let digest = SHA256Digest.hex(Data(("asleep-app:" + apiKey).utf8))
        return ["appId": "app_" + digest.prefix(16), "appSecret": "sec_" + digest.suffix(32)]
    }

    /// Stores the project's API key (its own customer) and app credentials.
    public func provision(project: ProjectID, credentials: [String: String], connection: any StoreConnection, now: Date) throws {
        guard let key = credentials["apiKey"] else { return }
        let store = AsleepStore(connection: connection)
        try store.insertAPIKey(key, project: project, customer: "key:" + key, now: now, ignoringDuplicates: true)
        let derived = Self.appCredentials(apiKey: key)
        // `appCredentials` always returns both names, so the fallbacks below are never empty.
        let app = credentials["appId"] ?? derived["appId"] ?? ""
        let secret = credentials["appSecret"] ?? derived["appSecret"] ?? ""
        try store.insertApp(app, project: project, secret: secret, customer: "app:" + app, now: now, ignoringDuplicates: true)
    }

    /// SDK settings to paste, named as the `setup` / `initAsleepConfig` parameters: `apiKey`, the
    /// 3.3 `appId` / `appSecret` pair, and `baseUrl`, the documented optional override (whether the
    /// SDK keeps its `/asleep` path is not known, so `sdkConnection` advises the proxy instead).
    public func sdkSettings(endpoints: AdvertisedEndpoints, credentials: [String: String]) -> [String: String] {
        var settings = ["baseUrl": endpoints.baseURL + "/asleep", "apiKey": credentials["apiKey"] ?? ""]
        if let app = credentials["appId"], let secret = credentials["appSecret"] {
            settings["appId"] = app
            settings["appSecret"] = secret
        }
        return settings
    }

    /// The 3.3.0 `setup(apiKey:productInfo:delegate:)` shows no base URL: the SDK calls `api.asleep.ai`.
    public var sdkConnection: SDKConnection { .proxy(realHosts: ["api.asleep.ai", "test-api.asleep.ai"]) }

    /// Per-project tables, parents first.
    public var projectTables: [String] {
        [
            "asleep_settings", "asleep_api_keys", "asleep_apps", "asleep_tokens", "asleep_users", "asleep_products",
            "asleep_sessions", "asleep_chunks", "asleep_webhooks",
        ]
    }

    /// Demo fixtures: `{"settings": {…}, "users": [...], "sessions": [...]}` in the control plane's seed shapes.
    public func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: any StoreConnection, now: Date) throws {
        try AsleepAdmin(configuration: settingsLayer).loadFixtures(fixtures, project: project, connection: connection, now: now)
    }

    /// OpenAPI document.
    public func openAPIDocument() -> JSONValue { AsleepOpenAPI.document() }

    /// Starts the session clock and webhook delivery loops.
    public func start(services: EmulatorServices) async {
        AsleepWorker.start(services: services, configuration: settingsLayer)
    }
}

extension AsleepPlatform {
    /// Forgets a registered product (`SERIAL:…`, `MAC_ADDRESS:…`): its registration and product
    /// key go, so the next `setup` registers it as new. A `user:` device is a user, whose
    /// sessions are the account's data, not the installation's: a 409 saying so.
    public func forgetDevice(_ device: String, project: ProjectID, services: EmulatorServices) async throws -> Int {
        guard let colon = device.firstIndex(of: ":"), let type = AsleepService.identifierType(String(device[..<colon])) else {
            throw AdminError(
                status: 409, code: "no_device_state",
                message: "`\(device)` is not a registered product (SERIAL:… or MAC_ADDRESS:…); Asleep keeps no installation state for it.")
        }
        let value = String(device[device.index(after: colon)...])
        return try await services.database.write { try AsleepStore(connection: $0).forgetProducts(project, identifierType: type, identifierValue: value) }
    }
}
