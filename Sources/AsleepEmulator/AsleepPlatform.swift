import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore
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
    let defaults: AsleepSettings

    /// Creates the platform.
    public init(configuration: JSONValue = .null) {
        self.configuration = configuration
        self.defaults = (try? configuration.decode(AsleepSettings.self)) ?? AsleepSettings()
    }

    /// `asleep`.
    public var id: PlatformID { .asleep }

    /// Real host names served without the path prefix.
    public func pathPrefix(forHost host: String) -> String? {
        host == "api.asleep.ai" || host == "test-api.asleep.ai" ? "/asleep" : nil
    }

    /// SDK routes.
    public func routes() -> [Route] { AsleepRoutes(defaults: defaults).routes() }

    /// Control-plane routes.
    public func adminRoutes() -> [AdminRoute] { AsleepAdmin(defaults: defaults).routes() }

    /// The platform's own error body: `{"detail": "…"}` with the real service's wording where known.
    public func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        let detail: String
        switch failure {
        case .routeNotFound: detail = "Not Found"
        case .methodNotAllowed: detail = "Method Not Allowed"
        case .unreadableRequest(.bodyTooLarge): detail = AsleepError.chunkTooLarge.detail
        case .unreadableRequest(let error): detail = error.message
        case .invalidBody(let error): detail = error.message
        case .injected(let status): detail = Self.injectedDetail(status)
        case .internalError: detail = "Internal Server Error"
        case .storageUnavailable: detail = "Service Unavailable"
        }
        return AsleepError(failure.status, detail).response
    }

    /// The `detail` an injected status carries: the documented text for that status.
    static func injectedDetail(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Plan is expired"
        case 404: return "Not Found"
        case 409: return "Conflict"
        case 413: return AsleepError.chunkTooLarge.detail
        case 422: return "Validation Error"
        case 500: return "Internal Server Error"
        default: return HTTPStatus.reason(status)
        }
    }

    /// The API key (`x-api-key`), else the bearer access token, else — on the token routes —
    /// the app id or refresh token in the body.
    public func presentedCredentials(in request: Request) -> [PresentedCredential] {
        var presented: [PresentedCredential] = []
        if let key = request.headers["x-api-key"], !key.isEmpty { presented.append(PresentedCredential(kind: "apiKey", value: key)) }
        if let token = request.bearerToken { presented.append(PresentedCredential(kind: "accessToken", value: token)) }
        if request.path.hasSuffix("/customer/v1/app/token"), let app = (try? JSONValue.parse(request.body))?["app_id"]?.stringValue {
            presented.append(PresentedCredential(kind: "appId", value: app))
        } else if request.path.hasSuffix("/customer/v1/app/refresh"),
                  let token = (try? JSONValue.parse(request.body))?["refresh_token"]?.stringValue {
            presented.append(PresentedCredential(kind: "refreshToken", value: token))
        }
        return presented
    }

    /// The project of an API key, token or app id.
    public func lookUpCredential(_ credential: PresentedCredential, services: EmulatorServices) async throws -> CredentialRecord? {
        let sql: String
        switch credential.kind {
        case "apiKey": sql = "SELECT project_id FROM asleep_api_keys WHERE api_key = ?"
        case "accessToken", "refreshToken": sql = "SELECT project_id FROM asleep_tokens WHERE token = ?"
        case "appId": sql = "SELECT project_id FROM asleep_apps WHERE app_id = ?"
        default: return nil
        }
        let value = credential.value
        guard let project = try await services.database.read({ try $0.scalar(sql, value).string }) else { return nil }
        return CredentialRecord(project: project, kind: credential.kind, value: value)
    }

    /// Fresh credentials: an API key, plus an appId/appSecret pair derived from it (derived so the
    /// project generator's draws, and thus every other platform's seeded credentials, stay as they were).
    public func makeCredentials(using generator: inout IDGenerator) -> [String: String] {
        let key = generator.alphanumeric(40)
        return ["apiKey": key] .merging(Self.appCredentials(apiKey: key)) { first, _ in first }
    }

    /// The appId/appSecret pair that goes with an API key.
    static func appCredentials(apiKey: String) -> [String: String] {
        let digest = SHA256Digest.hex(Data(("asleep-app:" + apiKey).utf8))
        return ["appId": "app_" + digest.prefix(16), "appSecret": "sec_" + digest.suffix(32)]
    }

    /// Stores the project's API key (its own customer) and app credentials.
    public func provision(project: ProjectID, credentials: [String: String], connection: SQLiteConnection, now: Date) throws {
        if let key = credentials["apiKey"] {
            try connection.run("""
                INSERT OR IGNORE INTO asleep_api_keys (api_key, project_id, customer, created_at) VALUES (?, ?, ?, ?)
                """, key, project, "key:" + key, now.timeIntervalSince1970)
            let app = credentials["appId"] ?? Self.appCredentials(apiKey: key)["appId"]!
            let secret = credentials["appSecret"] ?? Self.appCredentials(apiKey: key)["appSecret"]!
            try connection.run("""
                INSERT OR IGNORE INTO asleep_apps (app_id, project_id, app_secret, customer, created_at) VALUES (?, ?, ?, ?, ?)
                """, app, project, secret, "app:" + app, now.timeIntervalSince1970)
        }
    }

    /// SDK settings to paste, named as the SDK's `setup` / `initAsleepConfig` parameters.
    public func sdkSettings(serverURL: String, credentials: [String: String]) -> [String: String] {
        var settings = ["baseUrl": serverURL + "/asleep", "apiKey": credentials["apiKey"] ?? ""]
        if let app = credentials["appId"], let secret = credentials["appSecret"] {
            settings["appId"] = app
            settings["appSecret"] = secret
        }
        return settings
    }

    /// Per-project tables, parents first.
    public var projectTables: [String] {
        ["asleep_settings", "asleep_api_keys", "asleep_apps", "asleep_tokens", "asleep_users", "asleep_products",
         "asleep_sessions", "asleep_chunks", "asleep_webhooks"]
    }

    /// Demo fixtures: `{"settings": {…}, "users": [...], "sessions": [...]}` in the control plane's seed shapes.
    public func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: SQLiteConnection, now: Date) throws {
        try AsleepAdmin(defaults: defaults).loadFixtures(fixtures, project: project, connection: connection, now: now)
    }

    /// OpenAPI document.
    public func openAPIDocument() -> JSONValue { AsleepOpenAPI.document() }

    /// Starts the session clock and webhook delivery loops.
    public func start(services: EmulatorServices) async {
        AsleepWorker.start(services: services, defaults: defaults)
    }
}


