import EmulatorCore
import Foundation
import HTTPServer
import Storage

/// The SDK-facing routes and their wire ↔ service mapping: read the request, run the service in
/// one transaction, wrap the result in Asleep's `{"detail", "result"}` envelope.
struct AsleepRoutes: Sendable {
    /// The configuration file's `asleep` section (the settings layer under each project's own).
    let configuration: JSONValue

    /// Every SDK route: one group authenticated by the request's credentials and identity
    /// headers, and one for the token routes, whose credential is in the body.
    func routes() -> [Route] {
        // SDK routes cache the project's settings; the service is made per transaction.
        let factory = { @Sendable (context: EmulatorContext) in
            serviceFactory(services: context.services, project: context.projectID, now: context.now, cachingSettings: true)
        }
        let sdk = RouteGroup<AsleepCaller>(
            authenticate: { request, context in AsleepCaller(request, context, makeService: factory(context)) }, observe: AsleepChecks.observe)
        let tokens = RouteGroup<AppCaller>(authenticate: { _, context in AppCaller(context, makeService: factory(context)) })
        return [
            // Users.
            sdk.route(.post, "/ai/v1/users", createUser),
            sdk.route(.get, "/ai/v1/users/{user_id}", getUser),
            sdk.route(.put, "/ai/v1/users/{user_id}", updateUser),
            sdk.route(.delete, "/ai/v1/users/{user_id}", deleteUser),
            // Products (3.3 setup with ProductInfo).
            sdk.route(.post, "/ai/v1/products", registerProduct),
            // Sessions.
            sdk.route(.post, "/ai/v1/sessions", createSession),
            sdk.route(.delete, "/ai/v1/sessions", deleteAllSessions),
            sdk.route(.delete, "/ai/v1/sessions/{session_id}", deleteSession),
            sdk.route(.post, "/ai/v1/sessions/{session_id}/upload", upload),
            sdk.route(.post, "/ai/v1/sessions/{session_id}/close", closeSession),
            // Data API.
            sdk.route(.get, "/data/v3/sessions/{session_id}", getReport),
            sdk.route(.get, "/data/v1/sessions", listSessions),
            sdk.route(.get, "/data/v1/users/{user_id}/average-stats", averageStats),
            // 3.3 appId/appSecret tokens.
            tokens.route(.post, "/customer/v1/app/token", issueToken),
            tokens.route(.post, "/customer/v1/app/refresh", refreshToken),
        ]
    }

    /// The 16 MiB upload cap the real service enforces.
    static let maxChunkBytes = 16 * 1024 * 1024
    /// The largest `seq_num` accepted: 48 hours of 30-s chunks.
    static let maxSeqNum = 5_759

    /// What an SDK-group handler gets: the core context and the `AsleepCaller`.
    typealias Context = RequestContext<AsleepCaller>

    // MARK: Handlers

    func createUser(_ request: Request, _ context: Context) async throws -> Response {
        try RequestBody.requireUTF8(request.body)
        let body = request.body
        let id = try await write(context) { service, caller, _ in try service.createUser(caller, body: body) }
        return Self.envelope(["user_id": .string(id)], status: 201)
    }

    func getUser(_ request: Request, _ context: Context) async throws -> Response {
        let id = context.parameter("user_id")
        return Self.envelope(try await write(context) { service, caller, _ in try service.getUser(caller, id: id) })
    }

    func updateUser(_ request: Request, _ context: Context) async throws -> Response {
        try RequestBody.requireUTF8(request.body)
        let id = context.parameter("user_id")
        let body = request.body
        return Self.envelope(try await write(context) { service, caller, _ in try service.updateUser(caller, id: id, body: body) })
    }

    func deleteUser(_ request: Request, _ context: Context) async throws -> Response {
        let id = context.parameter("user_id")
        try await write(context) { service, caller, _ in try service.deleteUser(caller, id: id) }
        return .empty(204)
    }

    func registerProduct(_ request: Request, _ context: Context) async throws -> Response {
        try RequestBody.requireUTF8(request.body)
        let body = request.body
        let outcome = try await write(context) { service, caller, _ in try service.registerProduct(caller, body: body) }
        return Self.envelope(outcome.result, status: outcome.created ? 201 : 200)
    }

    func createSession(_ request: Request, _ context: Context) async throws -> Response {
        try RequestBody.requireUTF8(request.body)
        let body = request.body
        let id = try await write(context) { service, caller, presented in try service.createSession(caller, presented: presented, body: body) }
        return Self.envelope(["session_id": .string(id)], status: 201)
    }

    func deleteAllSessions(_ request: Request, _ context: Context) async throws -> Response {
        try await write(context) { service, caller, presented in try service.deleteAllSessions(caller, presented: presented) }
        return .empty(204)
    }

    func deleteSession(_ request: Request, _ context: Context) async throws -> Response {
        let id = context.parameter("session_id")
        try await write(context) { service, caller, presented in try service.deleteSession(caller, presented: presented, sessionID: id) }
        return .empty(204)
    }

    func upload(_ request: Request, _ context: Context) async throws -> Response {
        if request.body.count > Self.maxChunkBytes { throw AsleepError.chunkTooLarge }
        let id = context.parameter("session_id")
        // Parsed and hashed here, on the loop, not inside the write: multipart parsing and the
        // chunk's SHA-256 were a third of the transaction every other write waited behind. A
        // parse error is still thrown only once the caller is known, as before.
        let parsed = Result { () throws(AsleepError) in try Self.readUpload(request) }
        return Self.envelope(
            try await write(context) { service, caller, presented in
                try service.upload(caller, presented: presented, sessionID: id, upload: try parsed.get())
            })
    }

    func closeSession(_ request: Request, _ context: Context) async throws -> Response {
        try RequestBody.requireUTF8(request.body)
        let id = context.parameter("session_id")
        let body = request.body
        return Self.envelope(
            try await write(context) { service, caller, presented in
                try service.closeSession(caller, presented: presented, sessionID: id, body: body)
            })
    }

    func getReport(_ request: Request, _ context: Context) async throws -> Response {
        let id = context.parameter("session_id")
        if let report = await reportWithoutWriting(context, sessionID: id) {
            return .json(status: 200, bytes: report)
        }
        let report = try await write(context) { service, caller, presented in
            try service.getReport(caller, presented: presented, sessionID: id)
        }
        return .json(status: 200, bytes: report.envelope(detail: "OK"))
    }

    /// A report read inline on a reader when nothing is due (see `withoutWriting`): the usual
    /// fetch no longer queues behind the writer. Nil sends it down the write path.
    ///
    /// What the database decides is reused while it has not changed (see `DerivedAnswers`), which
    /// is what an SDK polling a finished night sees: the checks (user, session, who may read it)
    /// together with the report's bytes (960 chunk numbers read, the analysis, the encoding),
    /// under a key that holds every input the checks read.
    private func reportWithoutWriting(_ context: Context, sessionID: String) async -> Data? {
        let answers = context.services.derivedAnswers
        return await withoutWriting(context) { service, caller, presented, asOf in
            let key = "asleep.report\u{1F}\(caller.project)\u{1F}\(caller.customer)\u{1F}\(presented.userID ?? "")\u{1F}\(sessionID)\u{1F}\(presented.timezone ?? "")"
            return try answers.answer(for: key, asOf: asOf) {
                let (session, zone) = try service.reportSession(caller, presented: presented, sessionID: sessionID)
                return try service.reportContent(session, settings: caller.settings, zone: zone).envelope(detail: "OK")
            }
        }
    }

    /// `body` run inline on a reader when no session of the project is due a state change: the
    /// service's `advance` then only reads, so a read that would otherwise hold the writer (a
    /// session list reads and places every night of the user) leaves it to the writes. Nil when
    /// something is due or on any error; the route then goes through `write`, which moves due
    /// sessions along, and its error is answered as every route's is. `body` also gets the
    /// database's change count from before the read, for answers kept in `DerivedAnswers`.
    ///
    /// When the next state change falls due is itself kept while the database has not changed:
    /// only the clock moves a request closer to it.
    private func withoutWriting<T: Sendable>(
        _ context: Context, _ body: @escaping @Sendable (AsleepService, Caller, Presented, Int?) throws -> T
    ) async -> T? {
        let (presented, credential) = (context.caller.presented, context.caller.credential)
        let answers = context.services.derivedAnswers, asOf = context.database.localChangeCount // before the read
        return try? await context.read { service -> T? in
            let caller = try service.authenticate(presented, credential: credential)
            let (maxSession, delay) = (caller.settings.maxSession, caller.settings.completionDelay)
            let dueKey = "asleep.nextDue\u{1F}\(caller.project)\u{1F}\(maxSession)\u{1F}\(delay)"
            let nextDue: Double
            if let kept = answers.value(for: dueKey, asOf: asOf, as: Double.self) {
                nextDue = kept
            } else {
                nextDue = try service.store.nextTransitionDue(project: caller.project, maxSession: maxSession, delay: delay) ?? .infinity
                answers.keep(nextDue, costing: 64, for: dueKey, asOf: asOf)
            }
            guard service.now.timeIntervalSince1970 < nextDue else { return nil }
            return try body(service, caller, presented, asOf)
        }
    }

    func listSessions(_ request: Request, _ context: Context) async throws -> Response {
        let query = request.queryItems
        return Self.envelope(
            try await readingWhenNothingDue(context) { service, caller, presented in
                try service.listSessions(caller, presented: presented, query: query)
            }, detail: "OK")
    }

    func averageStats(_ request: Request, _ context: Context) async throws -> Response {
        let id = context.parameter("user_id")
        let query = request.queryItems
        return Self.envelope(
            try await readingWhenNothingDue(context) { service, caller, presented in
                try service.averageStats(caller, userID: id, query: query, timezoneHeader: presented.timezone)
            }, detail: "OK")
    }

    /// `body` on a reader when nothing is due (`withoutWriting`), else through `write`: the
    /// writer then moves due sessions along first, and errors are answered as every route's are.
    private func readingWhenNothingDue<T: Sendable>(
        _ context: Context, _ body: @escaping @Sendable (AsleepService, Caller, Presented) throws -> T
    ) async throws -> T {
        if let read = await withoutWriting(context, { service, caller, presented, _ in try body(service, caller, presented) }) {
            return read
        }
        return try await write(context, body)
    }

    func issueToken(_ request: Request, _ context: RequestContext<AppCaller>) async throws -> Response {
        try RequestBody.requireUTF8(request.body)
        let (app, secret) = (context.caller.appID, context.caller.appSecret)
        return Self.envelope(try await context.write { try $0.issueToken(appID: app, secret: secret) })
    }

    func refreshToken(_ request: Request, _ context: RequestContext<AppCaller>) async throws -> Response {
        try RequestBody.requireUTF8(request.body)
        let token = context.caller.refreshToken
        let result = try await context.write { try $0.refreshToken(token) }
        // The refresh token just used is gone: its cached credential must go too, on every instance.
        if let project = context.projectID { await context.services.projectChanged(project) }
        return Self.envelope(result)
    }

    // MARK: Wire mapping

    /// Runs `body` inside the request's one write transaction, with the caller the store
    /// authenticates there. A 422 takes FastAPI's list form when the caller's project asks for
    /// it (`validationErrorStyle`): the settings `authenticate` just read decide, so telling the
    /// two forms apart costs no second transaction; `ErrorAnswers` answers either.
    func write<T: Sendable>(
        _ context: Context, _ body: @escaping @Sendable (AsleepService, Caller, Presented) throws -> T
    ) async throws -> T {
        let (presented, credential) = (context.caller.presented, context.caller.credential)
        return try await context.write { service in
            let caller = try service.authenticate(presented, credential: credential)
            do {
                return try body(service, caller, presented)
            } catch let error as AsleepError where error.status == 422 && caller.settings.validationErrorStyle == "list" {
                throw ListFormError(error: error)
            }
        }
    }

    /// Makes services bound to a project's clock and id generator, on a transaction's connection.
    /// SDK routes cache the project's settings (`cachingSettings`); the control plane, which
    /// changes them, always reads them fresh.
    func serviceFactory(
        services: EmulatorServices, project: ProjectID?, now: Date,
        cachingSettings: Bool = false
    ) -> @Sendable (any StoreConnection) -> AsleepService {
        let configuration = self.configuration
        let realNow = Date()
        return { connection in
            var service = AsleepService(store: AsleepStore(connection: connection), now: now, realNow: realNow, configuration: configuration) { draw in
                services.generateIDs(for: project) { generator in generator.draw(draw) }
            }
            if cachingSettings { service.settingsCache = services.projectCache }
            return service
        }
    }

    /// `{"detail": detail, "result": result}`.
    static func envelope(_ result: JSONValue, status: Int = 200, detail: String = "success") -> Response {
        .json(status: status, bytes: AsleepJSON.encoded(["detail": .string(detail), "result": result]))
    }

    /// Reads an upload leniently ([A-P1]): a multipart form with a `file` part and `seq_num`
    /// field, or any other body as the chunk with `seq_num` in the query or a header.
    static func readUpload(_ request: Request) throws(AsleepError) -> AsleepService.Upload {
        var seqText = request.queryValue("seq_num") ?? request.headers["x-seq-num"] ?? request.headers["seq_num"]
        var callback = request.queryValue("callback_url")
        var file = request.body
        let boundary: String?
        do { boundary = try MultipartFormData.boundary(fromContentType: request.headers["content-type"]) } catch { throw .notValidParameter }
        if let boundary {
            let parts: [MultipartPart]
            do { parts = try MultipartFormData.parse(request.body, boundary: boundary) } catch { throw .notValidParameter }
            guard let filePart = parts.first(where: { $0.name == "file" }) ?? parts.first(where: { $0.filename != nil }) else {
                throw .notValidParameter
            }
            file = filePart.body
            if let field = parts.first(where: { $0.name == "seq_num" }) { seqText = field.text }
            if let field = parts.first(where: { $0.name == "callback_url" }) { callback = field.text }
        }
        var seqNum: Int?
        if let digits = seqText, !digits.isEmpty, digits.utf8.count <= 4, digits.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) {
            // The SDK's plain `12`: Foundation's Unicode-aware trim was a twentieth of an upload.
            guard let number = Int(digits), number <= maxSeqNum else { throw .notValidParameter }
            seqNum = number
        } else if let text = seqText?.trimmingWhitespaceAndNewlines() {
            // Beyond twice the 24 h maximum a sequence number is nonsense (and would size the stage arrays).
            guard let number = Int(text), (0...maxSeqNum).contains(number) else { throw .notValidParameter }
            seqNum = number
        }
        if let text = callback, text.isEmpty { callback = nil }
        return AsleepService.Upload(seqNum: seqNum, callbackURL: callback, file: file, sha256: SHA256Digest.hex(file))
    }
}

extension IDGenerator {
    /// The next id of the kind `draw` names.
    mutating func draw(_ draw: Draw) -> String {
        switch draw {
        case .alphanumeric(let count): return alphanumeric(count)
        case .lowerAlphanumeric(let count): return lowerAlphanumeric(count)
        case .uuid: return uuid()
        }
    }
}
