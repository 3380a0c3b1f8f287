import EmulatorCore
import Foundation

/// What a new id is drawn from.
enum Draw: Sendable {
    case alphanumeric(Int)
    case lowerAlphanumeric(Int)
    case uuid
}

/// Asleep's rules: credentials and customers, users, products, the session state machine
/// (OPEN → CLOSED → COMPLETE), uploads, reports and webhook scheduling. It reads and writes
/// records through `store` (one transaction, opened by the caller); `now` is the project's clock,
/// `realNow` the wall clock (webhook retries run on it so a frozen project clock cannot stall
/// them); ids come from `draw` (the project's seeded generator when it has one).
struct AsleepService {
    let store: AsleepStore
    let now: Date
    let realNow: Date
    /// The configuration file's `asleep` section: the settings layer under each project's own.
    let configuration: JSONValue
    let draw: (Draw) -> String
    /// Where the effective settings are cached between requests (SDK routes), or nil (read each time).
    var settingsCache: ProjectStateCache? = nil

    // MARK: Settings

    /// The project's effective settings.
    func settings(project: ProjectID) throws -> AsleepSettings {
        guard let settingsCache else { return try AsleepSettings.resolve(configuration: configuration, stored: try store.settingsDocument(project: project)) }
        return try settingsCache.derived("asleep.settings", project: project) {
            try AsleepSettings.resolve(configuration: configuration, stored: try store.settingsDocument(project: project))
        }
    }

    // MARK: Credentials

    /// Turns the credential the core resolved into a caller, or throws the documented 401/403.
    func authenticate(_ presented: Presented, credential: CredentialRecord?) throws(AsleepError) -> Caller {
        do {
            var caller: Caller
            if let key = presented.apiKey, !key.isEmpty {
                guard let credential, credential.kind == AsleepPlatform.CredentialKind.apiKey, credential.value == key,
                    let record = credential.details(as: APIKeyRecord.self)
                else { throw AsleepError.unauthorized }
                try Self.check(state: record.state)
                caller = Caller(
                    project: record.project, customer: record.customer, apiKey: key, productBilling: record.productBilling,
                    productID: nil, settings: AsleepSettings())
            } else if let token = presented.bearer, !token.isEmpty {
                guard let credential, credential.kind == AsleepPlatform.CredentialKind.accessToken, credential.value == token,
                    let bearer = credential.details(as: BearerCredential.self), bearer.token.kind == .access,
                    let app = bearer.app
                else { throw AsleepError.unauthorized }
                guard bearer.token.expiresAt > now else { throw AsleepError.tokenInvalid }
                try Self.check(state: app.state)
                caller = Caller(
                    project: bearer.token.project, customer: app.customer, apiKey: nil, productBilling: app.productBilling,
                    productID: nil, settings: AsleepSettings())
            } else {
                throw AsleepError.unauthorized
            }
            caller.settings = try settings(project: caller.project)
            if caller.settings.isStrict, (presented.userAgent ?? "").isEmpty { throw AsleepError.userAgentEmpty }
            if let productKey = presented.productKey, !productKey.isEmpty {
                // A product belongs to the customer that registered it: another customer's key is as unknown as a made-up one.
                guard let product = try store.activeProduct(productKey: productKey, project: caller.project, customer: caller.customer) else {
                    throw AsleepError.invalidProductKey
                }
                caller.productID = product.productID
            }
            return caller
        } catch let error as AsleepError {
            throw error
        } catch {
            throw AsleepError(500, "Internal Server Error")
        }
    }

    private static func check(state: CredentialState) throws(AsleepError) {
        switch state {
        case .planExpired: throw .planExpired
        case .rateLimited: throw .rateLimited
        case .quotaExceeded: throw .quotaExceeded
        case .revoked: throw .unauthorized
        case .active: return
        }
    }

    /// The `x-user-id` header, or 401 `x-user-id is invalid`.
    func userIDHeader(_ presented: Presented) throws(AsleepError) -> String {
        guard let id = presented.userID?.trimmingWhitespace(), !id.isEmpty else { throw .userIDHeaderInvalid }
        return id
    }

    // MARK: Session clock

    /// Applies the time-based transitions that are due on the project clock: OPEN sessions past
    /// the maximum duration close, CLOSED sessions past the completion delay complete (and their
    /// SESSION_COMPLETE webhook is queued). Idempotent; every request that reads sessions runs it.
    func advance(project: ProjectID, settings: AsleepSettings) throws {
        for var session in try store.sessionsPastMaximum(project: project, maxSession: settings.maxSession, now: now) {
            let limit = session.start.addingTimeInterval(settings.maxSession)
            session.state = .closed
            session.end = limit
            session.closedAt = limit
            try store.updateSession(session)
        }
        for var session in try store.sessionsDueToComplete(project: project, delay: settings.completionDelay, now: now) {
            try complete(&session, at: (session.closedAt ?? now).addingTimeInterval(settings.completionDelay), settings: settings)
        }
    }

    /// Moves a CLOSED (or OPEN) session to COMPLETE and queues SESSION_COMPLETE.
    func complete(_ session: inout SessionRecord, at time: Date, settings: AsleepSettings) throws {
        if session.state == .open {
            session.end = session.end ?? now
            session.closedAt = now
        }
        session.state = .complete
        session.completeTime = min(time, now)
        session.hold = false
        try store.updateSession(session)
        if let url = session.callbackURL {
            try enqueueWebhook(
                session: session, event: "SESSION_COMPLETE", url: url, data: try sessionCompleteData(session, settings: settings),
                settings: settings)
        }
    }

    /// Closes a session (end time `end`).
    func close(_ session: inout SessionRecord, end: Date, unexpected: Bool) throws {
        session.state = .closed
        session.end = end
        session.unexpectedEnd = unexpected ? end : nil
        session.closedAt = now
        try store.updateSession(session)
    }

    // MARK: Ids

    /// A fresh id from `make` that `exists` does not know (ids are global keys).
    func uniqueID(exists: (String) throws -> Bool, _ make: () -> String) throws -> String {
        for _ in 0..<20 {
            let id = make()
            if try !exists(id) { return id }
        }
        throw AsleepError(500, "could not allocate an id")
    }
}
