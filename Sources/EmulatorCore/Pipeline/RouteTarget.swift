import HTTPServer

/// What the router finds for a path: who owns the route and the handler to run.
struct RouteTarget: Sendable {
    /// Who answers: the core control plane, a platform's SDK surface, or a platform's control plane.
    enum Owner: Sendable {
        case core
        case platform(PlatformID)
        case platformAdmin(PlatformID)

        /// The platform, for platform-owned routes.
        var platform: PlatformID? {
            switch self {
            case .core: return nil
            case .platform(let id), .platformAdmin(let id): return id
            }
        }

        /// Whether this is SDK traffic (faults apply, the project comes from the credential).
        var isSDK: Bool {
            if case .platform = self { return true }
            return false
        }
    }

    let owner: Owner
    let handler: @Sendable (Request, EmulatorContext) async throws -> Response
    /// The route's `writesOnGet`: its GET is refused to other origins like a write.
    var writesOnGet = false
    /// The route's `observe` step for the integration checks (SDK routes of a route group).
    var observe: (@Sendable (Request, EmulatorContext, Response) async -> Observation?)?

    /// A core or SDK route.
    init(
        owner: Owner, handler: @escaping @Sendable (Request, EmulatorContext) async throws -> Response, writesOnGet: Bool = false,
        observe: (@Sendable (Request, EmulatorContext, Response) async -> Observation?)? = nil
    ) {
        self.owner = owner
        self.handler = handler
        self.writesOnGet = writesOnGet
        self.observe = observe
    }

    /// A platform control-plane route: its handler gets an `AdminContext`. The admin guard has
    /// already checked that the path's project exists, and the router only matches these routes
    /// with an `{id}` parameter, so the project is never missing.
    init(admin route: AdminRoute, platform: PlatformID) {
        owner = .platformAdmin(platform)
        writesOnGet = route.writesOnGet
        handler = { request, context in
            try await route.handler(
                request,
                AdminContext(
                    requestID: context.requestID, platform: platform, parameters: context.parameters,
                    route: context.route, projectID: context.parameter("id"), now: context.now,
                    services: context.services))
        }
    }
}
