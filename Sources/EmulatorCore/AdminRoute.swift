import Foundation
import HTTPServer
import Storage

/// A platform's control-plane route: its handler gets an `AdminContext`, whose project always
/// exists (the core checked it before calling).
public typealias AdminRoute = RouteDefinition<AdminContext>

/// What a control-plane handler knows besides the request: the same as `EmulatorContext`, with
/// a project that is never missing.
public struct AdminContext: Sendable {
    /// The journal id of this request.
    public let requestID: String
    /// The platform whose control plane this is.
    public let platform: PlatformID
    /// Decoded path parameters (including `id`).
    public let parameters: [String: String]
    /// The route pattern that matched (full path).
    public let route: String
    /// The project named in the path; it exists.
    public let projectID: ProjectID
    /// The project's clock reading when the request arrived.
    public let now: Date
    /// Shared services.
    public let services: EmulatorServices

    /// Creates a context (the core does this; tests of handlers may too).
    public init(
        requestID: String, platform: PlatformID, parameters: [String: String], route: String,
        projectID: ProjectID, now: Date, services: EmulatorServices
    ) {
        self.requestID = requestID
        self.platform = platform
        self.parameters = parameters
        self.route = route
        self.projectID = projectID
        self.now = now
        self.services = services
    }

    /// Path parameter `name` ("" when absent, which cannot happen for a parameter in the pattern).
    public func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// The database.
    public var database: any Database { services.database }
}
