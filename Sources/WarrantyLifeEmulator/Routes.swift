import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// Settings from the `warrantylife` configuration section (the contract's "Alternatives (config)").
struct WarrantyLifeSettings: Sendable {
    /// Status of a login mismatch: 404 (2022) or 401.
    var loginFailureStatus = 404
    /// Status of a successful login: 202 (2022) or 200.
    var loginStatus = 202
    /// New accounts need a control-plane activation before they can log in.
    var requireActivation = false
    /// Largest readings (uncompressed), audio or image upload.
    var maxUploadBytes = 20 * 1024 * 1024
    /// `bare` answers unwrapped payloads (2022 behaviour).
    var bareEnvelope = false
    /// A repeated sensor event (same item, `eventAt`, type) is answered with the first event's id.
    var sensorEventDedupe = true
    /// A repeated diagnostic report (same sorted-JSON hash on the item) is answered with the first report's id.
    var uploadDedupe = true

    init(_ configuration: JSONValue) {
        if let value = configuration["loginFailureStatus"]?.intValue, value == 401 || value == 404 { loginFailureStatus = value }
        if let value = configuration["loginStatus"]?.intValue, value == 200 || value == 202 { loginStatus = value }
        if let value = configuration["requireActivation"]?.boolValue { requireActivation = value }
        if let value = configuration["maxUploadBytes"]?.intValue, value > 0 { maxUploadBytes = value }
        bareEnvelope = configuration["envelope"]?.stringValue == "bare"
        if let value = configuration["sensorEventDedupe"]?.boolValue { sensorEventDedupe = value }
        if let value = configuration["uploadDedupe"]?.boolValue { uploadDedupe = value }
    }
}

/// Who may call a route (D-WL-02, D-WL-03).
enum Access { case key, optionalUser, user }

/// One authenticated SDK call: request, context, project, key and (when present) the user.
struct WireCall: Sendable {
    let request: Request
    let context: EmulatorContext
    let project: ProjectID
    let key: DeveloperKeyRecord
    let user: UserRecord?
    let settings: WarrantyLifeSettings

    var now: Date { context.now }
    var nowText: String { Timestamp.format(context.now, fractionalSeconds: false) }
    var db: Database { context.database }
    var query: WireQuery { WireQuery(request) }

    /// The user of a K+U route (the wrapper guarantees one).
    var caller: UserRecord {
        get throws(WarrantyLifeError) {
            guard let user else { throw .unauthorized }
            return user
        }
    }

    func ok(_ payload: JSONValue, status: Int = 200) -> Response {
        WireEnvelope.ok(payload, status: status, bare: settings.bareEnvelope)
    }

    /// A fresh numeric-string id (repeatable for seeded projects).
    func newID() -> String {
        context.services.generateIDs(for: project) { String($0.int(in: 100_000...99_999_999)) }
    }

    func token() -> String { context.services.generateIDs(for: project) { $0.hex(40) } }
}

/// The SDK-facing routes (wire doc §10.1), relative to the platform prefix.
enum WarrantyLifeRoutes {
    /// The API base below the prefix; any client code is accepted (D-WL-01).
    static let base = "/mapi/{clientCode}/100"

    static func all(settings: WarrantyLifeSettings) -> [Route] {
        func route(_ method: HTTPMethod, _ path: String, _ access: Access, _ body: @escaping @Sendable (WireCall) async throws -> Response) -> Route {
            Route(method, base + path) { request, context in
                do {
                    let call = try await authenticate(request, context, access, settings)
                    return try await body(call)
                } catch let error as WarrantyLifeError {
                    return error.response(trace: context.requestID)
                } catch let error as BodyError {
                    return WarrantyLifeError.validation(error.message).response(trace: context.requestID)
                }
            }
        }
        return [
            route(.get, "/developer-keys/validate", .key, validateKey),
            route(.get, "/auth/activated-account-check", .key, AccountHandlers.activatedCheck),
            route(.post, "/auth/recover", .key, AccountHandlers.recover),
            route(.post, "/auth/token", .key, AccountHandlers.login),
            route(.delete, "/auth/token", .user, AccountHandlers.logout),
            route(.post, "/auth/user", .key, AccountHandlers.register),
            route(.get, "/whoami", .user) { call in call.ok(try call.caller.whoami) },
            route(.get, "/app-config", .key) { call in
                let config = try await call.db.read { c in try WarrantyLifeStore.content(c, call.project, "appConfig") }
                return call.ok(config)
            },
            route(.get, "/vouchers/{code}", .optionalUser, VoucherHandlers.lookup),
            route(.get, "/devices", .key, ItemHandlers.publicDevice),
            route(.get, "/items", .user, ItemHandlers.byDevice),
            route(.post, "/items", .user, ItemHandlers.create),
            route(.put, "/items/{itemId}", .user, ItemHandlers.update),
            route(.post, "/items/{itemId}/events", .user, ItemHandlers.update),
            route(.post, "/items/{itemId}/events/{sensorEventId}/readings", .user, UploadHandlers.readings),
            route(.post, "/items/{itemId}/clips/sound/{sensorEventId}", .user, UploadHandlers.audio),
            route(.post, "/items/{itemId}/diagnostics", .user, UploadHandlers.diagnostic),
            route(.post, "/items/{itemId}/diagnostics/{diagnosticId}/images/{kind}", .user, UploadHandlers.image),
            route(.put, "/items/{itemId}/notification-token", .user, ItemHandlers.notificationToken),
            route(.get, "/items/{itemId}/smart-saver", .user, ItemHandlers.smartSaver),
            route(.post, "/items/{itemId}/smart-saver/opt-ins", .user, ItemHandlers.optIn),
            route(.get, "/insights", .user, InsightHandlers.byQuery),
            route(.get, "/items/{itemId}/insights", .user, InsightHandlers.byItem),
            route(.get, "/devices/{deviceId}/insights", .user, InsightHandlers.byDevicePath),
            route(.get, "/warranties", .user, WarrantyHandlers.list),
            route(.post, "/warranties", .user, WarrantyHandlers.create),
            route(.get, "/warranties/{id}", .user, WarrantyHandlers.get),
            route(.put, "/warranties/{id}", .user, WarrantyHandlers.update),
            route(.patch, "/warranties/{id}", .user, WarrantyHandlers.patch),
            route(.post, "/surveys", .user, ContentHandlers.postSurvey),
            route(.get, "/surveys", .user, ContentHandlers.survey),
            route(.get, "/offers/registration", .user) { try await ContentHandlers.offersHTML($0, name: "offersRegistrationHTML") },
            route(.get, "/offers/reward-screen", .user) { try await ContentHandlers.offersHTML($0, name: "offersRewardScreenHTML") },
            route(.get, "/offers", .user, ContentHandlers.offers),
            route(.post, "/feedback", .user, ContentHandlers.feedback),
            route(.get, "/sensor-tests", .user) { call in
                call.ok(try await call.db.read { c in try WarrantyLifeStore.content(c, call.project, "sensorTests") })
            },
            route(.get, "/diagnostic-config", .user, ContentHandlers.diagnosticConfig),
        ]
    }

    /// Developer key on every route; user credentials where the route needs them.
    static func authenticate(_ request: Request, _ context: EmulatorContext, _ access: Access, _ settings: WarrantyLifeSettings) async throws -> WireCall {
        guard let presented = request.headers["x-wl-developer-key"]?.trimmingCharacters(in: .whitespaces), !presented.isEmpty else {
            throw WarrantyLifeError.missingDeveloperKey
        }
        guard let project = context.projectID else { throw WarrantyLifeError.invalidDeveloperKey }
        let credentials = UserCredentials(header: request.headers["authorization"])
        let (key, user) = try await context.database.read { c -> (DeveloperKeyRecord?, UserRecord?) in
            let key = try WarrantyLifeStore.key(c, presented)
            var user: UserRecord?
            if let credentials, let found = try WarrantyLifeStore.user(c, project, token: credentials.token),
               credentials.identity.map({ $0.caseInsensitiveCompare(found.email) == .orderedSame || $0 == found.id }) ?? true {
                user = found
            }
            return (key, user)
        }
        guard let key, key.projectID == project, key.state != "revoked" else { throw WarrantyLifeError.invalidDeveloperKey }
        if access == .user && user == nil { throw WarrantyLifeError.unauthorized }
        return WireCall(request: request, context: context, project: project, key: key, user: user, settings: settings)
    }

    /// `GET /developer-keys/validate` (D-WL-09): 200 `{name, environment}`; an `unavailable` key answers 503 or hangs.
    static func validateKey(_ call: WireCall) async throws -> Response {
        if call.key.state == "unavailable" {
            if call.key.unavailableMode == "hang" { return Response(status: 0, delivery: .hang(seconds: 65)) }
            throw WarrantyLifeError.serviceUnavailable
        }
        return call.ok(["name": .string(call.key.name), "environment": .string(call.key.environment)])
    }
}

/// `Authorization: Basic base64(identity:token)` or `Bearer token`.
struct UserCredentials: Sendable, Equatable {
    var identity: String?
    var token: String

    init?(header: String?) {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let value = parts[1].trimmingCharacters(in: .whitespaces)
        switch parts[0].lowercased() {
        case "bearer":
            guard !value.isEmpty else { return nil }
            identity = nil; token = value
        case "basic":
            guard let data = Data(base64Encoded: value), let text = String(data: data, encoding: .utf8), let colon = text.lastIndex(of: ":") else { return nil }
            identity = String(text[..<colon]); token = String(text[text.index(after: colon)...])
            if token.isEmpty { return nil }
        default:
            return nil
        }
    }
}
