import EmulatorCore
import Foundation
import HTTPServer
import Storage

/// Control-plane routes under `/__admin/projects/{id}/asleep`: settings, API keys and apps (plan
/// flags, customers), tokens, users, products, sessions in any state, forced transitions and
/// webhooks. Bodies are camelCase and strict (unknown keys are a 400).
struct AsleepAdmin: Sendable {
    /// The configuration file's `asleep` section (the settings layer under each project's own).
    let configuration: JSONValue

    /// Every control-plane route. Reading sessions first applies the transitions that fell due
    /// (as the worker would at its next tick), so those GETs write and are marked as such.
    func routes() -> [AdminRoute] {
        [
            AdminRoute(.get, "/settings", getSettings),
            AdminRoute(.patch, "/settings", patchSettings),
            AdminRoute(.get, "/keys", listKeys),
            AdminRoute(.post, "/keys", addKey),
            AdminRoute(.patch, "/keys/{key}", changeKey),
            AdminRoute(.delete, "/keys/{key}", deleteKey),
            AdminRoute(.get, "/apps", listApps),
            AdminRoute(.post, "/apps", addApp),
            AdminRoute(.post, "/tokens/expire", expireTokens),
            AdminRoute(.get, "/users", listUsers),
            AdminRoute(.post, "/users", addUser),
            AdminRoute(.delete, "/users/{user}", deleteUser),
            AdminRoute(.get, "/products", listProducts),
            AdminRoute(.post, "/products", addProduct),
            AdminRoute(.post, "/products/{product}/revoke", revokeProduct),
            AdminRoute(.get, "/sessions", listSessions).writingOnGet(),
            AdminRoute(.post, "/sessions", addSession),
            AdminRoute(.get, "/sessions/{session}", getSession).writingOnGet(),
            AdminRoute(.patch, "/sessions/{session}", patchSession),
            AdminRoute(.get, "/sessions/{session}/chunks", sessionChunks).writingOnGet(),
            AdminRoute(.get, "/sessions/{session}/report", sessionReport).writingOnGet(),
            AdminRoute(.post, "/sessions/{session}/close", closeSession),
            AdminRoute(.post, "/sessions/{session}/complete", completeSession),
            AdminRoute(.post, "/sessions/{session}/webhooks", fireWebhook),
            AdminRoute(.get, "/webhooks", listWebhooks),
        ]
    }

    static let keyStates: Set<String> = Set(CredentialState.allCases.map(\.rawValue))

    /// A service on `connection`, bound to the project's clock and id generator.
    func service(_ connection: any StoreConnection, _ context: AdminContext) -> AsleepService {
        AsleepRoutes(configuration: configuration).serviceFactory(services: context.services, project: context.projectID, now: context.now)(connection)
    }

    /// `state` of a body as a credential state, or the control plane's 400.
    static func credentialState(_ text: String?) throws -> CredentialState? {
        guard let text else { return nil }
        guard let state = CredentialState(rawValue: text) else {
            throw AdminError.badRequest("`state` must be one of \(keyStates.sorted().joined(separator: ", ")).")
        }
        return state
    }

    // MARK: Settings

    func getSettings(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID
        let settings = try await context.database.read { try self.service($0, context).settings(project: project) }
        return .json(settings.effective)
    }

    func patchSettings(_ request: Request, _ context: AdminContext) async throws -> Response {
        let patch = try AdminBody.decode(AsleepSettings.self, from: request)
        if let problem = patch.validationProblem() { throw AdminError.badRequest(problem, code: "invalid_settings") }
        let patchDocument = try JSONValue.parse(request.body)
        let project = context.projectID
        let configuration = self.configuration
        let settings = try await context.database.write { connection in
            let store = AsleepStore(connection: connection)
            let stored = SettingsDocument.merge(try store.settingsDocument(project: project) ?? [:], patchDocument)
            try store.saveSettingsDocument(project: project, stored)
            return try AsleepSettings.resolve(configuration: configuration, stored: stored)
        }
        return .json(settings.effective)
    }

    // MARK: Keys, apps, tokens

    func listKeys(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID
        let keys = try await context.database.read { try AsleepStore(connection: $0).apiKeys(project: project) }
        return .json(JSONValue.object(["keys": .array(keys.map(Self.render))]))
    }

    func addKey(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(KeyBody.self, from: request)
        let state = try Self.credentialState(body.state)
        let project = context.projectID
        let generated = context.services.generateIDs(for: project) { $0.alphanumeric(40) }
        let key = body.apiKey ?? generated
        guard !key.isEmpty else { throw AdminError.badRequest("`apiKey` must not be empty.") }
        let now = context.now
        let record = try await context.database.write { connection -> APIKeyRecord? in
            let store = AsleepStore(connection: connection)
            guard try store.apiKey(key) == nil else { throw AdminError(status: 409, code: "conflict", message: "API key already exists.") }
            try store.insertAPIKey(
                key, project: project, customer: body.customer ?? "key:" + key, state: state ?? .active,
                productBilling: body.productBilling ?? true, now: now)
            return try store.apiKey(key)
        }
        guard let record else { throw AdminError.notFound("API key") } // just written in the same transaction
        return .json(status: 201, bytes: Self.render(record).encoded())
    }

    func changeKey(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(KeyBody.self, from: request)
        let state = try Self.credentialState(body.state)
        if body.apiKey != nil { throw AdminError.badRequest("`apiKey` cannot be changed.") }
        let project = context.projectID, key = context.parameter("key")
        let record = try await context.database.write { connection -> APIKeyRecord in
            let store = AsleepStore(connection: connection)
            guard var record = try store.apiKey(key, project: project) else { throw AdminError.notFound("API key") }
            record.customer = body.customer ?? record.customer
            record.state = state ?? record.state
            record.productBilling = body.productBilling ?? record.productBilling
            try store.updateAPIKey(record)
            return record
        }
        return .json(status: 200, bytes: Self.render(record).encoded())
    }

    func deleteKey(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID, key = context.parameter("key")
        let deleted = try await context.database.write { try AsleepStore(connection: $0).deleteAPIKey(key, project: project) }
        guard deleted else { throw AdminError.notFound("API key") }
        return .empty(204)
    }

    func listApps(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID
        let apps = try await context.database.read { try AsleepStore(connection: $0).apps(project: project) }
        return .json(JSONValue.object(["apps": .array(apps.map(Self.render))]))
    }

    func addApp(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(AppBody.self, from: request)
        let state = try Self.credentialState(body.state)
        let project = context.projectID
        let drawn = context.services.generateIDs(for: project) { ("app_" + $0.lowerAlphanumeric(16), "sec_" + $0.alphanumeric(32)) }
        let app = body.appId ?? drawn.0, secret = body.appSecret ?? drawn.1
        let now = context.now
        let record = try await context.database.write { connection -> AppRecord? in
            let store = AsleepStore(connection: connection)
            guard try store.app(app) == nil else { throw AdminError(status: 409, code: "conflict", message: "App id already exists.") }
            try store.insertApp(
                app, project: project, secret: secret, customer: body.customer ?? "app:" + app, state: state ?? .active,
                productBilling: body.productBilling ?? true, now: now)
            return try store.app(app)
        }
        guard let record else { throw AdminError.notFound("App") } // just written in the same transaction
        return .json(status: 201, bytes: Self.render(record).encoded())
    }

    func expireTokens(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(ExpireBody.self, from: request, orIfEmpty: ExpireBody())
        let kindName = body.kind ?? "all"
        guard ["access", "refresh", "all"].contains(kindName) else { throw AdminError.badRequest("`kind` must be access, refresh or all.") }
        let project = context.projectID, now = context.now
        let count = try await context.database.write { try AsleepStore(connection: $0).expireTokens(project: project, kind: TokenKind(rawValue: kindName), now: now) }
        return .json(JSONValue.object(["expired": .int(Int64(count))]))
    }

    // MARK: Users

    func listUsers(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID
        let users = try await context.database.read { try AsleepStore(connection: $0).users(project: project) }
        return .json(JSONValue.object(["users": .array(users.map(Self.render))]))
    }

    func addUser(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(UserBody.self, from: request)
        let project = context.projectID
        let year = WireTime.year(context.now)
        let user = try await context.database.write { connection -> JSONValue in
            try self.seedUser(body, project: project, service: self.service(connection, context), year: year)
        }
        return .json(status: 201, bytes: user.encoded())
    }

    func deleteUser(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID, user = context.parameter("user")
        try await context.database.write { connection in
            let store = AsleepStore(connection: connection)
            guard try store.user(project: project, customer: nil, id: user) != nil else { throw AdminError.notFound("User") }
            try store.deleteUser(project: project, id: user)
        }
        return .empty(204)
    }

    // MARK: Products

    func listProducts(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID
        let products = try await context.database.read { try AsleepStore(connection: $0).products(project: project) }
        return .json(JSONValue.object(["products": .array(products.map(Self.render))]))
    }

    func addProduct(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(ProductBody.self, from: request)
        guard (1...100).contains(body.model.unicodeScalars.count) else { throw AdminError.badRequest("`model` must be 1–100 characters.") }
        guard (1...255).contains(body.identifierValue.unicodeScalars.count) else { throw AdminError.badRequest("`identifierValue` must be 1–255 characters.") }
        guard let type = AsleepService.identifierType(body.identifierType ?? "SERIAL") else {
            throw AdminError.badRequest("`identifierType` must be SERIAL or MAC_ADDRESS.")
        }
        let project = context.projectID
        let drawn = context.services.generateIDs(for: project) { ("P-" + $0.uuid(), "pk_" + $0.alphanumeric(40)) }
        let now = context.now
        let record = try await context.database.write { connection -> ProductRecord? in
            let store = AsleepStore(connection: connection)
            let customer: String
            if let given = body.customer { customer = given } else { customer = try Self.customer(store, project: project, apiKey: body.apiKey).customer }
            let key = body.productKey ?? drawn.1
            guard try !store.productKeyExists(key),
                try store.product(project: project, customer: customer, model: body.model, identifierType: type, identifierValue: body.identifierValue) == nil
            else {
                throw AdminError(status: 409, code: "conflict", message: "That product or product key already exists.")
            }
            try store.insertProduct(
                id: drawn.0, project: project, customer: customer, productKey: key, model: body.model, identifierType: type,
                identifierValue: body.identifierValue, now: now)
            return try store.product(id: drawn.0)
        }
        guard let record else { throw AdminError.notFound("Product") } // just written in the same transaction
        return .json(status: 201, bytes: Self.render(record).encoded())
    }

    func revokeProduct(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID, product = context.parameter("product")
        let record = try await context.database.write { connection -> ProductRecord? in
            let store = AsleepStore(connection: connection)
            guard try store.revokeProduct(id: product, project: project) else { throw AdminError.notFound("Product") }
            return try store.product(id: product)
        }
        guard let record else { throw AdminError.notFound("Product") }
        return .json(status: 200, bytes: Self.render(record).encoded())
    }
}
