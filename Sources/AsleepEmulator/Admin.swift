import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// Control-plane routes under `/__admin/projects/{id}/asleep`: settings, API keys and apps (plan
/// flags, customers), tokens, users, products, sessions in any state, forced transitions and
/// webhooks. Bodies are camelCase and strict (unknown keys are a 400).
struct AsleepAdmin: Sendable {
    let defaults: AsleepSettings
    let cache: CredentialCache

    struct KeyBody: Codable {
        var apiKey: String?
        var customer: String?
        var state: String?
        var productBilling: Bool?
    }

    struct AppBody: Codable {
        var appId: String?
        var appSecret: String?
        var customer: String?
        var state: String?
        var productBilling: Bool?
    }

    struct ExpireBody: Codable {
        var kind: String?
    }

    struct UserBody: Codable {
        var userId: String?
        var apiKey: String?
        var customer: String?
        var metadata: JSONValue?
    }

    /// A session to seed, in any state.
    struct SessionBody: Codable {
        var sessionId: String?
        var userId: String
        var state: String?
        var startTime: String?
        var endTime: String?
        var unexpected: Bool?
        var completeTime: String?
        var timezone: String?
        var service: String?
        var inferenceType: String?
        var callbackUrl: String?
        var chunks: Int?
        var missingSeqNums: [Int]?
        var sleepStages: [Int]?
        var snoringStages: [Int]?
        var breathStages: [Int]?
        var peculiarities: [String]?
        var stat: JSONValue?
        var hold: Bool?
        var snoringDetected: [Int]?
        var breathDetected: [Int]?
    }

    /// Changes to a live session.
    struct SessionPatch: Codable {
        var callbackUrl: String?
        var hold: Bool?
        var sleepStages: [Int]?
        var snoringStages: [Int]?
        var breathStages: [Int]?
        var peculiarities: [String]?
        var stat: JSONValue?
        var snoringDetected: [Int]?
        var breathDetected: [Int]?
    }

    /// A product to seed (as if the device had registered).
    struct ProductBody: Codable {
        var model: String
        var identifierType: String?
        var identifierValue: String
        var apiKey: String?
        var customer: String?
        var productKey: String?
    }

    struct EventBody: Codable {
        var event: String
        var callbackUrl: String?
    }

    static func decode<T: Codable>(_ type: T.Type, _ request: Request) throws -> T {
        do { return try JSONBody.decode(type, from: request, rejectUnknownKeys: true) } catch { throw AdminError(error) }
    }

    static let keyStates: Set<String> = ["active", "plan_expired", "rate_limited", "quota_exceeded", "revoked"]

    func service(_ connection: SQLiteConnection, _ context: EmulatorContext) -> AsleepService {
        AsleepRoutes(defaults: defaults).serviceFactory(context)(connection)
    }

    func settings(_ connection: SQLiteConnection, _ project: ProjectID) throws -> AsleepSettings {
        defaults.merged(with: try AsleepStore.settings(connection, project: project))
    }

    func routes() -> [Route] {
        var routes: [Route] = []

        // MARK: Settings
        routes.append(Route(.get, "/settings") { _, context in
            let project = context.parameter("id")
            let defaults = self.defaults
            let settings = try await context.database.read { try defaults.merged(with: AsleepStore.settings($0, project: project)) }
            return .json(settings.effective)
        })
        routes.append(Route(.patch, "/settings") { request, context in
            let patch = try Self.decode(AsleepSettings.self, request)
            if let problem = patch.validationProblem() { throw AdminError.badRequest(problem, code: "invalid_settings") }
            let project = context.parameter("id")
            let defaults = self.defaults
            let merged = try await context.database.write { connection in
                let merged = try AsleepStore.settings(connection, project: project).merged(with: patch)
                try AsleepStore.saveSettings(connection, project: project, merged)
                return defaults.merged(with: merged)
            }
            return .json(merged.effective)
        })

        // MARK: Keys, apps, tokens
        routes.append(Route(.get, "/keys") { _, context in
            let project = context.parameter("id")
            let keys = try await context.database.read { connection in
                try connection.query("SELECT * FROM asleep_api_keys WHERE project_id = ? ORDER BY created_at, api_key", project).map(Self.renderKey)
            }
            return .json(JSONValue.object(["keys": .array(keys)]))
        })
        routes.append(Route(.post, "/keys") { request, context in
            let body = try Self.decode(KeyBody.self, request)
            if let state = body.state, !Self.keyStates.contains(state) { throw AdminError.badRequest("`state` must be one of \(Self.keyStates.sorted().joined(separator: ", ")).") }
            let project = context.parameter("id")
            let generated = context.services.generateIDs(for: project) { $0.alphanumeric(40) }
            let key = body.apiKey ?? generated
            guard !key.isEmpty else { throw AdminError.badRequest("`apiKey` must not be empty.") }
            let now = context.now
            let row = try await context.database.write { connection -> JSONValue in
                guard try connection.queryOne("SELECT 1 FROM asleep_api_keys WHERE api_key = ?", key) == nil else {
                    throw AdminError(status: 409, code: "conflict", message: "API key already exists.")
                }
                try connection.run("INSERT INTO asleep_api_keys (api_key, project_id, customer, state, product_billing, created_at) VALUES (?, ?, ?, ?, ?, ?)",
                                   key, project, body.customer ?? "key:" + key, body.state ?? "active", body.productBilling ?? true, now.timeIntervalSince1970)
                return Self.renderKey(try connection.queryOne("SELECT * FROM asleep_api_keys WHERE api_key = ?", key)!)
            }
            return .json(status: 201, bytes: row.encoded())
        })
        routes.append(Route(.patch, "/keys/{key}") { request, context in
            let body = try Self.decode(KeyBody.self, request)
            if let state = body.state, !Self.keyStates.contains(state) { throw AdminError.badRequest("`state` must be one of \(Self.keyStates.sorted().joined(separator: ", ")).") }
            if body.apiKey != nil { throw AdminError.badRequest("`apiKey` cannot be changed.") }
            let project = context.parameter("id"), key = context.parameter("key")
            let row = try await context.database.write { connection -> JSONValue in
                guard let row = try connection.queryOne("SELECT * FROM asleep_api_keys WHERE api_key = ? AND project_id = ?", key, project) else {
                    throw AdminError.notFound("API key")
                }
                try connection.run("UPDATE asleep_api_keys SET customer = ?, state = ?, product_billing = ? WHERE api_key = ?",
                                   body.customer ?? row.string("customer") ?? "", body.state ?? row.string("state") ?? "active",
                                   body.productBilling ?? row.bool("product_billing") ?? true, key)
                return Self.renderKey(try connection.queryOne("SELECT * FROM asleep_api_keys WHERE api_key = ?", key)!)
            }
            return .json(status: 200, bytes: row.encoded())
        })
        routes.append(Route(.delete, "/keys/{key}") { _, context in
            let project = context.parameter("id"), key = context.parameter("key")
            let deleted = try await context.database.write { try $0.run("DELETE FROM asleep_api_keys WHERE api_key = ? AND project_id = ?", key, project) }
            guard deleted > 0 else { throw AdminError.notFound("API key") }
            cache.forget(credential: key)
            return .empty(204)
        })
        routes.append(Route(.get, "/apps") { _, context in
            let project = context.parameter("id")
            let apps = try await context.database.read { connection in
                try connection.query("SELECT * FROM asleep_apps WHERE project_id = ? ORDER BY created_at, app_id", project).map(Self.renderApp)
            }
            return .json(JSONValue.object(["apps": .array(apps)]))
        })
        routes.append(Route(.post, "/apps") { request, context in
            let body = try Self.decode(AppBody.self, request)
            if let state = body.state, !Self.keyStates.contains(state) { throw AdminError.badRequest("`state` must be one of \(Self.keyStates.sorted().joined(separator: ", ")).") }
            let project = context.parameter("id")
            let drawn = context.services.generateIDs(for: project) { ("app_" + $0.lowerAlphanumeric(16), "sec_" + $0.alphanumeric(32)) }
            let app = body.appId ?? drawn.0, secret = body.appSecret ?? drawn.1
            let now = context.now
            let row = try await context.database.write { connection -> JSONValue in
                guard try connection.queryOne("SELECT 1 FROM asleep_apps WHERE app_id = ?", app) == nil else {
                    throw AdminError(status: 409, code: "conflict", message: "App id already exists.")
                }
                try connection.run("INSERT INTO asleep_apps (app_id, project_id, app_secret, customer, state, product_billing, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                                   app, project, secret, body.customer ?? "app:" + app, body.state ?? "active", body.productBilling ?? true, now.timeIntervalSince1970)
                return Self.renderApp(try connection.queryOne("SELECT * FROM asleep_apps WHERE app_id = ?", app)!)
            }
            return .json(status: 201, bytes: row.encoded())
        })
        routes.append(Route(.post, "/tokens/expire") { request, context in
            let body = request.body.isEmpty ? ExpireBody() : try Self.decode(ExpireBody.self, request)
            let kind = body.kind ?? "all"
            guard ["access", "refresh", "all"].contains(kind) else { throw AdminError.badRequest("`kind` must be access, refresh or all.") }
            let project = context.parameter("id"), now = context.now.timeIntervalSince1970
            let count = try await context.database.write { connection in
                try connection.run("UPDATE asleep_tokens SET expires_at = ? WHERE project_id = ? AND (? = 'all' OR kind = ?) AND expires_at > ?",
                                   now, project, kind, kind, now)
            }
            return .json(JSONValue.object(["expired": .int(Int64(count))]))
        })

        // MARK: Users
        routes.append(Route(.get, "/users") { _, context in
            let project = context.parameter("id")
            let users = try await context.database.read { connection in
                try connection.query("SELECT * FROM asleep_users WHERE project_id = ? ORDER BY created_at, user_id", project)
                    .map { Self.renderUser(UserRecord(row: $0)) }
            }
            return .json(JSONValue.object(["users": .array(users)]))
        })
        routes.append(Route(.post, "/users") { request, context in
            let body = try Self.decode(UserBody.self, request)
            let project = context.parameter("id")
            let now = context.now
            let year = WireTime.year(now)
            let user = try await context.database.write { connection -> JSONValue in
                let service = self.service(connection, context)
                return try self.seedUser(body, project: project, service: service, connection: connection, year: year)
            }
            return .json(status: 201, bytes: user.encoded())
        })
        routes.append(Route(.delete, "/users/{user}") { _, context in
            let project = context.parameter("id"), user = context.parameter("user")
            try await context.database.write { connection in
                guard try AsleepStore.user(connection, project: project, customer: nil, id: user) != nil else { throw AdminError.notFound("User") }
                try AsleepStore.deleteUser(connection, project: project, id: user)
            }
            return .empty(204)
        })

        // MARK: Products
        routes.append(Route(.get, "/products") { _, context in
            let project = context.parameter("id")
            let products = try await context.database.read { connection in
                try connection.query("SELECT * FROM asleep_products WHERE project_id = ? ORDER BY created_at, product_id", project).map(Self.renderProduct)
            }
            return .json(JSONValue.object(["products": .array(products)]))
        })
        routes.append(Route(.post, "/products") { request, context in
            let body = try Self.decode(ProductBody.self, request)
            guard (1...100).contains(body.model.count) else { throw AdminError.badRequest("`model` must be 1–100 characters.") }
            guard (1...255).contains(body.identifierValue.count) else { throw AdminError.badRequest("`identifierValue` must be 1–255 characters.") }
            guard let type = AsleepService.identifierType(body.identifierType ?? "SERIAL") else {
                throw AdminError.badRequest("`identifierType` must be SERIAL or MAC_ADDRESS.")
            }
            let project = context.parameter("id")
            let drawn = context.services.generateIDs(for: project) { ("P-" + $0.uuid(), "pk_" + $0.alphanumeric(40)) }
            let now = context.now
            let row = try await context.database.write { connection -> JSONValue in
                let customer: String
                if let given = body.customer { customer = given } else { customer = try Self.customer(connection, project: project, apiKey: body.apiKey).customer }
                let key = body.productKey ?? drawn.1
                guard try connection.queryOne("SELECT 1 FROM asleep_products WHERE product_key = ?", key) == nil,
                      try connection.queryOne("""
                        SELECT 1 FROM asleep_products WHERE project_id = ? AND customer = ? AND model = ? AND identifier_type = ? AND identifier_value = ?
                        """, project, customer, body.model, type, body.identifierValue) == nil else {
                    throw AdminError(status: 409, code: "conflict", message: "That product or product key already exists.")
                }
                try connection.run("""
                    INSERT INTO asleep_products (product_id, project_id, customer, product_key, model, identifier_type, identifier_value, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, drawn.0, project, customer, key, body.model, type, body.identifierValue, now.timeIntervalSince1970)
                return Self.renderProduct(try connection.queryOne("SELECT * FROM asleep_products WHERE product_id = ?", drawn.0)!)
            }
            return .json(status: 201, bytes: row.encoded())
        })
        routes.append(Route(.post, "/products/{product}/revoke") { _, context in
            let project = context.parameter("id"), product = context.parameter("product")
            let row = try await context.database.write { connection -> JSONValue in
                guard try connection.run("UPDATE asleep_products SET revoked = 1 WHERE product_id = ? AND project_id = ?", product, project) > 0 else {
                    throw AdminError.notFound("Product")
                }
                return Self.renderProduct(try connection.queryOne("SELECT * FROM asleep_products WHERE product_id = ?", product)!)
            }
            return .json(status: 200, bytes: row.encoded())
        })

        // MARK: Sessions
        routes.append(Route(.get, "/sessions") { request, context in
            let project = context.parameter("id")
            let user = request.queryValue("userId"), state = request.queryValue("state")
            let now = context.now
            let defaults = self.defaults
            let sessions = try await context.database.write { connection -> [JSONValue] in
                let service = self.service(connection, context)
                try service.advance(project: project, settings: defaults.merged(with: try AsleepStore.settings(connection, project: project)))
                return try connection.query("""
                    SELECT * FROM asleep_sessions WHERE project_id = ? AND (? IS NULL OR user_id = ?) AND (? IS NULL OR state = ?)
                    ORDER BY start_time, created_at, session_id
                    """, project, user, user, state, state).map { row in
                    let session = SessionRecord(row: row)
                    return Self.renderSession(session, received: try AsleepStore.receivedChunks(connection, session: session.id), now: now)
                }
            }
            return .json(JSONValue.object(["sessions": .array(sessions)]))
        })
        routes.append(Route(.post, "/sessions") { request, context in
            let body = try Self.decode(SessionBody.self, request)
            let project = context.parameter("id")
            let now = context.now
            let session = try await context.database.write { connection -> JSONValue in
                try self.seedSession(body, project: project, service: self.service(connection, context), connection: connection, now: now)
            }
            return .json(status: 201, bytes: session.encoded())
        })
        routes.append(Route(.get, "/sessions/{session}") { _, context in
            let project = context.parameter("id"), id = context.parameter("session")
            let now = context.now
            return .json(try await self.withSession(context, project: project, id: id) { _, session, connection in
                Self.renderSession(session, received: try AsleepStore.receivedChunks(connection, session: session.id), now: now)
            })
        })
        routes.append(Route(.patch, "/sessions/{session}") { request, context in
            let patch = try Self.decode(SessionPatch.self, request)
            if let url = patch.callbackUrl, !url.isEmpty, !AsleepService.isValidCallbackURL(url) { throw AdminError.badRequest("`callbackUrl` must be an absolute http(s) URL.") }
            let project = context.parameter("id"), id = context.parameter("session")
            let now = context.now
            return .json(try await self.withSession(context, project: project, id: id) { _, session, connection in
                var session = session
                if let url = patch.callbackUrl { session.callbackURL = url.isEmpty ? nil : url }
                if let hold = patch.hold { session.hold = hold }
                Self.applyOverrides(&session, sleep: patch.sleepStages, snoring: patch.snoringStages, breath: patch.breathStages,
                                    peculiarities: patch.peculiarities, stat: patch.stat, snoringDetected: patch.snoringDetected,
                                    breathDetected: patch.breathDetected)
                try AsleepStore.updateSession(connection, session)
                return Self.renderSession(session, received: try AsleepStore.receivedChunks(connection, session: session.id), now: now)
            })
        })
        routes.append(Route(.post, "/sessions/{session}/close") { _, context in
            let project = context.parameter("id"), id = context.parameter("session")
            let now = context.now
            return .json(try await self.withSession(context, project: project, id: id) { service, session, connection in
                var session = session
                guard session.state == "OPEN" else { throw AdminError(status: 409, code: "conflict", message: "Session is \(session.state), not OPEN.") }
                try service.close(&session, end: now, unexpected: false)
                return Self.renderSession(session, received: try AsleepStore.receivedChunks(connection, session: session.id), now: now)
            })
        })
        routes.append(Route(.post, "/sessions/{session}/complete") { _, context in
            let project = context.parameter("id"), id = context.parameter("session")
            let now = context.now
            let defaults = self.defaults
            return .json(try await self.withSession(context, project: project, id: id) { service, session, connection in
                var session = session
                guard session.state != "COMPLETE" else { throw AdminError(status: 409, code: "conflict", message: "Session is already COMPLETE.") }
                try service.complete(&session, at: now, settings: defaults.merged(with: try AsleepStore.settings(connection, project: project)))
                return Self.renderSession(session, received: try AsleepStore.receivedChunks(connection, session: session.id), now: now)
            })
        })
        routes.append(Route(.post, "/sessions/{session}/webhooks") { request, context in
            let body = try Self.decode(EventBody.self, request)
            guard ["INFERENCE_COMPLETE", "SESSION_COMPLETE"].contains(body.event) else {
                throw AdminError.badRequest("`event` must be INFERENCE_COMPLETE or SESSION_COMPLETE.")
            }
            if let url = body.callbackUrl, !AsleepService.isValidCallbackURL(url) { throw AdminError.badRequest("`callbackUrl` must be an absolute http(s) URL.") }
            let project = context.parameter("id"), id = context.parameter("session")
            let defaults = self.defaults
            return .json(status: 202, bytes: try await self.withSession(context, project: project, id: id) { service, session, connection in
                guard let url = body.callbackUrl ?? session.callbackURL else {
                    throw AdminError.badRequest("The session has no callback URL; pass `callbackUrl`.")
                }
                let settings = defaults.merged(with: try AsleepStore.settings(connection, project: project))
                var data: JSONValue
                if body.event == "SESSION_COMPLETE" {
                    var members = try service.report(session, settings: settings, zone: WireTime.utc).objectValue ?? [:]
                    members["user_id"] = .string(session.userID)
                    members["session_id"] = .string(session.id)
                    data = .object(members)
                } else {
                    let received = try AsleepStore.receivedChunks(connection, session: session.id)
                    let seq = session.lastSeqNum ?? 0
                    let arrays = SleepAnalysis.assemble(sessionID: session.id, lastSeqNum: seq, received: received, explicit: AsleepService.explicitStages(session))
                    let window = seq / 10, from = max(0, (window - 3) * 10), to = min(arrays.sleep.count, (window + 1) * 10)
                    data = ["user_id": .string(session.userID), "session_id": .string(session.id), "seq_num": .int(Int64(seq)),
                            "inference_seq_num": .int(Int64(window)), "sleep_stages": AsleepService.ints(Array(arrays.sleep[from..<to])),
                            "snoring_stages": settings.snoringEnabled ? AsleepService.ints(Array(arrays.snoring[from..<to])) : .null,
                            "breath_stages": settings.breathingEnabled ? AsleepService.ints(Array(arrays.breath[from..<to])) : .null]
                }
                try service.enqueueWebhook(session: session, event: body.event, url: url, data: data, settings: settings)
                return ["queued": .string(body.event), "url": .string(url)]
            }.encoded())
        })

        routes += reportRoutes()

        // MARK: Webhook deliveries
        routes.append(Route(.get, "/webhooks") { request, context in
            let project = context.parameter("id")
            let session = request.queryValue("sessionId")
            let deliveries = try await context.database.read { connection in
                try connection.query("""
                    SELECT * FROM asleep_webhooks WHERE project_id = ? AND (? IS NULL OR session_id = ?) ORDER BY created_at, outbox_id
                    """, project, session, session).map(Self.renderWebhook)
            }
            return .json(JSONValue.object(["deliveries": .array(deliveries)]))
        })
        return routes
    }

    /// Runs `body` on an existing session of the project in one write transaction (404 otherwise).
    func withSession(_ context: EmulatorContext, project: ProjectID, id: String,
                     _ body: @escaping @Sendable (AsleepService, SessionRecord, SQLiteConnection) throws -> JSONValue) async throws -> JSONValue {
        let defaults = self.defaults
        return try await context.database.write { connection in
            let service = self.service(connection, context)
            try service.advance(project: project, settings: defaults.merged(with: try AsleepStore.settings(connection, project: project)))
            guard let session = try AsleepStore.session(connection, project: project, id: id) else { throw AdminError.notFound("Session `\(id)`") }
            return try body(service, session, connection)
        }
    }
}
