import EmulatorCore
import Foundation
import HTTPServer

/// Who may call a route (D-WL-02, D-WL-03): the developer key alone, the key with user
/// credentials when present, or the key with user credentials required.
enum Access { case key, optionalUser, user }

/// The authenticated caller of an SDK route: the developer key (from `context.credential`) and,
/// when the request carried valid user credentials, the account.
struct Caller: Sendable {
    /// The project that owns the key.
    let project: ProjectID
    /// The developer key as the credential index resolved it.
    let key: DeveloperKeyRecord
    /// The account, when the request carried its credentials.
    let user: UserRecord?

    /// The account of a K+U route (the route table guarantees one; 401 otherwise).
    func requireUser() throws(WarrantyLifeError) -> UserRecord {
        guard let user else { throw .unauthorized }
        return user
    }
}

/// The SDK-facing routes (wire doc §10.1), relative to the platform prefix: decode the request,
/// call the service in one transaction, encode WarrantyLife's envelope.
struct WarrantyLifeRoutes: Sendable {
    /// The API base below the prefix; any client code is accepted (D-WL-01).
    static let base = "/mapi/{clientCode}/100"

    /// The configuration section's settings.
    let settings: WarrantyLifeSettings
    /// Voucher lookup answers by project and code, reused while the voucher, the action and the
    /// device count are the same: building and encoding the 1.4 KB payload was an eighth of a lookup.
    let voucherAnswers = MemoizedAnswers<VoucherAnswerInput>()

    /// Methods the fallback answers for: every method an SDK or a tool may send.
    static let fallbackMethods: [HTTPMethod] = [.get, .post, .put, .patch, .delete, .options]

    /// Every SDK route, then the fallback that checks the developer key before answering an
    /// unknown path (404) or a known path with another method (405).
    func routes() -> [Route] {
        let table = sdkRoutes()
        var known = Router<Bool>()
        for route in table {
            // The core registers the same table first and refuses to start on a bad or duplicate
            // pattern, so this cannot throw in a running server.
            try? known.add(route.method, route.path, true)
        }
        let matcher = known
        return table
            + Self.fallbackMethods.map { method in
                Route(method, "/{path...}") { request, context in
                    try await answer(request, context) { request, context in
                        _ = try await authenticate(request, context, .key)
                        throw Self.unrouted(matcher.match(request.method, path: "/" + context.parameter("path")))
                    }
                }
            }
    }

    /// The 405 (with the methods the path has) or 404 of a request no SDK route took.
    static func unrouted(_ match: Router<Bool>.Match) -> WarrantyLifeError {
        guard case .methodNotAllowed(let allowed) = match else { return .routeNotFound }
        var error = WarrantyLifeError.forCore(.methodNotAllowed(allowed))
        error.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
        return error
    }

    /// The SDK route table.
    func sdkRoutes() -> [Route] {
        [
            route(.get, "/developer-keys/validate", .key, validateKey),
            route(.get, "/auth/activated-account-check", .key, activatedAccountCheck),
            route(.post, "/auth/recover", .key, recover),
            route(.post, "/auth/token", .key, login),
            route(.delete, "/auth/token", .user, logout),
            route(.post, "/auth/user", .key, register),
            route(.get, "/whoami", .user, whoami),
            route(.get, "/app-config", .key) { try await content($0, $1, $2, name: "appConfig") },
            route(.get, "/vouchers/{code}", .optionalUser, lookUpVoucher),
            route(.get, "/devices", .key, publicDevice),
            route(.get, "/items", .user, itemByDevice),
            route(.post, "/items", .user, createItem),
            route(.put, "/items/{itemId}", .user, sensorEvent),
            route(.post, "/items/{itemId}/events", .user, sensorEvent),
            route(.post, "/items/{itemId}/events/{sensorEventId}/readings", .user, readings),
            route(.post, "/items/{itemId}/clips/sound/{sensorEventId}", .user, audioClip),
            route(.post, "/items/{itemId}/diagnostics", .user, diagnostic),
            route(.post, "/items/{itemId}/diagnostics/{diagnosticId}/images/{kind}", .user, image),
            route(.put, "/items/{itemId}/notification-token", .user, notificationToken),
            route(.get, "/items/{itemId}/smart-saver", .user, smartSaver),
            route(.post, "/items/{itemId}/smart-saver/opt-ins", .user, optIn),
            route(.get, "/insights", .user) { request, context, caller in
                try await insight(context, caller, deviceID: try WireQuery(request).requiredString("deviceId"), itemID: nil)
            },
            route(.get, "/items/{itemId}/insights", .user) { try await insight($1, $2, deviceID: nil, itemID: $1.parameter("itemId")) },
            route(.get, "/devices/{deviceId}/insights", .user) { try await insight($1, $2, deviceID: $1.parameter("deviceId"), itemID: nil) },
            route(.get, "/warranties", .user, listWarranties),
            route(.post, "/warranties", .user, createWarranty),
            route(.get, "/warranties/{id}", .user, getWarranty),
            route(.put, "/warranties/{id}", .user, updateWarranty),
            route(.patch, "/warranties/{id}", .user, patchWarranty),
            route(.post, "/surveys", .user, postSurvey),
            route(.get, "/surveys", .user, survey),
            route(.get, "/offers/registration", .user) { try await offersHTML($0, $1, $2, name: "offersRegistrationHTML") },
            route(.get, "/offers/reward-screen", .user) { try await offersHTML($0, $1, $2, name: "offersRewardScreenHTML") },
            route(.get, "/offers", .user, offers),
            route(.post, "/feedback", .user, feedback),
            route(.get, "/sensor-tests", .user) { try await content($0, $1, $2, name: "sensorTests") },
            route(.get, "/diagnostic-config", .user, diagnosticConfig),
        ]
    }

    // MARK: Route plumbing

    typealias Handler = @Sendable (Request, EmulatorContext, Caller) async throws -> Response

    /// A route that authenticates the caller for `access` and answers errors in WarrantyLife's envelope.
    private func route(_ method: HTTPMethod, _ path: String, _ access: Access, _ handler: @escaping Handler) -> Route {
        Route(method, Self.base + path) { request, context in
            try await answer(request, context) { request, context in
                let caller = try await authenticate(request, context, access)
                return try await handler(request, context, caller)
            }
        }
    }

    /// `body`'s response, its WarrantyLife and body errors in WarrantyLife's envelope (anything
    /// else, a storage failure say, is left to the core's answer in the same envelope).
    private func answer(
        _ request: Request, _ context: EmulatorContext,
        _ body: @Sendable (Request, EmulatorContext) async throws -> Response
    ) async throws -> Response {
        do {
            return try await body(request, context)
        } catch let error as WarrantyLifeError {
            return error.response(trace: context.requestID)
        } catch let error as BodyError {
            return WarrantyLifeError.validation(error.message).response(trace: context.requestID)
        }
    }

    /// The developer key (as the core resolved it into `context.credential`) on every route; user
    /// credentials where the route needs them.
    private func authenticate(_ request: Request, _ context: EmulatorContext, _ access: Access) async throws -> Caller {
        guard WarrantyLifePlatform.developerKey(in: request) != nil else { throw WarrantyLifeError.missingDeveloperKey }
        guard let credential = context.credential, let key = credential.details(as: DeveloperKeyRecord.self), key.state != .revoked else {
            throw WarrantyLifeError.invalidDeveloperKey
        }
        let project = credential.project
        var user: UserRecord?
        if let credentials = UserCredentials(request), let account = try await account(context, project, token: credentials.token),
            credentials.names(account)
        {
            user = account
        }
        if access == .user && user == nil { throw WarrantyLifeError.unauthorized }
        return Caller(project: project, key: key, user: user)
    }

    /// The account whose token this is, from the credential index: looking it up in its own read
    /// transaction was a seventh of a voucher lookup's CPU. A cached account stays until the
    /// project's state changes (a control-plane write, a reset, a restore, or a logout, which
    /// replaces the token and says so); an unknown token is looked up again every time, so an
    /// account registered a moment ago is found. Tokens are unique only within a project, hence
    /// the project in the key.
    private func account(_ context: EmulatorContext, _ project: ProjectID, token: String) async throws -> UserRecord? {
        let presented = PresentedCredential(kind: Self.accountTokenKind, value: project + "\u{0}" + token)
        let record = try await context.services.credentials.resolve(presented, platform: .warrantylife) { presented in
            try await read(context, project) { service in try service.store.user(project, token: token) }
                .map { CredentialRecord(project: project, kind: presented.kind, value: presented.value, details: $0) }
        }
        return record?.details(as: UserRecord.self)
    }

    /// The credential index's kind for accounts' tokens (the SDK's developer keys are another).
    private static let accountTokenKind = "accountToken"

    /// Runs `body` on the service in a read transaction.
    func read<T: Sendable>(_ context: EmulatorContext, _ project: ProjectID, _ body: @escaping @Sendable (WarrantyLifeService) throws -> T) async throws -> T {
        let now = context.now
        return try await context.database.read { connection in
            try body(WarrantyLifeService(store: WarrantyLifeStore(connection: connection), project: project, now: now))
        }
    }

    /// Runs `body` on the service in a write transaction (all or nothing).
    func write<T: Sendable>(_ context: EmulatorContext, _ project: ProjectID, _ body: @escaping @Sendable (WarrantyLifeService) throws -> T) async throws -> T {
        let now = context.now
        return try await context.database.write { connection in
            try body(WarrantyLifeService(store: WarrantyLifeStore(connection: connection), project: project, now: now))
        }
    }

    /// A success envelope (D-WL-04), bare when configured for 2022-era clients.
    func ok(_ payload: JSONValue, status: Int = 200) -> Response {
        WireEnvelope.ok(payload, status: status, bare: settings.bareEnvelope)
    }

    /// A fresh numeric-string id: eight digits counting up (see `IDGenerator.ascendingNumber`);
    /// `restart` after a taken id starts the count over elsewhere. Seeded projects keep the random
    /// draws from 100000–99999999 that their tests were written against.
    func newID(_ context: EmulatorContext, _ project: ProjectID, restart: Bool = false) -> String {
        context.services.generateIDs(for: project) { generator in
            generator.isSeeded
                ? String(generator.int(in: 100_000...99_999_999))
                : String(generator.ascendingNumber(in: 10_000_000...99_999_999, restart: restart))
        }
    }

    /// `candidate`, or a fresh id when `table` holds it already; call inside the write that stores it.
    func unusedID(_ candidate: String, in table: WarrantyLifeStore.DrawnIDTable, _ service: WarrantyLifeService, _ context: EmulatorContext) throws -> String {
        try service.store.unusedID(service.project, in: table, candidate: candidate) { newID(context, service.project, restart: true) }
    }

    /// A fresh user token.
    func newToken(_ context: EmulatorContext, _ project: ProjectID) -> String {
        context.services.generateIDs(for: project) { $0.hex(40) }
    }

    /// `context.now` as WarrantyLife shows times.
    func nowText(_ context: EmulatorContext) -> String { Timestamp.format(context.now, fractionalSeconds: false) }

    // MARK: Key and accounts (§5.2)

    /// `GET /developer-keys/validate` (D-WL-09): 200 `{name, environment}`; an `unavailable` key answers 503 or hangs.
    func validateKey(_ request: Request, _ context: EmulatorContext, _ caller: Caller) async throws -> Response {
        if caller.key.state == .unavailable {
            if caller.key.unavailableMode == .hang { return Response(status: 0, delivery: .hang(seconds: 65)) }
            throw WarrantyLifeError.serviceUnavailable
        }
        return ok(["name": .string(caller.key.name), "environment": .string(caller.key.environment)])
    }

    /// `GET /auth/activated-account-check?email=`.
    func activatedAccountCheck(_ request: Request, _ context: EmulatorContext, _ caller: Caller) async throws -> Response {
        let email = try WireQuery(request).requiredString("email")
        let user = try await read(context, caller.project) { service in try service.account(email: email) }
        return ok(["email": .string(email), "exists": .bool(user != nil), "activated": .bool(user?.activated ?? false)])
    }

    /// `POST /auth/recover`: always 202; a known account gets a reset mail in the outbox.
    func recover(_ request: Request, _ context: EmulatorContext, _ caller: Caller) async throws -> Response {
        let email = try WireBody.objectOrForm(request).requiredString("email")
        let resetToken = newToken(context, caller.project)
        try await write(context, caller.project) { service in try service.recover(email: email, resetToken: resetToken) }
        return ok(["sent": true], status: 202)
    }

    /// `POST /auth/token`: 202 `LoginResponse` (2022: exactly 202); mismatch 404 (or 401 by configuration); 403 before activation.
    func login(_ request: Request, _ context: EmulatorContext, _ caller: Caller) async throws -> Response {
        let body = try WireBody.objectOrForm(request)
        let username = try body.string("username") ?? body.string("email")
        guard let username, !username.isEmpty else { throw WarrantyLifeError.validation("Field `username` is required.") }
        let password = try body.requiredString("password")
        let failureStatus = settings.loginFailureStatus
        let user = try await read(context, caller.project) { service in
            try service.login(username: username, password: password, failureStatus: failureStatus)
        }
        return ok(user.login, status: settings.loginStatus)
    }

    /// `DELETE /auth/token` (optional, D-WL-11): revokes the token by issuing a new one.
    func logout(_ request: Request, _ context: EmulatorContext, _ caller: Caller) async throws -> Response {
        let user = try caller.requireUser(), token = newToken(context, caller.project)
        try await write(context, caller.project) { service in try service.logout(user, newToken: token) }
        // The old token is cached as this account's: it must stop working here and on every instance.
        await context.services.projectChanged(caller.project)
        return Response(status: 204)
    }

    /// `POST /auth/user` (D-WL-10): 201 `LoginResponse`; 409 existing e-mail; 422 locked e-mail.
    func register(_ request: Request, _ context: EmulatorContext, _ caller: Caller) async throws -> Response {
        let body = try WireBody.objectOrForm(request)
        let email = WireBody.trimmed(try body.requiredString("email"))
        // By code point, as the document's pattern reads it (a combining mark must not hide the `@`).
        let scalars = email.unicodeScalars
        guard scalars.contains("@"), scalars.first != "@", scalars.last != "@" else { throw WarrantyLifeError.validation("Field `email` must be an e-mail address.") }
        let password = try body.string("password")
        let country = try body.int("country"), state = try body.int("state")
        var profile: [String: JSONValue] = [:]
        for name in ["firstName", "lastName", "company", "streetAddress", "city", "zip", "countryCode", "stateCode", "phone"] {
            if let value = try body.string(name) { profile[name] = .string(value) }
        }
        if let country { profile["country"] = .int(Int64(country)) }
        if let state { profile["state"] = .int(Int64(state)) }
        let registration = Registration(email: email, password: password, country: country, state: state, profile: profile)
        let id = newID(context, caller.project), token = newToken(context, caller.project), requireActivation = settings.requireActivation
        let user = try await write(context, caller.project) { service in
            try service.register(registration, id: unusedID(id, in: .users, service, context), token: token, requireActivation: requireActivation)
        }
        return ok(user.login, status: 201)
    }

    /// `GET /whoami`.
    func whoami(_ request: Request, _ context: EmulatorContext, _ caller: Caller) async throws -> Response {
        ok(try caller.requireUser().whoami)
    }

    // MARK: Vouchers

    /// `GET /vouchers/{code}` (D-WL-15): the voucher and the action for this caller and device.
    func lookUpVoucher(_ request: Request, _ context: EmulatorContext, _ caller: Caller) async throws -> Response {
        let code = context.parameter("code")
        let query = WireQuery(request)
        let isPlanTransfer = try query.bool("isPlanTransfer") ?? false
        let active = try query.int("activeWarrantiesInCurrentDevice") ?? 0
        let deviceID = query.string("deviceId") ?? request.headers["x-device-id"]
        let userID = caller.user?.id
        let lookup = try await write(context, caller.project) { service in
            try service.lookUpVoucher(code: code, isPlanTransfer: isPlanTransfer, activeWarrantiesInCurrentDevice: active, deviceID: deviceID, callerUserID: userID)
        }
        let input = VoucherAnswerInput(voucher: lookup.voucher, action: lookup.action, countOnDevice: lookup.countOnDevice)
        let bare = settings.bareEnvelope
        return .json(
            status: 200,
            bytes: voucherAnswers.answer(for: caller.project + "\u{1F}" + lookup.voucher.code, input: input) { input in
                WireEnvelope.ok(input.voucher.wire(action: input.action, countOnDevice: input.countOnDevice), bare: bare).body
            })
    }
}

/// What a voucher lookup's answer is made from (besides the server's envelope setting).
struct VoucherAnswerInput: Equatable, Sendable {
    /// The voucher as the lookup left it.
    var voucher: VoucherRecord
    /// The action for this caller and device.
    var action: VoucherAction
    /// Warranties on the caller's device.
    var countOnDevice: Int
}
