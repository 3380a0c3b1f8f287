import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// The WarrantyLife backend: routing, credentials, error format and fixtures.
public struct WarrantyLifePlatform: Platform {
    /// Configuration from the `warrantylife` section of the configuration file.
    public let configuration: JSONValue

    /// Creates the platform.
    public init(configuration: JSONValue = .null) {
        self.configuration = configuration
    }

    /// `warrantylife`.
    public var id: PlatformID { .warrantylife }

    /// Real host names served without the path prefix.
    public func pathPrefix(forHost host: String) -> String? {
        host == "www.warrantylife.com" ? "/warrantylife" : nil
    }

    /// SDK routes.
    public func routes() -> [Route] { [] }

    /// Control-plane routes.
    public func adminRoutes() -> [Route] { [] }

    /// The platform's own error body.
    public func errorResponse(for failure: CoreFailure, requestID: String) -> Response {
        let (code, number): (String, Int) = failure == .routeNotFound ? ("route_not_found", 1404) : ("error_\(failure.status)", 1000 + failure.status)
        return .json(status: failure.status, bytes: JSONValue.object([
            "error": .string(code), "errorMessage": .string(failure.message), "errorCode": .int(Int64(number)),
        ]).encoded())
    }

    /// The project owning the credential the request carries.
    public func identifyProject(_ request: Request, services: EmulatorServices) async -> ProjectID? {
        guard let credential = request.headers["x-wl-developer-key"] else { return nil }
        return await services.project(forCredential: credential, platform: .warrantylife)
    }

    /// Fresh credentials for a new project.
    public func makeCredentials(using generator: inout IDGenerator) -> [String: String] {
        ["developerKey": generator.hex(32)]
    }

    /// Nothing to store beyond the core's credential rows yet.
    public func provision(project: ProjectID, credentials: [String: String], connection: SQLiteConnection, now: Date) throws {}

    /// SDK settings to paste.
    public func sdkSettings(serverURL: String, credentials: [String: String]) -> [String: String] {
        ["baseURL": serverURL + "/warrantylife/mapi/wi/100", "apiKey": credentials["developerKey"] ?? "", "clientCode": "wi"]
    }

    /// Per-project tables.
    public var projectTables: [String] { [] }

    /// Demo fixtures.
    public func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: SQLiteConnection, now: Date) throws {}

    /// OpenAPI document.
    public func openAPIDocument() -> JSONValue {
        ["openapi": "3.1.0", "info": ["title": "WarrantyLife (Understudy)", "version": "1.0.0"], "paths": [:]]
    }
}
