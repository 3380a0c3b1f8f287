import Foundation
import HTTPServer
import Storage
import Synchronization

/// The application the HTTP server runs: a fixed pipeline of named stages, because their order
/// is part of the semantics (faults must see the project; the journal must see the fault):
///
/// proxy decisions (CONNECT, other hosts) → platform resolution → host allow-list → routing →
/// project resolution (SDK) or admin guard (control plane) →
/// fault stage (SDK only) → handler → integration checks (SDK only) → journal recorder.
///
/// `respond(to:)` is also the in-process test seam: hand it a `Request`, get the `Response`.
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
    /// What `GET /__admin/metrics` reports.
    public let metrics: EmulatorMetrics
    /// Opens the proxy's connections to hosts no platform emulates.
    public let upstreams: UpstreamConnector
    /// The integration checks and their findings.
    public let checks: CheckEngine

    private let router: Router<RouteTarget>
    private let readiness: ReadinessFlag
    private let platformResolver: PlatformResolver
    private let hostAllowList: HostAllowList
    private let projectResolver: ProjectResolver
    private let adminGuard: AdminGuard
    private let faultStage: FaultStage
    private let recorder: JournalRecorder
    private let proxyStage: ProxyStage

    /// Builds the emulator; `load()` must run before serving. `additionalRoutes` are core-level
    /// routes (absolute paths, control-plane rules) contributed by modules above the core.
    @inline(never) // classes with Atomic/Mutex storage are allocated only by their own module
    public init(services: EmulatorServices, platforms: [any Platform], additionalRoutes: [Route] = []) throws {
        self.services = services
        self.platforms = platforms
        self.projects = ProjectStore(services: services, platforms: platforms)
        self.faults = FaultEngine(database: services.database)
        self.journal = try Journal(
            database: services.journalDatabase, limits: services.settings.journal,
            bodyDirectory: services.journalBodyDirectory)
        self.snapshots = SnapshotStore(services: services, projects: projects, platforms: platforms)

        let metrics = EmulatorMetrics(platforms: platforms.map(\.id))
        self.metrics = metrics
        let checks = try CheckEngine(services: services, platforms: platforms, metrics: metrics)
        self.checks = checks
        let readiness = ReadinessFlag()
        self.readiness = readiness
        var router = Router<RouteTarget>()
        let coreRoutes = CoreAdminRoutes.routes(
            readiness: readiness, projects: projects, faults: faults, journal: journal,
            snapshots: snapshots, platforms: platforms, metrics: metrics, checks: checks)
        for route in coreRoutes + additionalRoutes {
            try router.add(route.method, route.path, RouteTarget(owner: .core, handler: route.handler, writesOnGet: route.writesOnGet))
        }
        for platform in platforms {
            for route in platform.routes() {
                try router.add(
                    route.method, platform.id.pathPrefix + route.path, RouteTarget(owner: .platform(platform.id), handler: route.handler, observe: route.observe))
            }
            for route in platform.adminRoutes() {
                try router.add(route.method, "/__admin/projects/{id}/" + platform.id.rawValue + route.path, RouteTarget(admin: route, platform: platform.id))
            }
        }
        self.router = router
        platformResolver = PlatformResolver(platforms: platforms)
        hostAllowList = HostAllowList(configured: services.settings.allowedHosts, platforms: platforms, addresses: { [services] in services.addresses })
        projectResolver = ProjectResolver(services: services)
        let projects = self.projects
        adminGuard = AdminGuard(
            token: services.settings.adminToken, projectExists: { projects.exists($0) },
            publicURL: { [services] in services.addresses.publicURL })
        faultStage = FaultStage(engine: faults)
        recorder = JournalRecorder(journal: journal, logger: services.logger, metrics: metrics.installRequestCounters(routeTemplates: router.templates))
        upstreams = UpstreamConnector(connectTimeout: services.settings.proxy.connectTimeout)
        proxyStage = ProxyStage(
            platforms: platforms, settings: services.settings.proxy, connector: upstreams, logger: services.logger,
            listensBeyondLoopback: services.settings.listensBeyondLoopback, addresses: { [services] in services.addresses })
        metrics.observe(upstreams: upstreams)
    }

    /// Whether some platform serves `host` (its real host names, custom domains, configured hosts):
    /// the proxy intercepts exactly these.
    public func emulates(host: String) -> Bool { proxyStage.emulates(host: host) }

    /// Whether `request` is the proxy's to answer (a CONNECT, or an absolute-form request on the
    /// proxy port for a host nobody emulates); front ends such as the dashboard leave these alone.
    public func answersAsProxy(_ request: Request) -> Bool { proxyStage.claims(request) }

    /// Whether `request`'s `Host` is a name this server answers to (`HostAllowList`); front ends
    /// such as the dashboard hand the others to `respond(to:)`, which refuses and journals them.
    public func admitsHost(_ request: Request) -> Bool { hostAllowList.admits(request) }

    /// Loads projects, clocks and fault rules, creates the demo project if configured, and starts
    /// the platforms' background work.
    public func load() async throws {
        try await projects.loadAll()
        try await faults.load()
        if let directory = services.settings.fixturesDirectory {
            _ = try await projects.loadDemo(from: directory)
        }
        for platform in platforms { await platform.start(services: services) }
        if services.database.isShared {
            let instance = services.instanceID
            // One resync at a time, in arrival order: two running at once could finish out of
            // order, and the one that read first would put back what the other had just learned.
            let (announced, continuation) = AsyncStream<ProjectID?>.makeStream()
            services.database.observeAnnouncements { payload in
                let parts = payload.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2, parts[0] != instance else { return }
                continuation.yield(parts[1] == "*" ? nil : parts[1])
            }
            Task { [weak self] in
                for await project in announced {
                    guard let self else { return }
                    await self.resync(project)
                }
            }
        }
        readiness.markReady()
    }

    /// Brings this instance's caches up to date after another instance sharing the database
    /// changed `project` (nil: anything, or projects made or deleted): projects and their clocks,
    /// credentials, fault rules and the platforms' own caches. A failing read leaves the caches
    /// as they were; the next announcement tries again.
    func resync(_ project: ProjectID?) async {
        do {
            let appearedOrGone = try await projects.refresh()
            if let project { services.projectCache.invalidate(project: project) } else { services.projectCache.invalidateAll() }
            // Another instance reset, restored or replaced it, or cleared its findings: start over here too.
            for id in project.map({ [$0] }) ?? [] { checks.forget(project: id) }
            try await faults.load()
            for id in Set(appearedOrGone + (project.map { [$0] } ?? [])) {
                for platform in platforms { await platform.projectStateDidChange(id) }
            }
        } catch {
            services.logger.error("caches could not follow another instance's change", [("error", String(describing: error))])
        }
    }

    /// Whether `load()` has finished (the readiness probe answers 200 only then).
    public var isReady: Bool { readiness.isReady }

    // MARK: - HTTPApplication

    /// Answers a request.
    public func respond(to request: Request) async -> Response {
        // Probes are never journalled, so their ids need not be unique across instances: no
        // round trip to the shared sequence for a load balancer's health checks.
        let requestID = AdminGuard.probes.contains(request.path) ? journal.reserveID() : await journal.reserveRequestID()
        var exchange = JournalRecorder.Exchange(requestID: requestID)
        if let proxied = await proxyStage.answer(request) {
            exchange.routedPath = proxied.journalPath
            exchange.isProxyAnswer = true
            exchange.unmatched = proxied.unmatched
            await recorder.record(request, proxied.response, exchange)
            return proxied.response
        }
        let destination = platformResolver.resolve(request)
        (exchange.routedPath, exchange.routedByHost) = (destination.routedPath, destination.byHost)
        guard hostAllowList.admits(request, hostEmulated: destination.byHost) else {
            // In the format of the platform the path names; no project is looked up or created.
            exchange.platform = destination.platform?.id
            if !Self.isControlPlanePath(destination.routedPath) {
                exchange.unmatched = UnmatchedRequest(reason: .hostNotAllowed, host: request.hostName ?? request.headers["host"])
            }
            let response = failureResponse(
                .misdirectedRequest(host: request.headers["host"] ?? ""), platform: destination.platform,
                requestID: exchange.requestID)
            await recorder.record(request, response, exchange)
            return response
        }
        var platform = destination.platform
        let match = router.match(request.method, path: destination.routedPath)
        var target: RouteTarget?
        var parameters: [String: String] = [:]
        if case .matched(let found, let foundParameters, let template) = match {
            (target, parameters, exchange.route) = (found, foundParameters, template)
            // SDK routes live under their platform's prefix, so the resolver's answer stands; a
            // platform's control-plane route (`/__admin/projects/{id}/<platform>/…`) names its owner.
            if case .platformAdmin(let id) = found.owner { platform = platforms.first { $0.id == id } }
        }
        let isControlPlane = target.map { !$0.owner.isSDK } ?? (platform == nil)
        exchange.platform = platform?.id

        let response: Response
        if isControlPlane {
            exchange.project = parameters["id"]
            exchange.isControlPlane = true
            if Self.isControlPlanePath(destination.routedPath) {
                exchange.isControlPlaneRead = Self.onlyReads(request.method, route: exchange.route, writesOnGet: target?.writesOnGet ?? false)
            } else {
                exchange.unmatched = UnmatchedRequest(reason: .noPlatform)
            }
            response = await answerControlPlane(request, match: match, target: target, parameters: parameters, exchange: exchange, platform: platform)
        } else if let platform {
            response = await answerSDK(request, platform: platform, match: match, target: target, parameters: parameters, exchange: &exchange)
        } else {
            response = failureResponse(.routeNotFound, platform: nil, requestID: exchange.requestID)
        }
        await recorder.record(request, response, exchange)
        return response
    }

    /// Answers a request that could not be read, in the format of the platform its path names.
    public func respond(to error: HTTPRequestError, head: Request?) async -> Response {
        let requestID = await journal.reserveRequestID()
        guard let head else { return HTTPApplicationDefaults.errorResponse(error) }
        let destination = platformResolver.resolve(head)
        var exchange = JournalRecorder.Exchange(requestID: requestID, platform: destination.platform?.id, routedPath: destination.routedPath)
        if let platform = destination.platform {
            // Best effort: an unreadable request's project only labels its journal entry.
            let identity = try? await projectResolver.identify(head, platform: platform, routedPath: destination.routedPath, byHost: destination.byHost)
            exchange.project = identity?.project
            exchange.unmatched = identity?.unmatched
        } else if !Self.isControlPlanePath(destination.routedPath) {
            exchange.unmatched = UnmatchedRequest(reason: .noPlatform)
        }
        if case .matched(_, _, let template) = router.match(head.method, path: destination.routedPath) { exchange.route = template }
        let response = failureResponse(.unreadableRequest(error), platform: destination.platform, requestID: requestID)
        await recorder.record(head, response, exchange)
        return response
    }

    // MARK: - Stages

    /// Whether `path` is the control plane's (`/__admin…`); other paths no platform serves are
    /// answered by it too, but they were meant for a platform (`no_platform`).
    static func isControlPlanePath(_ path: String) -> Bool { path.hasPrefix("/__admin") }

    /// Whether a control-plane call with `method` on `route` only reads, and so is not journalled:
    /// `GET` and `HEAD`, whatever they answered, unless the route's `GET` may write (it lets due
    /// transitions happen, which then show in the journal beside what caused them), and a wait for
    /// journal entries, a `POST` only for its body. A CORS preflight (`OPTIONS`) is journalled: it
    /// is a web page of another origin asking to write.
    static func onlyReads(_ method: HTTPMethod, route: String?, writesOnGet: Bool) -> Bool {
        ((method == .get || method == .head) && !writesOnGet) || (method == .post && route == "/__admin/projects/{id}/requests/wait")
    }

    private func answerControlPlane(
        _ request: Request, match: Router<RouteTarget>.Match, target: RouteTarget?, parameters: [String: String],
        exchange: JournalRecorder.Exchange, platform: (any Platform)?
    ) async -> Response {
        guard let target, case .matched(_, _, let template) = match else { return answers(nil).unrouted(match, requestID: String(exchange.requestID)) }
        if let project = exchange.project, services.database.isShared, !projects.exists(project) {
            // Another instance may have made it moments ago, before its announcement arrived here.
            _ = try? await projects.learn(project)
        }
        let changesState = ![HTTPMethod.get, .head, .options].contains(request.method) || target.writesOnGet
        if let refusal = adminGuard.check(
            request, path: exchange.routedPath, template: template, project: exchange.project,
            changesState: changesState)
        {
            return refusal
        }
        let context = EmulatorContext(
            requestID: String(exchange.requestID), platform: platform?.id, parameters: parameters, route: template,
            projectID: exchange.project, now: services.clocks.now(for: exchange.project), services: services,
            errors: answers(nil))
        let response = await run(target, request, context)
        // The project state cache's one rule: a control-plane write to a project drops its cached
        // credentials — after the write committed, so an SDK request racing it cannot re-cache
        // the old record. Other instances on the same database follow within milliseconds.
        if request.method != .get, request.method != .head { await services.projectChanged(exchange.project) }
        return response
    }

    private func answerSDK(
        _ request: Request, platform: any Platform, match: Router<RouteTarget>.Match, target: RouteTarget?,
        parameters: [String: String], exchange: inout JournalRecorder.Exchange
    ) async -> Response {
        let identity: ProjectResolver.Identity
        do {
            identity = try await projectResolver.identify(request, platform: platform, routedPath: exchange.routedPath, byHost: exchange.routedByHost)
        } catch {
            services.logger.error("project identification failed", [("path", exchange.routedPath), ("error", String(describing: error))])
            return answers(platform).storageUnavailable(requestID: String(exchange.requestID))
        }
        exchange.project = identity.project
        exchange.unmatched = identity.unmatched
        // Made after the faults (a delay moves a running clock on), or for the checks when a fault
        // answered instead of the handler.
        let makeContext = { [services, checks, requestID = exchange.requestID, byHost = exchange.routedByHost] () -> EmulatorContext? in
            guard target != nil, case .matched(_, _, let template) = match else { return nil }
            return EmulatorContext(
                requestID: String(requestID), platform: platform.id, parameters: parameters, route: template,
                projectID: identity.project, credential: identity.credential, presentedCredentials: identity.presented,
                now: services.clocks.now(for: identity.project), services: services, errors: self.answers(platform),
                notes: checks.isEnabled && identity.project != nil && target?.observe != nil ? ObservationNotes() : nil, routedByHost: byHost)
        }
        let (response, context, observable) = await answerSDK(
            request, platform: platform, match: match, target: target, makeContext: makeContext, exchange: &exchange)
        // The checks see the answer the app got, fault or not; they cannot change it.
        if observable, checks.isEnabled, let observer = target?.observe, let context = context ?? makeContext() {
            exchange.device = await checks.observe(
                request, response, observer: observer, context: context, journalID: exchange.requestID, routedPath: exchange.routedPath)
        }
        return response
    }

    /// Faults, the clock check and the handler of an identified SDK request; also the handler's
    /// context, when the handler ran, and whether the checks should see the exchange (not when the
    /// test's own fault header was refused: that is the test tool's mistake, not the app's).
    private func answerSDK(
        _ request: Request, platform: any Platform, match: Router<RouteTarget>.Match, target: RouteTarget?,
        makeContext: () -> EmulatorContext?, exchange: inout JournalRecorder.Exchange
    ) async -> (Response, EmulatorContext?, Bool) {
        var headerFault: FaultRule.Action?
        switch FaultStage.header(request) {
        case .failure(let problem)?:
            let refusal = BodyError(code: "invalid_fault_header", field: "X-Understudy-Fault", message: problem.message)
            return (failureResponse(.invalidBody(refusal), platform: platform, requestID: exchange.requestID), nil, false)
        case .success(let action)?: headerFault = action
        case nil: break
        }
        let fired = await faultStage.fire(request, header: headerFault, platform: platform.id, project: exchange.project, routedPath: exchange.routedPath)
        exchange.fault = fired?.note
        do {
            try await faults.persistCounters()
        } catch {
            // The fault still applies; only its counters may restart with the server.
            services.logger.error("fault rule counters could not be saved", [("error", String(describing: error))])
        }
        if let fired {
            if case .delay(let milliseconds) = fired.action.kind {
                try? await Task.sleep(nanoseconds: UInt64(max(0, milliseconds)) * 1_000_000) // cancellation only shortens the delay
            }
            let requestID = exchange.requestID
            if let replaced = FaultStage.replacement(for: fired.action, platformError: { platform.errorResponse(for: .injected(status: $0), requestID: String(requestID)) }) {
                return (replaced, nil, true)
            }
        }

        var response: Response
        var context: EmulatorContext?
        if target != nil, let project = exchange.project, let problem = services.clocks.rangeProblem(for: project) {
            response = failureResponse(.storedStateUnreadable(project: project, detail: problem), platform: platform, requestID: exchange.requestID)
        } else if let target, let made = makeContext() {
            context = made
            response = await run(target, request, made)
        } else {
            response = answers(platform).unrouted(match, requestID: String(exchange.requestID))
        }
        if let fired { response = FaultStage.damage(response, with: fired.action) }
        return (response, context, true)
    }

    /// The handler; whatever it throws becomes the owner's answer through `context.errors`.
    private func run(_ target: RouteTarget, _ request: Request, _ context: EmulatorContext) async -> Response {
        do {
            return try await target.handler(request, context)
        } catch {
            return context.errors.response(for: error, to: request, in: context)
        }
    }

    /// How failures of `platform`'s SDK routes are answered (the control plane's when nil).
    private func answers(_ platform: (any Platform)?) -> ErrorAnswers { ErrorAnswers(platform: platform, logger: services.logger) }

    private func failureResponse(_ failure: CoreFailure, platform: (any Platform)?, requestID: Int) -> Response {
        answers(platform).failure(failure, requestID: String(requestID))
    }
}

/// Set once the emulator has loaded; read by the readiness probe.
final class ReadinessFlag: Sendable {
    private let ready = Atomic<Bool>(false)
    var isReady: Bool { ready.load(ordering: .acquiring) }
    func markReady() { ready.store(true, ordering: .releasing) }
}
