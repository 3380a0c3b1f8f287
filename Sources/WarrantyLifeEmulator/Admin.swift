import EmulatorCore
import Foundation
import HTTPServer
import Storage

/// Control-plane routes under `/__admin/projects/{id}/warrantylife`: seed keys, users, vouchers,
/// items, warranties, insights and content; inspect what the SDK uploaded; trigger silent pushes.
enum WarrantyLifeAdmin {
    /// Every control-plane route.
    static func routes() -> [AdminRoute] {
        [
            AdminRoute(.get, "/developer-keys", listKeys),
            AdminRoute(.post, "/developer-keys", createKey),
            AdminRoute(.patch, "/developer-keys/{key}", updateKey),
            AdminRoute(.get, "/users") { _, context in
                list(try await read(context) { store in try store.users(context.projectID).map(\.adminJSON) }, "users")
            },
            AdminRoute(.post, "/users") { request, context in
                let body = try AdminBody.decode(UserBody.self, from: request)
                let user = try await write(context) { store in try createUser(store, context.projectID, body, services: context.services, now: context.now) }
                return .json(status: 201, bytes: user.adminJSON.encoded())
            },
            AdminRoute(.patch, "/users/{userId}", updateUser),
            AdminRoute(.get, "/vouchers") { _, context in
                list(try await read(context) { store in try store.vouchers(context.projectID).map(\.adminJSON) }, "vouchers")
            },
            AdminRoute(.post, "/vouchers") { request, context in
                let body = try AdminBody.decode(VoucherSeed.self, from: request)
                let voucher = try await write(context) { store in try createVoucher(store, context.projectID, body, services: context.services, now: context.now) }
                return .json(status: 201, bytes: voucher.adminJSON.encoded())
            },
            AdminRoute(.get, "/voucher-actions", previewVoucherActions),
            AdminRoute(.get, "/vouchers/{code}") { _, context in
                let code = context.parameter("code")
                guard let voucher = try await read(context, { store in try store.voucher(context.projectID, code: code) }) else { throw AdminError.notFound("Voucher") }
                return .json(status: 200, bytes: voucher.adminJSON.encoded())
            },
            AdminRoute(.get, "/items") { _, context in
                list(try await read(context) { store in try store.items(context.projectID).map(\.adminJSON) }, "items")
            },
            AdminRoute(.post, "/items") { request, context in
                let body = try AdminBody.decode(ItemBody.self, from: request)
                let item = try await write(context) { store in try createItem(store, context.projectID, body, services: context.services, now: context.now) }
                return .json(status: 201, bytes: item.adminJSON.encoded())
            },
            AdminRoute(.delete, "/items/{itemId}") { _, context in
                let id = context.parameter("itemId")
                guard try await write(context, { store in try store.deleteItem(context.projectID, id: id) }) else { throw AdminError.notFound("Item") }
                return Response(status: 204)
            },
            AdminRoute(.get, "/warranties", listWarranties),
            AdminRoute(.post, "/warranties") { request, context in
                let body = try AdminBody.decode(WarrantyBody.self, from: request)
                let json = try await write(context) { store in try createWarranty(store, context.projectID, body, services: context.services, now: context.now) }
                return .json(status: 201, bytes: json.encoded())
            },
            AdminRoute(.patch, "/warranties/{warrantyId}", updateWarranty),
            AdminRoute(.put, "/items/{itemId}/insights", putInsight),
            AdminRoute(.post, "/items/{itemId}/insights/generate", generateInsight),
            AdminRoute(.get, "/content/{name}") { _, context in
                let name = context.parameter("name")
                guard DefaultContent.names.contains(name) else { throw AdminError.notFound("Content `\(name)`") }
                let value = try await read(context) { store in try store.content(context.projectID, name) }
                return .json(status: 200, bytes: JSONValue.object(["name": .string(name), "value": value]).encoded())
            },
            AdminRoute(.put, "/content/{name}", putContent),
        ] + InspectionTable.allCases.map(inspect) + [
            AdminRoute(.get, "/voucher-lookups") { _, context in
                list(try await read(context) { store in try store.lookups(context.projectID).map(\.adminJSON) }, "voucherLookups")
            },
            AdminRoute(.post, "/items/{itemId}/silent-push", silentPush),
        ]
    }

    // MARK: Plumbing

    /// Runs `body` on the project's store in a read transaction.
    static func read<T: Sendable>(_ context: AdminContext, _ body: @escaping @Sendable (WarrantyLifeStore) throws -> T) async throws -> T {
        try await context.database.read { connection in try body(WarrantyLifeStore(connection: connection)) }
    }

    /// Runs `body` on the project's store in a write transaction.
    static func write<T: Sendable>(_ context: AdminContext, _ body: @escaping @Sendable (WarrantyLifeStore) throws -> T) async throws -> T {
        try await context.database.write { connection in try body(WarrantyLifeStore(connection: connection)) }
    }

    /// `{name: [values]}`.
    static func list(_ values: [JSONValue], _ name: String) -> Response {
        .json(status: 200, bytes: JSONValue.object([name: .array(values)]).encoded())
    }

    /// A body's JSON, or the control plane's 400 with `message`.
    static func json(of request: Request, orFail message: String) throws -> JSONValue {
        // The parser lets invalid UTF-8 through as replacement characters; the control plane refuses it like any bad JSON.
        guard String(validating: request.body, as: UTF8.self) != nil else { throw AdminError.badRequest(message, code: "invalid_json") }
        do { return try JSONValue.parse(request.body) } catch { throw AdminError.badRequest(message, code: "invalid_json") }
    }

    // MARK: Developer keys and users

    static func listKeys(_ request: Request, _ context: AdminContext) async throws -> Response {
        list(try await read(context) { store in try store.keys(context.projectID).map(\.json) }, "developerKeys")
    }

    static func createKey(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(KeyBody.self, from: request)
        let project = context.projectID
        let record = DeveloperKeyRecord(
            key: body.key ?? context.services.generateIDs(for: project) { $0.hex(32) }, projectID: project,
            name: body.name ?? "Understudy", environment: body.environment ?? "sandbox",
            state: try keyState(body.state ?? "valid"), unavailableMode: try mode(body.unavailableMode ?? "status"),
            createdAt: Timestamp.format(context.now))
        try await write(context) { store in
            // Checked first, to name the clash; any other constraint is answered by ErrorAnswers.
            if try store.key(record.key) != nil { throw AdminError(status: 409, code: "conflict", message: "Developer key already exists.") }
            try store.insertKey(record)
        }
        return .json(status: 201, bytes: record.json.encoded())
    }

    static func updateKey(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(KeyBody.self, from: request)
        let project = context.projectID, key = context.parameter("key")
        let state = try body.state.map(keyState), unavailable = try body.unavailableMode.map(mode)
        let record = try await write(context) { store -> DeveloperKeyRecord in
            guard var record = try store.key(key), record.projectID == project else { throw AdminError.notFound("Developer key") }
            if let name = body.name { record.name = name }
            if let environment = body.environment { record.environment = environment }
            if let state { record.state = state }
            if let unavailable { record.unavailableMode = unavailable }
            try store.updateKey(record)
            return record
        }
        return .json(status: 200, bytes: record.json.encoded())
    }

    static func keyState(_ state: String) throws -> DeveloperKeyState {
        guard let value = DeveloperKeyState(rawValue: state) else { throw AdminError.badRequest("`state` must be \(DeveloperKeyState.allowedList).") }
        return value
    }

    static func mode(_ mode: String) throws -> UnavailableMode {
        guard let value = UnavailableMode(rawValue: mode) else { throw AdminError.badRequest("`unavailableMode` must be \(UnavailableMode.allowedList).") }
        return value
    }

    static func updateUser(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(UserPatch.self, from: request)
        let project = context.projectID, id = context.parameter("userId")
        let token = context.services.generateIDs(for: project) { $0.hex(40) }
        let user = try await write(context) { store -> UserRecord in
            guard var user = try store.user(project, id: id) else { throw AdminError.notFound("User") }
            if let activated = body.activated { user.activated = activated }
            if let password = body.password { user.password = password }
            if body.revokeToken == true { user.token = token }
            try store.updateUser(project, user)
            return user
        }
        return .json(status: 200, bytes: user.adminJSON.encoded())
    }

    // MARK: Warranties

    static func listWarranties(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID, now = context.now
        return list(
            try await read(context) { store in
                try store.warranties(project).map { warranty in
                    var json = warranty.wire(now: now, item: try warranty.itemID.flatMap { try store.item(project, id: $0) }).objectValue ?? [:]
                    json["userId"] = warranty.userID.map(JSONValue.string) ?? .null
                    return JSONValue.object(json)
                }
            }, "warranties")
    }

    static func updateWarranty(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(WarrantyBody.self, from: request)
        let project = context.projectID, now = context.now, id = context.parameter("warrantyId")
        let json = try await write(context) { store -> JSONValue in
            guard var warranty = try store.warranty(project, id: id) else { throw AdminError.notFound("Warranty") }
            try merge(body, into: &warranty)
            try store.saveWarranty(project, warranty)
            return warranty.wire(now: now, item: try warranty.itemID.flatMap { try store.item(project, id: $0) })
        }
        return .json(status: 200, bytes: json.encoded())
    }

    // MARK: Insights and content

    static func putInsight(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID, id = context.parameter("itemId")
        let value = try json(of: request, orFail: "The body must be an InsightData object or null.")
        if value != .null {
            let problems = InsightModel.problems(value)
            if !problems.isEmpty { throw AdminError(status: 400, code: "invalid_insight", message: problems.joined(separator: "; ")) }
        }
        try await write(context) { store in
            guard try store.item(project, id: id) != nil else { throw AdminError.notFound("Item") }
            try store.setInsight(project, itemID: id, value)
        }
        return .json(status: 200, bytes: JSONValue.object(["itemId": .string(id), "insight": value]).encoded())
    }

    /// IANA zone names insights may be generated in (the document lists the same): the tz
    /// database's names (`TimeZoneNames`), not the abbreviations `TimeZone(identifier:)` would also take.
    static var timeZones: [String] { TimeZoneNames.resolvable }

    static func generateInsight(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(GenerateBody.self, from: request, orIfEmpty: GenerateBody())
        let zone = body.timeZone ?? "UTC"
        guard let timeZone = TimeZoneNames.zone(zone) else { throw AdminError.badRequest("Unknown time zone `\(zone)`.") }
        let project = context.projectID, id = context.parameter("itemId")
        let insight = InsightGenerator.generate(now: context.now, timeZone: timeZone, seed: InsightGenerator.seed(forItem: id))
        try await write(context) { store in
            guard try store.item(project, id: id) != nil else { throw AdminError.notFound("Item") }
            try store.setInsight(project, itemID: id, insight)
        }
        return .json(status: 201, bytes: JSONValue.object(["itemId": .string(id), "insight": insight]).encoded())
    }

    static func putContent(_ request: Request, _ context: AdminContext) async throws -> Response {
        let project = context.projectID, name = context.parameter("name")
        guard DefaultContent.names.contains(name) else { throw AdminError.notFound("Content `\(name)`") }
        let value = try json(of: request, orFail: "The body must be JSON.")
        try checkContent(name, value)
        try await write(context) { store in try store.setContent(project, name, value) }
        return .json(status: 200, bytes: JSONValue.object(["name": .string(name), "value": value]).encoded())
    }

    /// The document's own schemas, for checking replacement content.
    static let contentValidator = OpenAPIValidator(document: WarrantyLifeOpenAPI.document())

    /// Replacement content must be what its SDK route will serve: each value is checked against
    /// that route's documented response, so a seeded catalogue never answers off the document.
    static func checkContent(_ name: String, _ value: JSONValue) throws {
        var served: [(route: String, data: JSONValue)] = []
        switch name {
        case "offersRegistrationHTML", "offersRewardScreenHTML":
            guard value.stringValue != nil else { throw AdminError.badRequest("`\(name)` must be a JSON string holding the HTML.") }
        case "appConfig": served = [("/app-config", value)]
        case "offers": served = [("/offers", value)]
        case "sensorTests": served = [("/sensor-tests", value)]
        case "surveys":
            guard let versions = value.objectValue else { throw AdminError.badRequest("`surveys` must be an object of surveys by version.") }
            served = versions.values.map { ("/surveys", $0) }
        case "diagnosticConfig":
            guard let models = value.objectValue else { throw AdminError.badRequest("`diagnosticConfig` must be an object of requirements by model.") }
            served = models.map { ("/diagnostic-config", ["model": .string($0.key), "diagnosticRequirements": $0.value]) }
        default:
            guard value.objectValue != nil else { throw AdminError.badRequest("`\(name)` must be an object.") }
        }
        for (route, data) in served {
            let problems = contentValidator.problems(
                method: "GET", path: WarrantyLifeOpenAPI.sdkBase + route, status: 200,
                body: JSONValue.object(["data": data]).encoded())
            if let first = problems.first {
                throw AdminError.badRequest(
                    "`\(name)` does not fit what GET \(route) serves: " + first.replacingOccurrences(of: "GET \(WarrantyLifeOpenAPI.sdkBase + route) 200: ", with: ""))
            }
        }
    }

    // MARK: Inspection and pushes

    /// Rows of one inspection table, optionally filtered by `itemId`.
    static func inspect(_ table: InspectionTable) -> AdminRoute {
        AdminRoute(.get, table.path) { request, context in
            let itemID = table.hasItems ? request.queryValue("itemId") : nil
            let rows = try await read(context) { store in try store.inspect(table, context.projectID, itemID: itemID) }
            return list(rows.map { .object($0.members) }, table.rawValue)
        }
    }

    static func silentPush(_ request: Request, _ context: AdminContext) async throws -> Response {
        let body = try AdminBody.decode(PushBody.self, from: request, orIfEmpty: PushBody())
        let project = context.projectID, id = context.parameter("itemId"), now = context.now
        let payload = body.payload ?? ["aps": ["content-available": 1]]
        let messageID = try await write(context) { store -> Int in
            guard let item = try store.item(project, id: id) else { throw AdminError.notFound("Item") }
            guard let token = item.notificationToken else { throw AdminError(status: 409, code: "no_token", message: "The item has no FCM token yet.") }
            return try store.addToOutbox(project, kind: "push", recipient: token, subject: "silentPush", payload: payload, now: now)
        }
        return .json(status: 201, bytes: JSONValue.object(["messageId": .int(Int64(messageID)), "payload": payload]).encoded())
    }
}
