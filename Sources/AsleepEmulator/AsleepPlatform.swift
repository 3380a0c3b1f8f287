import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// The Asleep backend: routing, credentials, error format and fixtures.
public struct AsleepPlatform: Platform {
    /// Configuration from the `asleep` section of the configuration file.
    public let configuration: JSONValue

    /// Creates the platform.
    public init(configuration: JSONValue = .null) {
        self.configuration = configuration
    }

    /// `asleep`.
    public var id: PlatformID { .asleep }

    /// Real host names served without the path prefix.
    public func pathPrefix(forHost host: String) -> String? {
        host == "api.asleep.ai" || host == "test-api.asleep.ai" ? "/asleep" : nil
    }

    /// SDK routes.
    public func routes() -> [Route] { [] }

    /// Control-plane routes.
    public func adminRoutes() -> [Route] { [] }

    /// The platform's own error body.
    public func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        let detail = failure == .routeNotFound ? "Not Found" : failure.message
        return .json(status: failure.status, bytes: JSONValue.object(["detail": .string(detail)]).encoded())
    }

    /// The project owning the credential the request carries.
    public func identifyProject(_ request: Request, services: EmulatorServices) async -> ProjectID? {
        guard let credential = request.headers["x-api-key"] else { return nil }
        return await services.project(forCredential: credential, platform: .asleep)
    }

    /// Fresh credentials for a new project.
    public func makeCredentials(using generator: inout IDGenerator) -> [String: String] {
        ["apiKey": generator.alphanumeric(40)]
    }

    /// Nothing to store beyond the core's credential rows yet.
    public func provision(project: ProjectID, credentials: [String: String], connection: SQLiteConnection, now: Date) throws {}

    /// SDK settings to paste.
    public func sdkSettings(serverURL: String, credentials: [String: String]) -> [String: String] {
        ["baseUrl": serverURL + "/asleep", "apiKey": credentials["apiKey"] ?? ""]
    }

    /// Per-project tables.
    public var projectTables: [String] { [] }

    /// Demo fixtures.
    public func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: SQLiteConnection, now: Date) throws {}

    /// OpenAPI document.
    public func openAPIDocument() -> JSONValue {
        ["openapi": "3.1.0", "info": ["title": "Asleep (Understudy)", "version": "1.0.0"], "paths": [:]]
    }
}
