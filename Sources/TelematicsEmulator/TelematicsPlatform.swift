import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// The Telematics backend: routing, credentials, error format and fixtures.
public struct TelematicsPlatform: Platform {
    /// Configuration from the `telematics` section of the configuration file.
    public let configuration: JSONValue

    /// Creates the platform.
    public init(configuration: JSONValue = .null) {
        self.configuration = configuration
    }

    /// `telematics`.
    public var id: PlatformID { .telematics }

    /// Real host names served without the path prefix.
    public func pathPrefix(forHost host: String) -> String? {
        nil
    }

    /// SDK routes.
    public func routes() -> [Route] { [] }

    /// Control-plane routes.
    public func adminRoutes() -> [Route] { [] }

    /// The platform's own error body.
    public func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        let code: String
        switch failure {
        case .routeNotFound: code = "ROUTE_NOT_FOUND"
        case .injected(429): code = "RATE_LIMITED"
        case .injected(503): code = "SERVICE_UNAVAILABLE"
        default: code = failure.status >= 500 ? "INTERNAL_ERROR" : "INVALID_REQUEST"
        }
        return .json(status: failure.status, bytes: JSONValue.object([
            "code": .string(code), "message": .string(failure.message), "status": .int(Int64(failure.status)), "traceId": .string(requestID),
        ]).encoded(), headers: ["X-Understudy-Trace": requestID])
    }

    /// The project owning the credential the request carries.
    public func identifyProject(_ request: Request, services: EmulatorServices) async -> ProjectID? {
        guard let credential = nil as String? else { return nil }
        return await services.project(forCredential: credential, platform: .telematics)
    }

    /// Fresh credentials for a new project.
    public func makeCredentials(using generator: inout IDGenerator) -> [String: String] {
        ["serviceCode": generator.alphanumeric(8).uppercased()]
    }

    /// Nothing to store beyond the core's credential rows yet.
    public func provision(project: ProjectID, credentials: [String: String], connection: SQLiteConnection, now: Date) throws {}

    /// SDK settings to paste.
    public func sdkSettings(serverURL: String, credentials: [String: String]) -> [String: String] {
        ["baseURL": serverURL + "/telematics"]
    }

    /// Per-project tables.
    public var projectTables: [String] { [] }

    /// Demo fixtures.
    public func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: SQLiteConnection, now: Date) throws {}

    /// OpenAPI document.
    public func openAPIDocument() -> JSONValue {
        ["openapi": "3.1.0", "info": ["title": "Telematics (Understudy)", "version": "1.0.0"], "paths": [:]]
    }
}
