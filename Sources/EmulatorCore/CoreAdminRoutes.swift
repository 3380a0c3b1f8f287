import Foundation
import HTTPServer
import Storage

/// The control plane's own routes under `/__admin`: health, projects, clocks, faults, journal,
/// snapshots, outbox and the OpenAPI documents. Platform-specific control routes live in each
/// platform's `Admin.swift`.
enum CoreAdminRoutes {
    struct CreateProject: Codable {
        var id: String?
        var name: String?
        var seed: UInt64?
        var credentials: [String: [String: String]]?
    }

    struct ClockBody: Codable {
        var mode: ClockSettings.Mode
        var now: String?
        var offsetSeconds: Double?
    }

    struct AdvanceBody: Codable {
        var seconds: Double
    }

    struct SnapshotBody: Codable {
        var name: String
    }

    struct WaitBody: Codable {
        var platform: String?
        var method: String?
        var path: String?
        var status: Int?
        var since: Int?
        var count: Int?
        var timeoutMs: Int?
    }

    /// The longest `requests/wait` a request may ask for.
    static let maxWaitMilliseconds = 120_000

    static func routes(
        readiness: ReadinessFlag, projects: ProjectStore, faults: FaultEngine, journal: Journal, snapshots: SnapshotStore, platforms: [any Platform],
        metrics: EmulatorMetrics, checks: CheckEngine
    ) -> [Route] {
        var routes: [Route] = []

        // Precomputed: probes are hammered by orchestrators and benchmarks alike.
        let healthBody = JSONValue.object(["status": "ok"]).encoded()
        routes.append(
            Route(.get, "/__admin/health") { _, _ in
                .json(status: 200, bytes: healthBody)
            })
        routes.append(
            Route(.get, "/__admin/ready") { _, context in
                guard readiness.isReady else {
                    return .json(status: 503, bytes: JSONValue.object(["status": "starting"]).encoded())
                }
                let pending = try await context.database.read { connection in
                    try connection.scalar("SELECT count(*) FROM projects").int ?? 0
                }
                return .json(JSONValue.object(["status": "ready", "database": "ok", "projects": .int(Int64(pending))]))
            })

        routes.append(EmulatorMetrics.route(metrics: metrics, journal: journal))

        // The documents are public and answer CORS, so Swagger UI or Redoc in a browser can load
        // them straight from the server (AdminGuard lets them through without the admin token).
        routes.append(
            Route(.get, "/__admin/openapi.json") { request, context in
                let endpoints = context.services.advertisedEndpoints(for: request)
                return CORS.allowingAnyOrigin(.json(status: 200, bytes: CoreOpenAPI.document(servers: servers(endpoints, path: ""), platforms: platforms.map(\.id)).encoded()))
            })
        routes.append(
            Route(.get, "/__admin/openapi/{document}") { request, context in
                let name = context.parameter("document").replacingOccurrences(of: ".json", with: "")
                guard let platform = platforms.first(where: { $0.id.rawValue == name }) else {
                    throw AdminError.notFound("OpenAPI document `\(name)`")
                }
                var document = platform.openAPIDocument()
                if case .object(var members) = document {
                    members["servers"] = servers(context.services.advertisedEndpoints(for: request), path: platform.id.pathPrefix)
                    document = .object(members)
                }
                return CORS.allowingAnyOrigin(.json(status: 200, bytes: document.encoded()))
            })
        for path in ["/__admin/openapi.json", "/__admin/openapi/{document}"] {
            routes.append(Route(.options, path) { _, _ in CORS.preflight() })
        }
        // Public too: a phone's browser downloads it to install the CA, and a certificate is no secret.
        routes.append(
            Route(.get, AdvertisedEndpoints.caCertificateRoute) { _, context in
                guard let path = context.services.addresses.caCertificatePath else {
                    throw AdminError.notFound("A local CA (this server runs no TLS listener or proxy)")
                }
                guard let pem = FileManager.default.contents(atPath: path) else {
                    throw AdminError(status: 503, code: "ca_unreadable", message: "The CA certificate file \(path) cannot be read.")
                }
                var headers = HTTPHeaders()
                headers.set("Content-Type", "application/x-pem-file")
                headers.set("Content-Disposition", "attachment; filename=\"understudy-ca.pem\"")
                return Response(status: 200, headers: headers, body: pem)
            })

        // MARK: Projects

        routes.append(
            Route(.post, "/__admin/projects") { request, context in
                let body = request.body.isEmpty ? CreateProject() : try decodeAdmin(CreateProject.self, request)
                var overrides: [PlatformID: [String: String]] = [:]
                for (name, values) in body.credentials ?? [:] {
                    let platform = PlatformID(name)
                    guard platforms.contains(where: { $0.id == platform }) else {
                        throw AdminError.badRequest("Unknown platform `\(name)` in credentials.")
                    }
                    overrides[platform] = values
                }
                let record = try await projects.create(id: body.id, name: body.name, seed: body.seed, credentialOverrides: overrides)
                return .json(status: 201, bytes: ProjectAnswer.render(record, for: request, services: context.services, platforms: platforms).encoded())
            })
        routes.append(
            Route(.get, "/__admin/projects") { request, context in
                let all = try await projects.list()
                return .json(
                    status: 200,
                    bytes: JSONValue.object(["projects": .array(all.map { ProjectAnswer.render($0, for: request, services: context.services, platforms: platforms) })]).encoded())
            })
        routes.append(
            Route(.get, "/__admin/projects/{id}") { request, context in
                guard let record = try await projects.get(context.parameter("id")) else { throw AdminError.notFound("Project `\(context.parameter("id"))`") }
                return .json(status: 200, bytes: ProjectAnswer.render(record, for: request, services: context.services, platforms: platforms).encoded())
            })
        routes.append(
            Route(.delete, "/__admin/projects/{id}") { _, context in
                let id = context.parameter("id")
                await checks.flush() // a finding still being written would outlive the project's rows
                guard try await projects.delete(id) else { throw AdminError.notFound("Project `\(id)`") }
                checks.forget(project: id)
                faults.forget(project: id)
                context.services.projectCache.invalidate(project: id)
                try await journal.clear(project: id)
                for platform in platforms { await platform.projectStateDidChange(id) }
                return .empty(204)
            })
        routes.append(
            Route(.post, "/__admin/projects/{id}/reset") { request, context in
                let id = context.parameter("id")
                await checks.flush() // a finding still being written would come back after the reset
                try await projects.reset(id)
                checks.forget(project: id)
                try await faults.removeAll(project: id)
                try await journal.clear(project: id)
                for platform in platforms { await platform.projectStateDidChange(id) }
                guard let record = try await projects.get(id) else { throw AdminError.notFound("Project `\(id)`") }
                return .json(status: 200, bytes: ProjectAnswer.render(record, for: request, services: context.services, platforms: platforms).encoded())
            })

        routes += bundleRoutes(
            ProjectBundleStore(services: projects.services, projects: projects, faults: faults, journal: journal, platforms: platforms),
            platforms: platforms, checks: checks)
        routes += findingRoutes(checks: checks, platforms: platforms)
        routes += deviceRoutes(journal: journal, checks: checks, platforms: platforms)

        // MARK: Clock

        routes.append(
            Route(.get, "/__admin/projects/{id}/clock") { _, context in
                let id = context.parameter("id")
                if let problem = context.services.clocks.rangeProblem(for: id) {
                    // A clock stored before the bound (or by hand): say so, and how to repair it.
                    throw AdminError(status: 409, code: "clock_out_of_range", message: CoreFailure.storedStateUnreadable(project: id, detail: problem).message)
                }
                return .json(status: 200, bytes: renderClock(context.services.clocks.settings(for: id)).encoded())
            })
        routes.append(
            Route(.put, "/__admin/projects/{id}/clock") { request, context in
                let body = try decodeAdmin(ClockBody.self, request)
                let settings: ClockSettings
                switch body.mode {
                case .real:
                    settings = .real
                case .frozen:
                    var instant = Date()
                    if let text = body.now {
                        guard let parsed = Timestamp.parse(text) else { throw AdminError.badRequest("`now` must be an ISO 8601 date-time; got `\(text)`.") }
                        instant = parsed
                    }
                    settings = ClockSettings(mode: .frozen, frozenAt: instant, offsetSeconds: 0)
                case .offset:
                    if let text = body.now {
                        guard let parsed = Timestamp.parse(text) else { throw AdminError.badRequest("`now` must be an ISO 8601 date-time; got `\(text)`.") }
                        settings = ClockSettings(mode: .offset, frozenAt: nil, offsetSeconds: parsed.timeIntervalSinceNow)
                    } else {
                        settings = ClockSettings(mode: .offset, frozenAt: nil, offsetSeconds: body.offsetSeconds ?? 0)
                    }
                }
                if let problem = settings.rangeProblem() { throw AdminError.badRequest(problem, code: "clock_out_of_range") }
                try await projects.setClock(context.parameter("id"), settings)
                return .json(status: 200, bytes: renderClock(settings).encoded())
            })
        routes.append(
            Route(.post, "/__admin/projects/{id}/clock/advance") { request, context in
                let body = try decodeAdmin(AdvanceBody.self, request)
                guard body.seconds.isFinite, body.seconds >= 0, body.seconds <= ClockSettings.maximumAdvanceSeconds else {
                    throw AdminError.badRequest("`seconds` must be between 0 and ten years.")
                }
                let id = context.parameter("id")
                let settings = context.services.clocks.settings(for: id).advanced(by: body.seconds)
                if let problem = settings.rangeProblem() { throw AdminError.badRequest(problem, code: "clock_out_of_range") }
                try await projects.setClock(id, settings)
                return .json(status: 200, bytes: renderClock(settings).encoded())
            })

        // MARK: Faults

        for scoped in [true, false] {
            let base = scoped ? "/__admin/projects/{id}/faults" : "/__admin/faults"
            routes.append(
                Route(.post, base) { request, context in
                    let rule = try decodeAdmin(FaultRule.self, request)
                    if let problem = rule.validationProblem(platforms: platforms.map(\.id)) { throw AdminError.badRequest(problem, code: "invalid_rule") }
                    let id = "flt_" + context.services.generateIDs(for: nil) { $0.lowerAlphanumeric(12) }
                    let stored = try await faults.add(rule, project: scoped ? context.parameter("id") : nil, id: id)
                    return .json(stored, status: 201)
                })
            routes.append(
                Route(.get, base) { _, context in
                    .json(["rules": try await faults.list(project: scoped ? context.parameter("id") : nil)])
                })
            routes.append(
                Route(.delete, base) { _, context in
                    try await faults.removeAll(project: scoped ? context.parameter("id") : nil)
                    return .empty(204)
                })
            routes.append(
                Route(.delete, base + "/{rule}") { _, context in
                    guard try await faults.remove(id: context.parameter("rule"), project: scoped ? context.parameter("id") : nil) else {
                        throw AdminError.notFound("Fault rule `\(context.parameter("rule"))`")
                    }
                    return .empty(204)
                })
        }

        // MARK: Journal

        @Sendable func listJournal(_ request: Request, project: ProjectID?) async throws -> Response {
            var (filter, waitMs) = try journalFilter(request, platforms: journalPlatformNames(platforms), serverWide: project == nil)
            if waitMs > 0 {
                // Long poll: answers as soon as anything newer than `after` matches, else empty at the deadline.
                filter.limit = filter.limit ?? 100
                let result = try await journal.wait(project: project, filter: filter, count: 1, timeout: Double(waitMs) / 1000)
                return .json(JournalPage(requests: result.entries, evicted: result.evicted))
            }
            let result = try await journal.query(project: project, filter: filter)
            return .json(JournalPage(requests: result.entries, evicted: result.evicted))
        }
        routes.append(
            Route(.get, "/__admin/projects/{id}/requests") { request, context in
                try await listJournal(request, project: context.parameter("id"))
            })
        // The journal as HAR 1.2, for the network panels that import it; the listing's filters.
        routes.append(
            Route(.get, "/__admin/projects/{id}/requests.har") { request, context in
                var (filter, waitMs) = try journalFilter(request, platforms: journalPlatformNames(platforms))
                guard waitMs == 0 else { throw AdminError.badRequest("`waitMs` belongs to the listing (GET …/requests), not to the archive.") }
                filter.limit = filter.limit ?? 1000
                let result = try await journal.query(project: context.parameter("id"), filter: filter)
                var response = Response.json(status: 200, bytes: JournalHAR.archive(result.entries, version: metrics.serverVersion, platforms: platforms).encoded())
                response.headers.set("Content-Disposition", "attachment; filename=\"\(context.parameter("id")).har\"")
                return response
            })
        // Every project's entries and those with none: what the proxy answered itself (CONNECTs,
        // refusals, forwarded requests) belongs to no project, and so does every request meant
        // for an emulated service that matched none (`unmatched=true` lists only those).
        routes.append(
            Route(.get, "/__admin/requests") { request, _ in
                try await listJournal(request, project: nil)
            })
        routes.append(
            Route(.post, "/__admin/projects/{id}/requests/wait") { request, context in
                let body = request.body.isEmpty ? WaitBody() : try decodeAdmin(WaitBody.self, request)
                let count = body.count ?? 1
                guard (1...10_000).contains(count) else { throw AdminError.badRequest("`count` must be 1–10000.") }
                let timeoutMs = body.timeoutMs ?? 5_000
                guard (0...maxWaitMilliseconds).contains(timeoutMs) else {
                    throw AdminError.badRequest("`timeoutMs` must be 0–\(maxWaitMilliseconds) (a longer wait belongs in the test, not in one request).")
                }
                let timeout = Double(timeoutMs) / 1000
                let platform = try body.platform.map { try journalPlatform($0, known: journalPlatformNames(platforms)) }
                // Without a platform a wait counts what was sent to the emulated services, never the
                // test's own control-plane calls (seeding, clock changes): `platform: admin` asks for those.
                let filter = JournalFilter(
                    platform: platform, method: body.method, path: body.path, status: body.status, since: body.since,
                    excludedPlatform: platform == nil ? Journal.controlPlanePlatform : nil)
                let result = try await journal.wait(project: context.parameter("id"), filter: filter, count: count, timeout: timeout)
                if result.satisfied { return .json(JournalPage(requests: result.entries, evicted: result.evicted)) }
                return AdminError(
                    status: 408, code: "wait_timeout",
                    message: "Saw \(result.entries.count) of \(count) matching requests within \(Int(timeout * 1000)) ms.",
                    details: try JSONValue.from(JournalPage(requests: result.entries, evicted: result.evicted))
                ).response
            })
        routes.append(
            Route(.delete, "/__admin/projects/{id}/requests") { _, context in
                try await journal.clear(project: context.parameter("id"))
                return .empty(204)
            })

        // MARK: Snapshots

        routes.append(
            Route(.post, "/__admin/projects/{id}/snapshots") { request, context in
                let body = try decodeAdmin(SnapshotBody.self, request)
                await checks.flush() // the snapshot holds every finding raised so far
                guard ProjectStore.isValidID(body.name) else { throw AdminError.badRequest("Snapshot names are 1–64 characters of a–z, A–Z, 0–9, `_` and `-`.") }
                return .json(try await snapshots.save(project: context.parameter("id"), name: body.name), status: 201)
            })
        routes.append(
            Route(.get, "/__admin/projects/{id}/snapshots") { _, context in
                .json(["snapshots": try await snapshots.list(project: context.parameter("id"))])
            })
        routes.append(
            Route(.post, "/__admin/projects/{id}/snapshots/{name}/restore") { _, context in
                await checks.flush()
                guard try await snapshots.restore(project: context.parameter("id"), name: context.parameter("name")) else {
                    throw AdminError.notFound("Snapshot `\(context.parameter("name"))`")
                }
                checks.forget(project: context.parameter("id"))
                return .json(JSONValue.object(["restored": .string(context.parameter("name"))]))
            })
        routes.append(
            Route(.delete, "/__admin/projects/{id}/snapshots/{name}") { _, context in
                guard try await snapshots.delete(project: context.parameter("id"), name: context.parameter("name")) else {
                    throw AdminError.notFound("Snapshot `\(context.parameter("name"))`")
                }
                return .empty(204)
            })

        // MARK: Outbox

        routes.append(
            Route(.get, "/__admin/projects/{id}/outbox") { request, context in
                var platform: PlatformID?
                if let name = request.queryValue("platform"), !name.isEmpty {
                    guard platforms.contains(where: { $0.id.rawValue == name }) else { throw AdminError.badRequest("Unknown platform `\(name)`.") }
                    platform = PlatformID(name)
                }
                let kind = request.queryValue("kind").flatMap { $0.isEmpty ? nil : $0 } // an empty filter is no filter
                let messages = try await context.services.outbox.list(project: context.parameter("id"), platform: platform, kind: kind)
                return .json(["messages": messages])
            })
        return routes
    }

    /// Decodes a control-plane body strictly (unknown keys are errors) into the admin error format.
    static func decodeAdmin<T: Codable>(_ type: T.Type, _ request: Request) throws -> T {
        try AdminBody.decode(type, from: request)
    }

    /// OpenAPI `servers`: the plain base URL, then the HTTPS one when a TLS listener runs.
    static func servers(_ endpoints: AdvertisedEndpoints, path: String) -> JSONValue {
        var servers: [JSONValue] = [["url": .string(endpoints.baseURL + path)]]
        if let https = endpoints.httpsBaseURL, https != endpoints.baseURL {
            servers.append(["url": .string(https + path), "description": "The HTTPS port (trust the local CA)."])
        }
        return .array(servers)
    }

    static func renderClock(_ settings: ClockSettings) -> JSONValue {
        var members: [String: JSONValue] = [
            "mode": .string(settings.mode.rawValue),
            "now": .string(Timestamp.format(settings.now())),
            "offsetSeconds": .double(settings.mode == .offset ? settings.offsetSeconds : 0),
        ]
        if let frozen = settings.frozenAt, settings.mode == .frozen { members["frozenAt"] = .string(Timestamp.format(frozen)) }
        return .object(members)
    }
}
