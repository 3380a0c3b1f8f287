import Foundation
import HTTPServer
import SQLiteStore
import Synchronization

/// The application the HTTP server runs: finds the platform and project of each request, applies
/// fault rules, routes it, turns errors into the platform's own format, and journals the exchange.
///
/// Request flow: platform (path prefix, or real host name) → route → project (credential, or the
/// admin path) → admin token → faults → handler → journal → log.
public final class Emulator: HTTPApplication {
    /// Shared services.
    public let services: EmulatorServices
    /// Projects.
    public let projects: ProjectStore
    /// Fault rules.
    public let faults: FaultEngine
    /// The request journal.
    public let journal: Journal
    /// Snapshots of project state.
    public let snapshots: SnapshotStore
    /// The platforms, in registration order.
    public let platforms: [any Platform]

    private enum Owner: Sendable {
        case core
        case platform(PlatformID)
        case platformAdmin(PlatformID)
    }

    private struct Target: Sendable {
        let owner: Owner
        let handler: @Sendable (Request, EmulatorContext) async throws -> Response

        init(owner: Owner, handler: @escaping @Sendable (Request, EmulatorContext) async throws -> Response) {
            self.owner = owner
            self.handler = handler
        }

        /// A platform control-plane route: its handler gets an `AdminContext` (the project was
        /// checked to exist before it runs).
        init(admin route: AdminRoute, platform: PlatformID) {
            owner = .platformAdmin(platform)
            handler = { request, context in
                try await route.handler(request, AdminContext(requestID: context.requestID, platform: platform, parameters: context.parameters,
                                                              route: context.route, projectID: context.projectID ?? "", now: context.now,
                                                              services: context.services))
            }
        }
    }

    private let router: Router<Target>
    private let readiness: ReadinessFlag
    private let platformsByID: [PlatformID: any Platform]

    /// Paths that are never journalled (probes would drown the journal).
    private static let unjournalled: Set<String> = ["/__admin/health", "/__admin/ready"]

    /// Builds the emulator; `load()` must run before serving.
    @inline(never) // see Database.init: classes with Atomic/Mutex storage are allocated in their own module
    public init(services: EmulatorServices, platforms: [any Platform]) throws {
        self.services = services
        self.platforms = platforms
        self.platformsByID = Dictionary(uniqueKeysWithValues: platforms.map { ($0.id, $0) })
        self.projects = ProjectStore(services: services, platforms: platforms)
        self.faults = FaultEngine(database: services.database)
        self.journal = try Journal(database: services.database, limits: services.settings.journal)
        self.snapshots = SnapshotStore(services: services, projects: projects, platforms: platforms)

        var router = Router<Target>()
        let readiness = ReadinessFlag()
        self.readiness = readiness
        for route in CoreAdminRoutes.routes(readiness: readiness, projects: projects, faults: faults, journal: journal, snapshots: snapshots, platforms: platforms) {
            try router.add(route.method, route.path, Target(owner: .core, handler: route.handler))
        }
        for platform in platforms {
            for route in platform.routes() {
                try router.add(route.method, platform.id.pathPrefix + route.path, Target(owner: .platform(platform.id), handler: route.handler))
            }
            for route in platform.adminRoutes() {
                try router.add(route.method, "/__admin/projects/{id}/" + platform.id.rawValue + route.path,
                               Target(admin: route, platform: platform.id))
            }
        }
        self.router = router
    }

    /// Loads projects, clocks and fault rules, creates the demo project if configured, and starts
    /// the platforms' background work.
    public func load() async throws {
        try await projects.loadAll()
        try await faults.load()
        if let directory = services.settings.fixturesDirectory {
            _ = try await projects.loadDemo(from: directory)
        }
        for platform in platforms { await platform.start(services: services) }
        readiness.markReady()
    }

    /// Whether `load()` has finished (the readiness probe answers 200 only then).
    public var isReady: Bool { readiness.isReady }

    // MARK: - HTTPApplication

    /// Answers a request.
    public func respond(to request: Request) async -> Response {
        let requestID = journal.reserveID()
        var (platform, routedPath) = locate(request)

        var projectID: ProjectID?
        var routeTemplate: String?
        var faultNote: String?
        var response: Response
        let match = router.match(request.method, path: routedPath)

        var target: Target?
        var parameters: [String: String] = [:]
        if case .matched(let found, let foundParameters, let template) = match {
            target = found
            parameters = foundParameters
            routeTemplate = template
            switch found.owner {
            case .core: platform = nil
            case .platform(let id), .platformAdmin(let id): platform = platformsByID[id]
            }
        }
        let isAdmin: Bool
        switch target?.owner {
        case .platform?: isAdmin = false
        case .core?, .platformAdmin?: isAdmin = true
        case nil: isAdmin = platform == nil
        }
        var credential: CredentialRecord?
        var storageFailed = false
        if isAdmin {
            projectID = parameters["id"]
        } else if let platform {
            do {
                (projectID, credential) = try await identify(request, platform: platform)
            } catch {
                services.logger.error("project identification failed", [("path", routedPath), ("error", String(describing: error))])
                storageFailed = true
            }
        }

        // Faults apply to all platform traffic, routed or not, and never to the control plane,
        // which must stay reliable so tests can remove them.
        var after: FaultRule.Action?
        var replaced: Response?
        if !isAdmin, let platform {
            var fired: (id: String, action: FaultRule.Action)?
            if let header = request.headers["x-understudy-fault"], let action = FaultEngine.parseHeader(header) {
                fired = ("header", action)
            } else {
                fired = faults.fire(platform: platform.id, project: projectID, method: request.method, path: routedPath, headers: request.headers)
            }
            if let fired {
                faultNote = fired.id == "header" ? "header: \(fired.action.type)" : "rule \(fired.id): \(fired.action.type)"
                if fired.action.type == "delay" {
                    try? await Task.sleep(nanoseconds: UInt64(max(0, fired.action.delayMs ?? 0)) * 1_000_000)
                    after = fired.action
                } else if let response = applyBefore(fired.action, platform: platform, requestID: requestID) {
                    replaced = response
                } else {
                    after = fired.action
                }
            }
        }

        if let replaced {
            response = replaced
        } else if storageFailed {
            response = failureResponse(.storageUnavailable, platform: platform, requestID: requestID)
            response.headers.set("Retry-After", "1")
        } else {
            switch match {
            case .matched:
                // `.matched` always sets `target` above.
                response = await answer(request, target: target!, isAdmin: isAdmin, platform: platform, parameters: parameters,
                                        template: routeTemplate ?? "", projectID: projectID, credential: credential,
                                        requestID: requestID, routedPath: routedPath)
            case .methodNotAllowed(let allowed):
                response = failureResponse(.methodNotAllowed(allowed), platform: platform, requestID: requestID)
                response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            case .notFound:
                response = failureResponse(.routeNotFound, platform: platform, requestID: requestID)
            }
            if let after { response = Self.applyAfter(after, to: response) }
        }

        finish(request, response: response, requestID: requestID, platform: platform, projectID: projectID,
               routedPath: routedPath, route: routeTemplate, fault: faultNote)
        return response
    }

    /// Answers a request that could not be read, in the format of the platform its path names.
    public func respond(to error: HTTPRequestError, head: Request?) async -> Response {
        let requestID = journal.reserveID()
        guard let head else {
            return HTTPApplicationDefaults.errorResponse(error)
        }
        let (platform, routedPath) = locate(head)
        let projectID: ProjectID? = if let platform { (try? await identify(head, platform: platform))?.project } else { nil }
        let response = failureResponse(.unreadableRequest(error), platform: platform, requestID: requestID)
        var route: String?
        if case .matched(_, _, let template) = router.match(head.method, path: routedPath) { route = template }
        finish(head, response: response, requestID: requestID, platform: platform, projectID: projectID,
               routedPath: routedPath, route: route, fault: nil)
        return response
    }

    // MARK: - Steps

    /// The project of an SDK request and the credential it presented: the first presented
    /// credential the index knows, else the platform's credential-less identification.
    private func identify(_ request: Request, platform: any Platform) async throws -> (project: ProjectID?, credential: CredentialRecord?) {
        for presented in platform.presentedCredentials(in: request) {
            let record = try await services.credentials.resolve(presented, platform: platform.id) { presented in
                try await platform.lookUpCredential(presented, services: services)
            }
            if let record { return (record.project, record) }
        }
        return (try await platform.identifyProjectWithoutCredential(request, services: services), nil)
    }

    private func answer(_ request: Request, target: Target, isAdmin: Bool, platform: (any Platform)?, parameters: [String: String],
                        template: String, projectID: ProjectID?, credential: CredentialRecord?, requestID: Int, routedPath: String) async -> Response {
        if isAdmin {
            if let denied = checkAdminToken(request, path: routedPath) { return denied }
            if let projectID, template.hasPrefix("/__admin/projects/{id}"), !projects.exists(projectID) {
                return AdminError.notFound("Project `\(projectID)`").response
            }
        }
        let context = EmulatorContext(requestID: String(requestID), platform: platform?.id, parameters: parameters, route: template,
                                      projectID: projectID, credential: credential, now: services.clocks.now(for: projectID), services: services)
        // The credential index's one rule: a control-plane write to a project drops its cached credentials.
        if isAdmin, let projectID, request.method != .get, request.method != .head { services.credentials.invalidate(project: projectID) }
        do {
            return try await target.handler(request, context)
        } catch let error as ResponseError {
            return error.response
        } catch let error as BodyError {
            return isAdmin ? AdminError(error).response : failureResponse(.invalidBody(error), platform: platform, requestID: requestID)
        } catch {
            services.logger.error("handler failed", [("path", routedPath), ("error", String(describing: error))])
            return isAdmin ? AdminError(status: 500, code: "internal_error", message: String(describing: error)).response
                : failureResponse(.internalError(String(describing: error)), platform: platform, requestID: requestID)
        }
    }

    /// Faults that replace the response (the handler never runs, so no state changes).
    private func applyBefore(_ action: FaultRule.Action, platform: any Platform, requestID: Int) -> Response? {
        switch action.type {
        case "status":
            let status = action.status ?? 500
            var response: Response
            if let body = action.body {
                response = .json(status: status, bytes: body.encoded())
            } else {
                response = platform.errorResponse(for: .injected(status: status), requestID: String(requestID))
                response.status = status
            }
            if let retryAfter = action.retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
            return response
        case "reset":
            return Response(status: 0, delivery: .reset)
        case "hang":
            return Response(status: 0, delivery: .hang(seconds: Double(action.delayMs ?? 30_000) / 1000))
        default:
            return nil
        }
    }

    /// Faults that damage a real response (the handler ran; the client just never sees it whole).
    private static func applyAfter(_ action: FaultRule.Action, to original: Response) -> Response {
        var response = original
        if let retryAfter = action.retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        switch action.type {
        case "closeAfterHeaders":
            response.delivery = .closeAfterHeaders
        case "truncate":
            response.delivery = .truncateBody(bytes: action.bytes ?? response.body.count / 2)
        case "malformedJSON":
            // Cut the document mid-value and close it wrongly: parses as nothing, looks like JSON.
            let cut = response.body.prefix(max(1, response.body.count / 2))
            response.body = Data(cut) + Data("\",}".utf8)
        default:
            break
        }
        return response
    }

    private func failureResponse(_ failure: CoreFailure, platform: (any Platform)?, requestID: Int) -> Response {
        guard let platform else {
            switch failure {
            case .routeNotFound: return AdminError(status: 404, code: "not_found", message: "No such route.").response
            case .methodNotAllowed: return AdminError(status: 405, code: "method_not_allowed", message: failure.message).response
            case .unreadableRequest(let error): return AdminError(status: error.status, code: error.code, message: error.message).response
            case .invalidBody(let error): return AdminError(error).response
            default: return AdminError(status: failure.status, code: "error", message: failure.message).response
            }
        }
        var response = platform.errorResponse(for: failure, requestID: String(requestID))
        response.status = failure.status
        return response
    }

    private func checkAdminToken(_ request: Request, path: String) -> Response? {
        guard let token = services.settings.adminToken, !Self.unjournalled.contains(path) else { return nil }
        var presented = request.headers["x-understudy-admin-token"]
        if presented == nil, let authorization = request.headers["authorization"], authorization.lowercased().hasPrefix("bearer ") {
            presented = String(authorization.dropFirst(7))
        }
        if let presented, ConstantTime.equals(presented, token) { return nil }
        var response = AdminError(status: 401, code: "unauthorized",
                                  message: "The control plane needs the admin token (X-Understudy-Admin-Token or Authorization: Bearer).").response
        response.headers.set("WWW-Authenticate", "Bearer realm=\"understudy-admin\"")
        return response
    }

    /// The platform a request is for and the path to route: a real service's host name puts the
    /// platform's prefix in front of the path; otherwise the path's own prefix names the platform.
    private func locate(_ request: Request) -> (platform: (any Platform)?, routedPath: String) {
        let path = request.path
        if let host = request.hostName, !path.hasPrefix("/__admin") {
            for candidate in platforms {
                if let prefix = candidate.pathPrefix(forHost: host) {
                    return (candidate, prefix + (path == "/" ? "" : path))
                }
            }
        }
        for platform in platforms {
            let prefix = platform.id.pathPrefix
            if path == prefix || path.hasPrefix(prefix + "/") { return (platform, path) }
        }
        return (nil, path)
    }

    private func finish(_ request: Request, response: Response, requestID: Int, platform: (any Platform)?, projectID: ProjectID?,
                        routedPath: String, route: String?, fault: String?) {
        let durationMs = MonotonicClock.millisecondsSince(request.receivedAt)
        let platformName = platform?.id.rawValue ?? "admin"
        if journal.isEnabled && !Self.unjournalled.contains(routedPath) {
            journal.record(Journal.Exchange(
                id: requestID, time: Date(), projectID: projectID, platform: platformName, path: routedPath, route: route,
                request: request, status: response.status, responseHeaders: response.headers, responseBody: response.body,
                durationMs: durationMs, fault: fault))
        }
        services.logger.request(method: request.method.rawValue, path: routedPath, status: response.status, durationMs: durationMs,
                                bytes: response.body.count, platform: platformName, project: projectID)
    }
}

/// Comparison that takes the same time wherever the first difference is.
enum ConstantTime {
    static func equals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8), b = Array(rhs.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}

/// Set once the emulator has loaded; read by the readiness probe.
final class ReadinessFlag: Sendable {
    private let ready = Atomic<Bool>(false)
    var isReady: Bool { ready.load(ordering: .acquiring) }
    func markReady() { ready.store(true, ordering: .releasing) }
}
