import EmulatorCore
import Foundation
import HTTPServer

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
        // Outside the API base, so its own group; it authenticates like a `.key` route.
        let fallback = RouteGroup<KeyCaller>(authenticate: { try await caller($0, $1) }, translate: Self.translate, observe: WarrantyLifeChecks.observe)
        return table
            + Self.fallbackMethods.map { method in
                fallback.route(method, "/{path...}") { request, context in
                    throw Self.unrouted(matcher.match(request.method, path: "/" + context.parameter("path")))
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

    /// The SDK route table: `keyed` routes need the developer key (D-WL-02; the voucher lookup
    /// also uses the account when its credentials are valid), `signedIn` ones the key and an
    /// account (D-WL-03).
    func sdkRoutes() -> [Route] {
        let keyed = RouteGroup<KeyCaller>(prefix: Self.base, authenticate: { try await caller($0, $1) }, translate: Self.translate, observe: WarrantyLifeChecks.observe)
        let signedIn = RouteGroup<UserCaller>(
            prefix: Self.base, authenticate: { try await signedInCaller($0, $1) }, translate: Self.translate, observe: WarrantyLifeChecks.observe)
        return [
            keyed.route(.get, "/developer-keys/validate", validateKey),
            keyed.route(.get, "/auth/activated-account-check", activatedAccountCheck),
            keyed.route(.post, "/auth/recover", recover),
            keyed.route(.post, "/auth/token", login),
            signedIn.route(.delete, "/auth/token", logout),
            keyed.route(.post, "/auth/user", register),
            signedIn.route(.get, "/whoami", whoami),
            keyed.route(.get, "/app-config") { try await content($0, $1, name: "appConfig") },
            keyed.route(.get, "/vouchers/{code}", lookUpVoucher),
            keyed.route(.get, "/devices", publicDevice),
            signedIn.route(.get, "/items", itemByDevice),
            signedIn.route(.post, "/items", createItem),
            signedIn.route(.put, "/items/{itemId}", sensorEvent),
            signedIn.route(.post, "/items/{itemId}/events", sensorEvent),
            signedIn.route(.post, "/items/{itemId}/events/{sensorEventId}/readings", readings),
            signedIn.route(.post, "/items/{itemId}/clips/sound/{sensorEventId}", audioClip),
            signedIn.route(.post, "/items/{itemId}/diagnostics", diagnostic),
            signedIn.route(.post, "/items/{itemId}/diagnostics/{diagnosticId}/images/{kind}", image),
            signedIn.route(.put, "/items/{itemId}/notification-token", notificationToken),
            signedIn.route(.get, "/insights") { request, context in
                try await insight(context, deviceID: try WireQuery(request).requiredString("deviceId"), itemID: nil)
            },
            signedIn.route(.get, "/items/{itemId}/insights") { try await insight($1, deviceID: nil, itemID: $1.parameter("itemId")) },
            signedIn.route(.get, "/devices/{deviceId}/insights") { try await insight($1, deviceID: $1.parameter("deviceId"), itemID: nil) },
            signedIn.route(.get, "/warranties", listWarranties),
            signedIn.route(.post, "/warranties", createWarranty),
            signedIn.route(.get, "/warranties/{id}", getWarranty),
            signedIn.route(.put, "/warranties/{id}", updateWarranty),
            signedIn.route(.patch, "/warranties/{id}", patchWarranty),
            signedIn.route(.post, "/surveys", postSurvey),
            signedIn.route(.get, "/surveys", survey),
            signedIn.route(.get, "/offers/registration") { try await offersHTML($0, $1, name: "offersRegistrationHTML") },
            signedIn.route(.get, "/offers/reward-screen") { try await offersHTML($0, $1, name: "offersRewardScreenHTML") },
            signedIn.route(.get, "/offers", offers),
            signedIn.route(.post, "/feedback", feedback),
            signedIn.route(.get, "/sensor-tests") { try await content($0, $1, name: "sensorTests") },
            signedIn.route(.get, "/diagnostic-config", diagnosticConfig),
        ]
            + (settings.smartSaverRoutes
                ? [
                    signedIn.route(.get, "/items/{itemId}/smart-saver", smartSaver),
                    signedIn.route(.post, "/items/{itemId}/smart-saver/opt-ins", optIn),
                ] : [])
    }

    // MARK: Route plumbing

    /// A body the decoder refused is WarrantyLife's 400 naming the problem; anything else is
    /// already WarrantyLife's or left to the core's answer in the same envelope.
    @Sendable static func translate(_ error: any Error, _ context: EmulatorContext) -> any Error {
        guard let error = error as? BodyError else { return error }
        return WarrantyLifeError.validation(error.message)
    }

    /// The groups' one authentication step: the developer key the core resolved into
    /// `context.credential` (revoked is invalid), and the account whose credentials the request
    /// carried, when they are valid; a `.key` route simply does not look at it.
    private func caller(_ request: Request, _ context: EmulatorContext) async throws -> KeyCaller {
        guard context.presented(WarrantyLifePlatform.developerKeyKind) != nil else { throw WarrantyLifeError.missingDeveloperKey }
        guard let credential = context.credential, let key = credential.details(as: DeveloperKeyRecord.self), key.state != .revoked else {
            throw WarrantyLifeError.invalidDeveloperKey
        }
        let project = credential.project
        var user: UserRecord?
        if let credentials = UserCredentials(presentedIn: context), let account = try await account(context, project, token: credentials.token),
            credentials.names(account)
        {
            user = account
        }
        return KeyCaller(project: project, key: key, user: user)
    }

    /// `caller`, with the 401 of a `.user` route that came without valid user credentials.
    private func signedInCaller(_ request: Request, _ context: EmulatorContext) async throws -> UserCaller {
        let caller = try await caller(request, context)
        guard let user = caller.user else { throw WarrantyLifeError.unauthorized }
        return UserCaller(project: caller.project, key: caller.key, user: user)
    }

    /// The account whose token this is, from the project state cache: looking it up in its own read
    /// transaction was a seventh of a voucher lookup's CPU. A cached account stays until the
    /// project's state changes (a control-plane write, a reset, a restore, or a logout, which
    /// replaces the token and says so); an unknown token is looked up again every time, so an
    /// account registered a moment ago is found. Tokens are unique only within a project, hence
    /// the project in the key.
    private func account(_ context: EmulatorContext, _ project: ProjectID, token: String) async throws -> UserRecord? {
        let presented = PresentedCredential(kind: Self.accountTokenKind, value: project + "\u{0}" + token)
        let record = try await context.services.projectCache.resolve(presented, platform: .warrantylife) { presented in
            try await context.database.read { try WarrantyLifeStore(connection: $0).user(project, token: token) }
                .map { CredentialRecord(project: project, kind: presented.kind, value: presented.value, details: $0) }
        }
        return record?.details(as: UserRecord.self)
    }

    /// The project state cache's kind for accounts' tokens (the SDK's developer keys are another).
    private static let accountTokenKind = "accountToken"

    /// A success envelope (D-WL-04), bare when configured for 2022-era clients.
    func ok(_ payload: JSONValue, status: Int = 200) -> Response {
        WireEnvelope.ok(payload, status: status, bare: settings.bareEnvelope)
    }

    /// A fresh numeric-string id: eight digits counting up (see `IDGenerator.ascendingNumber`);
    /// `restart` after a taken id starts the count over elsewhere. Seeded projects keep the random
    /// draws from 100000–99999999 that their tests were written against.
    func newID<Account>(_ context: RequestContext<WarrantyLifeCaller<Account>>, restart: Bool = false) -> String {
        context.services.generateIDs(for: context.caller.project) { generator in
            generator.isSeeded
                ? String(generator.int(in: 100_000...99_999_999))
                : String(generator.ascendingNumber(in: 10_000_000...99_999_999, restart: restart))
        }
    }

    /// `candidate`, or a fresh id when `table` holds it already; call inside the write that stores it.
    func unusedID<Account>(
        _ candidate: String, in table: WarrantyLifeStore.DrawnIDTable, _ service: WarrantyLifeService, _ context: RequestContext<WarrantyLifeCaller<Account>>
    ) throws -> String {
        try service.store.unusedID(service.project, in: table, candidate: candidate) { newID(context, restart: true) }
    }

    /// A fresh user token.
    func newToken<Account>(_ context: RequestContext<WarrantyLifeCaller<Account>>) -> String {
        context.services.generateIDs(for: context.caller.project) { $0.hex(40) }
    }

    /// `context.now` as WarrantyLife shows times.
    func nowText<Caller>(_ context: RequestContext<Caller>) -> String { Timestamp.format(context.now, fractionalSeconds: false) }

    // MARK: Key and accounts (§5.2)

    /// `GET /developer-keys/validate` (D-WL-09): 200 `{name, environment}`; an `unavailable` key answers 503 or hangs.
    func validateKey(_ request: Request, _ context: RequestContext<KeyCaller>) async throws -> Response {
        let key = context.caller.key
        if key.state == .unavailable {
            if key.unavailableMode == .hang { return Response(status: 0, delivery: .hang(seconds: 65)) }
            throw WarrantyLifeError.serviceUnavailable
        }
        return ok(["name": .string(key.name), "environment": .string(key.environment)])
    }

    /// `GET /auth/activated-account-check?email=`.
    func activatedAccountCheck(_ request: Request, _ context: RequestContext<KeyCaller>) async throws -> Response {
        let email = try WireQuery(request).requiredString("email")
        let user = try await context.read { service in try service.account(email: email) }
        return ok(["email": .string(email), "exists": .bool(user != nil), "activated": .bool(user?.activated ?? false)])
    }

    /// `POST /auth/recover`: always 202; a known account gets a reset mail in the outbox.
    func recover(_ request: Request, _ context: RequestContext<KeyCaller>) async throws -> Response {
        let email = try WireBody.objectOrForm(request).requiredString("email")
        let resetToken = newToken(context)
        try await context.write { service in try service.recover(email: email, resetToken: resetToken) }
        return ok(["sent": true], status: 202)
    }

    /// `POST /auth/token`: 202 `LoginResponse` (2022: exactly 202); mismatch 404 (or 401 by configuration); 403 before activation.
    func login(_ request: Request, _ context: RequestContext<KeyCaller>) async throws -> Response {
        let body = try WireBody.objectOrForm(request)
        let username = try body.string("username") ?? body.string("email")
        guard let username, !username.isEmpty else { throw WarrantyLifeError.missingField("username") }
        let password = try body.requiredString("password")
        let failureStatus = settings.loginFailureStatus
        let user = try await context.read { service in
            try service.login(username: username, password: password, failureStatus: failureStatus)
        }
        return ok(user.login, status: settings.loginStatus)
    }

    /// `DELETE /auth/token` (optional, D-WL-11): revokes the token by issuing a new one.
    func logout(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        let user = context.caller.user, token = newToken(context)
        try await context.write { service in try service.logout(user, newToken: token) }
        // The old token is cached as this account's: it must stop working here and on every instance.
        await context.services.projectChanged(context.caller.project)
        return Response(status: 204)
    }

    /// `POST /auth/user` (D-WL-10): 201 `LoginResponse`; 409 existing e-mail; 422 locked e-mail.
    func register(_ request: Request, _ context: RequestContext<KeyCaller>) async throws -> Response {
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
        let id = newID(context), token = newToken(context), requireActivation = settings.requireActivation
        let user = try await context.write { service in
            try service.register(registration, id: unusedID(id, in: .users, service, context), token: token, requireActivation: requireActivation)
        }
        return ok(user.login, status: 201)
    }

    /// `GET /whoami`.
    func whoami(_ request: Request, _ context: RequestContext<UserCaller>) async throws -> Response {
        ok(context.caller.user.whoami)
    }

    // MARK: Vouchers

    /// `GET /vouchers/{code}` (D-WL-15): the voucher and the action for this caller and device.
    func lookUpVoucher(_ request: Request, _ context: RequestContext<KeyCaller>) async throws -> Response {
        let code = context.parameter("code")
        let query = WireQuery(request)
        let isPlanTransfer = try query.bool("isPlanTransfer") ?? false
        let active = try query.int("activeWarrantiesInCurrentDevice") ?? 0
        let deviceID = query.string("deviceId") ?? request.headers["x-device-id"]
        let userID = context.caller.user?.id
        let lookup = try await context.write { service in
            try service.lookUpVoucher(code: code, isPlanTransfer: isPlanTransfer, activeWarrantiesInCurrentDevice: active, deviceID: deviceID, callerUserID: userID)
        }
        let input = VoucherAnswerInput(voucher: lookup.voucher, action: lookup.action, countOnDevice: lookup.countOnDevice)
        let bare = settings.bareEnvelope
        return .json(
            status: 200,
            bytes: voucherAnswers.answer(for: context.caller.project + "\u{1F}" + lookup.voucher.code, input: input) { input in
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
