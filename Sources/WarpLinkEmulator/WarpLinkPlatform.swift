import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// The WarpLink backend: routing, credentials, error format and fixtures.
public struct WarpLinkPlatform: Platform {
    /// Configuration from the `warplink` section of the configuration file.
    public let configuration: JSONValue

    /// Creates the platform.
    public init(configuration: JSONValue = .null) {
        self.configuration = configuration
    }

    /// `warplink`.
    public var id: PlatformID { .warplink }

    /// Real host names served without the path prefix.
    public func pathPrefix(forHost host: String) -> String? {
        host == "api.warplink.app" ? "/warplink" : (host == "aplnk.to" || host.hasSuffix(".aplnk.to") ? "/warplink/r" : nil)
    }

    /// SDK routes.
    public func routes() -> [Route] { [] }

    /// Control-plane routes.
    public func adminRoutes() -> [Route] { [] }

    /// The platform's own error body.
    public func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        let code: String
        switch failure.status {
        case 400: code = "INVALID_REQUEST"
        case 401: code = "UNAUTHORIZED"
        case 403: code = "FORBIDDEN"
        case 404: code = "NOT_FOUND"
        case 405: code = "METHOD_NOT_ALLOWED"
        case 413: code = "PAYLOAD_TOO_LARGE"
        case 429: code = "RATE_LIMITED"
        case 500..<600: code = "INTERNAL_ERROR"
        default: code = "ERROR"
        }
        let message = failure == .routeNotFound ? "Not found" : failure.message
        return .json(status: failure.status, bytes: JSONValue.object(["error": ["code": .string(code), "message": .string(message)]]).encoded())
    }

    /// The project owning the credential the request carries.
    public func identifyProject(_ request: Request, services: EmulatorServices) async -> ProjectID? {
        guard let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer ") else { return nil }
        let credential = String(authorization.dropFirst(7))
        return await services.project(forCredential: credential, platform: .warplink)
    }

    /// Fresh credentials for a new project.
    public func makeCredentials(using generator: inout IDGenerator) -> [String: String] {
        ["sdkKey": "wl_test_" + generator.alphanumeric(32), "apiKey": "wl_test_" + generator.alphanumeric(32)]
    }

    /// Nothing to store beyond the core's credential rows yet.
    public func provision(project: ProjectID, credentials: [String: String], connection: SQLiteConnection, now: Date) throws {}

    /// SDK settings to paste.
    public func sdkSettings(serverURL: String, credentials: [String: String]) -> [String: String] {
        ["apiEndpoint": serverURL + "/warplink/v1", "apiKey": credentials["sdkKey"] ?? ""]
    }

    /// Per-project tables.
    public var projectTables: [String] { [] }

    /// Demo fixtures.
    public func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: SQLiteConnection, now: Date) throws {}

    /// OpenAPI document.
    public func openAPIDocument() -> JSONValue {
        ["openapi": "3.1.0", "info": ["title": "WarpLink (Understudy)", "version": "1.0.0"], "paths": [:]]
    }
}
