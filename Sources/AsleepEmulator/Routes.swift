import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

extension Presented {
    /// The credentials and identity headers of `request` (header names are case-insensitive).
    init(_ request: Request) {
        var bearer: String?
        if let authorization = request.headers["authorization"], authorization.lowercased().hasPrefix("bearer ") {
            bearer = String(authorization.dropFirst(7)).trimmingCharacters(in: .whitespaces)
        }
        self.init(apiKey: request.headers["x-api-key"], bearer: bearer, productKey: request.headers["x-product-key"],
                  userAgent: request.headers["user-agent"], userID: request.headers["x-user-id"], timezone: request.headers["timezone"])
    }
}

/// Wire ↔ service mapping of the SDK-facing routes: read the request, run the service in one
/// transaction, wrap the result in Asleep's `{"detail", "result"}` envelope.
struct AsleepRoutes: Sendable {
    /// Settings from the configuration file.
    let defaults: AsleepSettings

    /// The 16 MiB upload cap the real service enforces.
    static let maxChunkBytes = 16 * 1024 * 1024
    /// The largest `seq_num` accepted: 48 hours of 30-s chunks.
    static let maxSeqNum = 5_759

    /// Runs `body` with an authenticated caller inside one write transaction.
    func withCaller<T: Sendable>(_ request: Request, _ context: EmulatorContext,
                                 _ body: @escaping @Sendable (AsleepService, Caller, Presented) throws -> T) async throws -> T {
        let presented = Presented(request)
        let service = serviceFactory(context)
        do {
            return try await context.database.write { connection in
                let service = service(connection)
                return try body(service, try service.authenticate(presented), presented)
            }
        } catch let error as AsleepError where error.status == 422 {
            guard let project = context.projectID else { throw error }
            let defaults = self.defaults
            let style = try? await context.database.read { try defaults.merged(with: AsleepStore.settings($0, project: project)).validationErrorStyle }
            if style == "list" { throw ListFormError(error: error) }
            throw error
        }
    }

    /// A 422 answered in FastAPI's list form (a project setting).
    struct ListFormError: ResponseError {
        let error: AsleepError
        var response: Response { error.listFormResponse }
    }

    /// Makes services bound to the request's project clock and id generator.
    func serviceFactory(_ context: EmulatorContext) -> @Sendable (SQLiteConnection) -> AsleepService {
        serviceFactory(services: context.services, project: context.projectID, now: context.now)
    }

    /// The same for a control-plane request.
    func serviceFactory(_ context: AdminContext) -> @Sendable (SQLiteConnection) -> AsleepService {
        serviceFactory(services: context.services, project: context.projectID, now: context.now)
    }

    private func serviceFactory(services: EmulatorServices, project: ProjectID?, now: Date) -> @Sendable (SQLiteConnection) -> AsleepService {
        let defaults = self.defaults
        return { connection in
            AsleepService(connection: connection, now: now, defaults: defaults) { draw in
                services.generateIDs(for: project) { generator in
                    switch draw {
                    case .alphanumeric(let count): return generator.alphanumeric(count)
                    case .lowerAlphanumeric(let count): return generator.lowerAlphanumeric(count)
                    case .uuid: return generator.uuid()
                    }
                }
            }
        }
    }

    /// `{"detail": detail, "result": result}`.
    static func envelope(_ result: JSONValue, status: Int = 200, detail: String = "success") -> Response {
        .json(status: status, bytes: JSONValue.object(["detail": .string(detail), "result": result]).encoded())
    }

    func routes() -> [Route] {
        [
            // Users.
            Route(.post, "/ai/v1/users") { request, context in
                let body = request.body
                let id = try await withCaller(request, context) { service, caller, _ in try service.createUser(caller, body: body) }
                return Self.envelope(["user_id": .string(id)], status: 201)
            },
            Route(.get, "/ai/v1/users/{user_id}") { request, context in
                let id = context.parameter("user_id")
                return Self.envelope(try await withCaller(request, context) { service, caller, _ in try service.getUser(caller, id: id) })
            },
            Route(.put, "/ai/v1/users/{user_id}") { request, context in
                let id = context.parameter("user_id")
                let body = request.body
                return Self.envelope(try await withCaller(request, context) { service, caller, _ in try service.updateUser(caller, id: id, body: body) })
            },
            Route(.delete, "/ai/v1/users/{user_id}") { request, context in
                let id = context.parameter("user_id")
                try await withCaller(request, context) { service, caller, _ in try service.deleteUser(caller, id: id) }
                return .empty(204)
            },

            // Products (3.3 setup with ProductInfo).
            Route(.post, "/ai/v1/products") { request, context in
                let body = request.body
                let outcome = try await withCaller(request, context) { service, caller, _ in try service.registerProduct(caller, body: body) }
                return Self.envelope(outcome.result, status: outcome.created ? 201 : 200)
            },

            // Sessions.
            Route(.post, "/ai/v1/sessions") { request, context in
                let body = request.body
                let id = try await withCaller(request, context) { service, caller, presented in
                    try service.createSession(caller, presented: presented, body: body)
                }
                return Self.envelope(["session_id": .string(id)], status: 201)
            },
            Route(.delete, "/ai/v1/sessions") { request, context in
                try await withCaller(request, context) { service, caller, presented in try service.deleteAllSessions(caller, presented: presented) }
                return .empty(204)
            },
            Route(.delete, "/ai/v1/sessions/{session_id}") { request, context in
                let id = context.parameter("session_id")
                try await withCaller(request, context) { service, caller, presented in
                    try service.deleteSession(caller, presented: presented, sessionID: id)
                }
                return .empty(204)
            },
            Route(.post, "/ai/v1/sessions/{session_id}/upload") { request, context in
                if request.body.count > Self.maxChunkBytes { throw AsleepError.chunkTooLarge }
                let id = context.parameter("session_id")
                return Self.envelope(try await withCaller(request, context) { service, caller, presented in
                    let upload = try Self.readUpload(request)
                    return try service.upload(caller, presented: presented, sessionID: id, upload: upload)
                })
            },
            Route(.post, "/ai/v1/sessions/{session_id}/close") { request, context in
                let id = context.parameter("session_id")
                let body = request.body
                return Self.envelope(try await withCaller(request, context) { service, caller, presented in
                    try service.closeSession(caller, presented: presented, sessionID: id, body: body)
                })
            },

            // Data API.
            Route(.get, "/data/v3/sessions/{session_id}") { request, context in
                let id = context.parameter("session_id")
                return Self.envelope(try await withCaller(request, context) { service, caller, presented in
                    try service.getReport(caller, presented: presented, sessionID: id)
                }, detail: "OK")
            },
            Route(.get, "/data/v1/sessions") { request, context in
                let query = request.queryItems
                return Self.envelope(try await withCaller(request, context) { service, caller, presented in
                    try service.listSessions(caller, presented: presented, query: query)
                }, detail: "OK")
            },
            Route(.get, "/data/v1/users/{user_id}/average-stats") { request, context in
                let id = context.parameter("user_id")
                let query = request.queryItems
                return Self.envelope(try await withCaller(request, context) { service, caller, presented in
                    try service.averageStats(caller, userID: id, query: query, timezoneHeader: presented.timezone)
                }, detail: "OK")
            },

            // 3.3 appId/appSecret tokens.
            Route(.post, "/customer/v1/app/token") { request, context in
                let body = request.body
                let factory = serviceFactory(context)
                return Self.envelope(try await context.database.write { try factory($0).issueToken(body: body) })
            },
            Route(.post, "/customer/v1/app/refresh") { request, context in
                let body = request.body
                let factory = serviceFactory(context)
                return Self.envelope(try await context.database.write { try factory($0).refreshToken(body: body) })
            },
        ]
    }

    /// Reads an upload leniently ([A-P1]): a multipart form with a `file` part and `seq_num`
    /// field, or any other body as the chunk with `seq_num` in the query or a header.
    static func readUpload(_ request: Request) throws(AsleepError) -> AsleepService.Upload {
        var seqText = request.queryValue("seq_num") ?? request.headers["x-seq-num"] ?? request.headers["seq_num"]
        var callback = request.queryValue("callback_url")
        var file = request.body
        if let boundary = Multipart.boundary(contentType: request.headers["content-type"]) {
            guard let boundary else { throw .notValidParameter }
            let parts: [MultipartPart]
            do { parts = try Multipart.parse(request.body, boundary: boundary) } catch { throw .notValidParameter }
            guard let filePart = parts.first(where: { $0.name == "file" }) ?? parts.first(where: { $0.filename != nil }) else {
                throw .notValidParameter
            }
            file = filePart.body
            if let field = parts.first(where: { $0.name == "seq_num" }) { seqText = field.text }
            if let field = parts.first(where: { $0.name == "callback_url" }) { callback = field.text }
        }
        var seqNum: Int?
        if let text = seqText?.trimmingCharacters(in: .whitespacesAndNewlines) {
            // Beyond twice the 24 h maximum a sequence number is nonsense (and would size the stage arrays).
            guard let number = Int(text), (0...maxSeqNum).contains(number) else { throw .notValidParameter }
            seqNum = number
        }
        if let text = callback, text.isEmpty { callback = nil }
        return AsleepService.Upload(seqNum: seqNum, callbackURL: callback, file: file)
    }
}
