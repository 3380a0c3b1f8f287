import EmulatorCore
import Foundation
import HTTPServer

/// The SDK-facing routes [§10.1]: the route table, and for each route the mapping from the wire
/// to the store and the rules and back. One transaction per request that writes.
struct TelematicsRoutes: Sendable {
    /// Where the API is mounted under the platform prefix (`/api/v1` by default).
    let apiRoot: String
    /// The configuration file's settings layer (see `TelematicsSettings`).
    let configuredSettings: JSONValue

    /// Every SDK route: one group under the API root, whose caller is the tokens the request
    /// presented. The group checks nothing itself: each route admits the token inside its own
    /// transaction, after the body checks the wire contract puts first.
    func routes() -> [Route] {
        let group = RouteGroup<TelematicsCaller>(
            prefix: apiRoot, authenticate: { _, context in TelematicsCaller(context) }, translate: Self.translate,
            finish: { response, request, _, _ in
                // Error answers already carry it in their place; the rest get it appended.
                if let echoed = request.headers["x-request-id"], !response.headers.contains("x-request-id") {
                    response.headers.set("X-Request-Id", echoed)
                }
            }, observe: TelematicsChecks.observe)
        func route(_ method: HTTPMethod, _ path: String, _ handler: @escaping RouteGroup<TelematicsCaller>.Handler) -> Route {
            group.route(method, path, handler)
        }
        return [
            route(.post, "/auth/refresh", refresh),
            route(.post, "/auth/logout", logout),
            route(.get, "/users/me", currentUser),
            route(.get, "/vehicles/types", vehicleTypes),
            route(.get, "/vehicles/fuel-types", fuelTypes),
            route(.get, "/vehicles/add-reasons", addReasons),
            route(.put, "/vehicles/current", setVehicle),
            route(.get, "/vehicles/current", currentVehicle),
            route(.delete, "/vehicles/current", clearVehicle),
            route(.post, "/vehicles/{vehicleId}/kilometers", reportKilometers),
            route(.post, "/vehicles/{vehicleId}/kilometers/corrections", correctKilometers),
            route(.get, "/vehicles/{vehicleId}/estimated-mileage", estimatedMileage),
            route(.get, "/service-codes/{code}", serviceCode),
            route(.post, "/telemetry", uploadTelemetry),
            route(.post, "/attention-events", uploadAttentionEvents),
            route(.post, "/manual-events", insertManualEvent),
            route(.get, "/trips", trips),
            route(.get, "/trips/{tripId}", trip),
            route(.get, "/metrics/summary", metricsSummary),
            route(.get, "/metrics/activity-summary", activitySummary),
            route(.get, "/telematics-periods", periods),
            route(.get, "/telematics-periods/{periodId}", period),
        ]
    }

    /// The platform's error for what a handler threw that is not one: a body decoding error is
    /// `INVALID_REQUEST`; unreadable stored settings are the operator's to fix on the control
    /// plane, so the app only learns the service is unavailable.
    @Sendable static func translate(_ error: any Error, _ context: EmulatorContext) -> any Error {
        // Only a refusal the route decided itself is noted: a fault's answer never comes through here.
        if let refusal = error as? TelematicsError { context.note(TelematicsChecks.refusalFact, refusal.code) }
        switch error {
        case let error as BodyError: return TelematicsError.invalidRequest(error.message)
        case let error as TelematicsSettings.Unreadable:
            context.services.logger.error("telematics settings unreadable", [("project", context.credential?.project ?? ""), ("reason", error.reason)])
            return TelematicsError.settingsUnavailable
        default: return error
        }
    }

    // MARK: Shared steps

    /// The authenticated user and their project [D-TM-06]: 401 for a missing, malformed or
    /// unknown access token (including one whose tenant is no project), 403 for refused accounts.
    ///
    /// `readAsOf` is for reads only: the database's change count read before the read began. The
    /// token's pair and user are then reused while nothing has been written since (see
    /// `DerivedAnswers`); admitting them (expiry, revocation, account state) still runs on the
    /// request's clock every time. A write must not pass it: its own uncommitted changes have not
    /// moved the count.
    func authenticate(
        _ store: TelematicsStore, _ context: TelematicsContext,
        feature: String? = nil, readAsOf: Int? = nil
    ) throws -> (user: UserRecord, project: ProjectID) {
        let (token, project) = try TelematicsService.project(token: context.caller.accessToken, credential: context.credential)
        let answers = context.services.derivedAnswers, key = "telematics.token\u{1F}\(project)\u{1F}\(token)"
        let records: TokenRecords
        if let kept = answers.value(for: key, asOf: readAsOf, as: TokenRecords.self) {
            records = kept
        } else {
            let pair = try store.pair(project, access: token)
            records = TokenRecords(pair: pair, user: try pair.flatMap { try store.user(project, id: $0.userID) })
            answers.keep(records, costing: 1024, for: key, asOf: readAsOf)
        }
        if let pair = records.pair { TelematicsChecks.note(pair, context.core) }
        return (try TelematicsService.admit(pair: records.pair, user: records.user, now: context.now, feature: feature), project)
    }

    /// What an access token stands for in the store: its pair, and the pair's user (either may be missing).
    struct TokenRecords: Sendable {
        var pair: PairRecord?
        var user: UserRecord?
    }

    /// The project's effective settings (`TelematicsSettings.Unreadable` → the route's 503); an
    /// SDK route passes its context to have them cached until the project's state changes.
    func effectiveSettings(_ store: TelematicsStore, _ project: ProjectID, cachedFor context: EmulatorContext? = nil) throws -> TelematicsSettings {
        guard let context else { return try TelematicsSettings.effective(configured: configuredSettings, stored: store.settingsDocument(project)) }
        return try context.services.projectCache.derived("telematics.settings", project: project) {
            try TelematicsSettings.effective(configured: configuredSettings, stored: store.settingsDocument(project))
        }
    }

    /// A JSON object body (tolerating unknown keys, as the SDK routes do).
    func objectBody(_ request: Request) throws(TelematicsError) -> [String: JSONValue] {
        // Any parse failure gets the same 400, so which one it was does not matter.
        guard !request.body.isEmpty, let value = try? JSONValue.parse(request.body), let object = value.objectValue else {
            throw .notAnObject
        }
        return object
    }

    /// An optional string member; 400 when it is there but not a string.
    func optionalString(_ body: [String: JSONValue], _ key: String) throws(TelematicsError) -> String? {
        guard let value = body[key], !value.isNull else { return nil }
        guard let text = value.stringValue else { throw .invalidRequest("`\(key)` must be a string.") }
        return text
    }

    /// The query's parameters for the date filters, with `+` kept as a plus sign. Foundation's
    /// `URLQueryItem` sends an offset such as `startTs=2026-12-01T09:00:00+09:00` unescaped, and
    /// form decoding would read that `+` as a space; no ISO 8601 value contains a space, so for
    /// dates the plus sign is the only sensible reading. Other parameters keep form decoding.
    static func dateQuery(_ request: Request) -> [(name: String, value: String)] {
        request.query.split(separator: "&").map { part in
            let equals = part.firstIndex(of: "=") ?? part.endIndex
            let name = part[..<equals], value = equals == part.endIndex ? "" : part[part.index(after: equals)...]
            // A malformed escape is kept as sent, as the form decoder does; the date check then names it.
            return (URLQuery.percentDecode(name) ?? String(name), URLQuery.percentDecode(value) ?? String(value))
        }
    }

    /// A JSON response.
    func json(_ value: JSONValue, status: Int = 200) -> Response { .json(status: status, bytes: value.encoded()) }

    /// The refresh token from a JSON body (camel, Pascal or snake case) or a form body.
    static func refreshToken(in request: Request) -> String? {
        // A body that is not JSON is read as a form instead, so the parse error is not needed.
        if let object = (try? JSONValue.parse(request.body))?.objectValue {
            return (object["refreshToken"] ?? object["RefreshToken"] ?? object["refresh_token"])?.stringValue
        }
        let form = URLQuery.parse(String(decoding: request.body, as: UTF8.self))
        return form.first { $0.name == "refresh_token" }?.value
    }

    // MARK: Auth

    func refresh(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        guard let presented = context.caller.refreshToken else {
            throw TelematicsError.refreshTokenMissing
        }
        guard presented.hasPrefix("tmr_"), let project = context.credential?.project else {
            throw TelematicsError.malformedRefreshToken
        }
        let now = context.now
        let secrets = context.services.generateIDs(for: project) { TokenSecrets.draw(&$0) }
        let pair = try await context.write { store -> PairRecord in
            let settings = try effectiveSettings(store, project, cachedFor: context.core)
            let stored = try store.pair(project, refresh: presented)
            if let stored {
                TelematicsChecks.note(stored, context.core)
                context.core.note(TelematicsChecks.refreshFact, "1")
            }
            let owner = try stored.flatMap { try store.user(project, id: $0.userID) }
            let state = stored.flatMap { pair in owner.map { TelematicsService.RefreshTokenState(pair: pair, user: $0) } }
            switch TelematicsService.refresh(state, now: now.timeIntervalSince1970, grace: settings.rotationGraceSeconds) {
            case .fail(let error):
                if error == .reusedRefreshToken { context.core.note(TelematicsChecks.reusedFact, CheckedRequest.seconds(settings.rotationGraceSeconds)) }
                throw error
            case .replay(let successor):
                guard let next = try store.pair(project, id: successor) else { throw TelematicsError.unknownRefreshToken }
                return next
            case .rotate:
                // `.rotate` is only decided for a known token, so `stored` is there.
                guard let old = stored else { throw TelematicsError.unknownRefreshToken }
                let ttl = old.refreshTtl ?? settings.defaultRefreshTtlSeconds
                let next = try store.mintPair(
                    project, userID: old.userID, accessExpires: now.timeIntervalSince1970 + old.accessTtl,
                    refreshExpires: now.timeIntervalSince1970 + ttl, accessTtl: old.accessTtl, refreshTtl: ttl,
                    parentID: old.id, now: now, secrets: secrets)
                try store.markRotated(project, pairID: old.id, successorID: next.id, at: now.timeIntervalSince1970)
                return next
            }
        }
        return json(Wire.tokenPair(pair, now: now, aliases: true))
    }

    func logout(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        // The body is optional: a refresh token to revoke too; an unreadable one is just absent.
        let body = (try? JSONValue.parse(request.body))?.objectValue
        try await context.write { store in
            let (user, project) = try authenticate(store, context)
            try store.revokePairs(
                project, accessToken: context.caller.accessToken, refreshToken: body?["refreshToken"]?.stringValue, userID: user.userID,
                at: context.now.timeIntervalSince1970)
        }
        return .empty(204)
    }

    // MARK: User, catalogues, service codes

    func currentUser(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let asOf = context.database.localChangeCount // before the read
        let user = try await context.read { store in
            try authenticate(store, context, readAsOf: asOf).user
        }
        return json(Wire.user(user))
    }

    func vehicleTypes(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        json(Wire.catalogue(try await authenticatedSettings(request, context).vehicleTypes))
    }

    func fuelTypes(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        json(Wire.catalogue(try await authenticatedSettings(request, context).fuelTypes))
    }

    func addReasons(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        json(Wire.catalogue(try await authenticatedSettings(request, context).addReasons))
    }

    private func authenticatedSettings(_ request: Request, _ context: TelematicsContext) async throws -> TelematicsSettings {
        let asOf = context.database.localChangeCount // before the read
        return try await context.read { store in
            return try effectiveSettings(store, authenticate(store, context, readAsOf: asOf).project, cachedFor: context.core)
        }
    }

    func serviceCode(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let code = context.parameter("code")
        let settings = try await authenticatedSettings(request, context)
        let entry = try TelematicsService.serviceCode(code, settings: settings)
        return json(["code": .string(code), "valid": true, "serviceName": .string(entry.name), "features": .array(entry.features.map { .string($0) })])
    }
}
