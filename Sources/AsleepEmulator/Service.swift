import EmulatorCore
import Foundation
import SQLiteStore

/// The credentials and identity headers a request carries.
struct Presented: Sendable, Equatable {
    var apiKey: String?
    var bearer: String?
    var productKey: String?
    var userAgent: String?
    var userID: String?
    var timezone: String?

    init(apiKey: String? = nil, bearer: String? = nil, productKey: String? = nil, userAgent: String? = nil, userID: String? = nil, timezone: String? = nil) {
        self.apiKey = apiKey
        self.bearer = bearer
        self.productKey = productKey
        self.userAgent = userAgent
        self.userID = userID
        self.timezone = timezone
    }
}

/// Who is calling: the project and customer behind the credential, and its plan.
struct Caller: Sendable, Equatable {
    var project: ProjectID
    var customer: String
    var apiKey: String?
    var productBilling: Bool
    var productID: String?
    var settings: AsleepSettings
}

/// What a new id is drawn from.
enum Draw: Sendable {
    case alphanumeric(Int)
    case lowerAlphanumeric(Int)
    case uuid
}

/// Asleep's rules over one database transaction: credentials and customers, users, products, the
/// session state machine (OPEN → CLOSED → COMPLETE), uploads, reports and webhook scheduling.
/// `now` is the project's clock; ids come from `draw` (the project's seeded generator when it has one).
struct AsleepService {
    let connection: SQLiteConnection
    let now: Date
    /// Settings from the configuration file, under each project's own.
    let defaults: AsleepSettings
    let draw: (Draw) -> String

    // MARK: Credentials

    /// Resolves the credential to a caller, or throws the documented 401/403.
    func authenticate(_ presented: Presented) throws(AsleepError) -> Caller {
        do {
            var caller: Caller
            if let key = presented.apiKey, !key.isEmpty {
                guard let row = try connection.queryOne("SELECT * FROM asleep_api_keys WHERE api_key = ?", key) else { throw AsleepError.unauthorized }
                try Self.check(state: row.string("state") ?? "active")
                caller = Caller(project: row.string("project_id") ?? "", customer: row.string("customer") ?? "", apiKey: key,
                                productBilling: row.bool("product_billing") ?? true, productID: nil, settings: AsleepSettings())
            } else if let token = presented.bearer, !token.isEmpty {
                guard let row = try connection.queryOne("SELECT * FROM asleep_tokens WHERE token = ? AND kind = 'access'", token),
                      let app = try connection.queryOne("SELECT * FROM asleep_apps WHERE app_id = ?", row.string("app_id") ?? "") else {
                    throw AsleepError.unauthorized
                }
                guard (row.double("expires_at") ?? 0) > now.timeIntervalSince1970 else { throw AsleepError.tokenInvalid }
                try Self.check(state: app.string("state") ?? "active")
                caller = Caller(project: row.string("project_id") ?? "", customer: app.string("customer") ?? "", apiKey: nil,
                                productBilling: app.bool("product_billing") ?? true, productID: nil, settings: AsleepSettings())
            } else {
                throw AsleepError.unauthorized
            }
            caller.settings = defaults.merged(with: try AsleepStore.settings(connection, project: caller.project))
            if caller.settings.isStrict, (presented.userAgent ?? "").isEmpty { throw AsleepError.userAgentEmpty }
            if let productKey = presented.productKey, !productKey.isEmpty {
                guard let product = try connection.queryOne(
                    "SELECT product_id FROM asleep_products WHERE product_key = ? AND project_id = ? AND revoked = 0", productKey, caller.project) else {
                    throw AsleepError.invalidProductKey
                }
                caller.productID = product.string("product_id")
            }
            return caller
        } catch let error as AsleepError {
            throw error
        } catch {
            throw AsleepError(500, "Internal Server Error")
        }
    }

    private static func check(state: String) throws(AsleepError) {
        switch state {
        case "plan_expired": throw .planExpired
        case "rate_limited": throw .rateLimited
        case "quota_exceeded": throw .quotaExceeded
        case "revoked": throw .unauthorized
        default: return
        }
    }

    /// The `x-user-id` header, or 401 `x-user-id is invalid`.
    func userIDHeader(_ presented: Presented) throws(AsleepError) -> String {
        guard let id = presented.userID?.trimmingCharacters(in: .whitespaces), !id.isEmpty else { throw .userIDHeaderInvalid }
        return id
    }

    // MARK: Session clock

    /// Applies the time-based transitions that are due on the project clock: OPEN sessions past
    /// the maximum duration close, CLOSED sessions past the completion delay complete (and their
    /// SESSION_COMPLETE webhook is queued). Idempotent; every request that reads sessions runs it.
    func advance(project: ProjectID, settings: AsleepSettings) throws {
        let nowSeconds = now.timeIntervalSince1970
        for row in try connection.query("SELECT * FROM asleep_sessions WHERE project_id = ? AND state = 'OPEN' AND start_time + ? <= ?",
                                         project, settings.maxSession, nowSeconds) {
            var session = SessionRecord(row: row)
            let limit = session.start.addingTimeInterval(settings.maxSession)
            session.state = "CLOSED"
            session.end = limit
            session.closedAt = limit
            try AsleepStore.updateSession(connection, session)
        }
        for row in try connection.query("""
            SELECT * FROM asleep_sessions WHERE project_id = ? AND state = 'CLOSED' AND hold = 0 AND closed_at + ? <= ?
            """, project, settings.completionDelay, nowSeconds) {
            var session = SessionRecord(row: row)
            try complete(&session, at: (session.closedAt ?? now).addingTimeInterval(settings.completionDelay), settings: settings)
        }
    }

    /// Whether `advance` would change anything for the project at `now`.
    static func hasDueTransitions(_ connection: SQLiteConnection, project: ProjectID, now: Date, settings: AsleepSettings) throws -> Bool {
        try connection.queryOne("""
            SELECT 1 FROM asleep_sessions WHERE project_id = ? AND (
                (state = 'OPEN' AND start_time + ? <= ?) OR (state = 'CLOSED' AND hold = 0 AND closed_at + ? <= ?)) LIMIT 1
            """, project, settings.maxSession, now.timeIntervalSince1970, settings.completionDelay, now.timeIntervalSince1970) != nil
    }

    /// Moves a CLOSED (or OPEN) session to COMPLETE and queues SESSION_COMPLETE.
    func complete(_ session: inout SessionRecord, at time: Date, settings: AsleepSettings) throws {
        if session.state == "OPEN" {
            session.end = session.end ?? now
            session.closedAt = now
        }
        session.state = "COMPLETE"
        session.completeTime = min(time, now)
        session.hold = false
        try AsleepStore.updateSession(connection, session)
        if let url = session.callbackURL {
            let result = try report(session, settings: settings, zone: WireTime.utc)
            var data = result.objectValue ?? [:]
            data["user_id"] = .string(session.userID)
            data["session_id"] = .string(session.id)
            try enqueueWebhook(session: session, event: "SESSION_COMPLETE", url: url, data: .object(data), settings: settings)
        }
    }

    /// Closes a session (end time `end`).
    func close(_ session: inout SessionRecord, end: Date, unexpected: Bool) throws {
        session.state = "CLOSED"
        session.end = end
        session.unexpectedEnd = unexpected ? end : nil
        session.closedAt = now
        try AsleepStore.updateSession(connection, session)
    }

    // MARK: Ids

    func uniqueID(table: String, column: String, _ make: () -> String) throws -> String {
        for _ in 0..<20 {
            let id = make()
            if try !AsleepStore.idExists(connection, table: table, column: column, id: id) { return id }
        }
        throw AsleepError(500, "could not allocate an id")
    }
}

extension SessionRecord {
    /// A fresh OPEN session.
    static func empty(id: String, project: ProjectID, customer: String, userID: String, start: Date, now: Date) -> SessionRecord {
        SessionRecord(id: id, project: project, customer: customer, userID: userID, state: "OPEN", start: start, end: nil, unexpectedEnd: nil,
                      closedAt: nil, completeTime: nil, hold: false, createdTimezone: "UTC", inferenceType: "MELSPECTROGRAM", service: "NOSERVICE",
                      callbackURL: nil, apiKey: nil, productID: nil, lastSeqNum: nil, overrides: [:], createdAt: now)
    }
}
