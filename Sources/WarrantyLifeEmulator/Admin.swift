import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// Control-plane routes under `/__admin/projects/{id}/warrantylife`: seed keys, users, vouchers,
/// items, warranties, insights and content; inspect what the SDK uploaded; trigger silent pushes.
enum WarrantyLifeAdmin {
    struct KeyBody: Codable { var key: String?; var name: String?; var environment: String?; var state: String?; var unavailableMode: String? }
    struct UserBody: Codable {
        var email: String; var password: String?; var activated: Bool?; var token: String?
        var firstName: String?; var lastName: String?; var company: String?; var streetAddress: String?; var city: String?; var zip: String?
        var country: Int?; var countryCode: String?; var state: Int?; var stateCode: String?; var phone: String?
    }
    struct UserPatch: Codable { var activated: Bool?; var password: String?; var revokeToken: Bool? }
    struct ItemBody: Codable {
        var id: String?; var deviceId: String; var userId: String?; var ownerEmail: String?; var categoryId: String?; var manufacturerName: String?
        var model: String?; var mpn: String?; var imei: String?; var notificationToken: String?; var ssr: Bool?; var ssd: Bool?; var tradeIn: Bool?
    }
    struct WarrantyBody: Codable {
        var id: String?; var itemId: String?; var deviceId: String?; var userId: String?; var voucherCode: String?; var status: String?
        var coverageStartDate: String?; var coverageEndDate: String?; var dateOfPurchase: String?
        var warrantyPlanId: String?; var planName: String?; var planCurrency: String?; var rewardAmount: Double?; var rewardAmountMax: Double?
        var rewardType: String?; var tradeInScore: Double?; var ssrOffered: Bool?; var ssdOffered: Bool?; var tipOffered: Bool?
        var firstName: String?; var lastName: String?; var country: Int?; var state: Int?
    }
    struct PushBody: Codable { var payload: JSONValue? }
    struct GenerateBody: Codable { var timeZone: String? }

    typealias KeyCreated = @Sendable (String, ProjectID) -> Void

    static func routes(keyCreated: @escaping KeyCreated) -> [Route] {
        voucherActionRoutes() + [
            Route(.get, "/developer-keys") { _, ctx in
                let p = ctx.projectID ?? ""
                return list(try await ctx.database.read { c in try WarrantyLifeStore.keys(c, project: p).map(\.json) }, "developerKeys")
            },
            Route(.post, "/developer-keys") { request, ctx in
                let body = try JSONBody.decode(KeyBody.self, from: request, rejectUnknownKeys: true)
                let p = ctx.projectID ?? ""
                let record = DeveloperKeyRecord(key: body.key ?? ctx.services.generateIDs(for: p) { $0.hex(32) }, projectID: p, name: body.name ?? "Understudy",
                                                environment: body.environment ?? "sandbox", state: try keyState(body.state ?? "valid"),
                                                unavailableMode: try mode(body.unavailableMode ?? "status"), createdAt: Timestamp.format(ctx.now))
                do {
                    try await ctx.database.write { c in try WarrantyLifeStore.insertKey(c, record) }
                } catch let error as SQLiteError where error.isConstraintViolation {
                    throw AdminError(status: 409, code: "conflict", message: "Developer key already exists.")
                }
                keyCreated(record.key, p)
                return .json(status: 201, bytes: record.json.encoded())
            },
            Route(.patch, "/developer-keys/{key}") { request, ctx in
                let body = try JSONBody.decode(KeyBody.self, from: request, rejectUnknownKeys: true)
                let p = ctx.projectID ?? "", key = ctx.parameter("key")
                let state = try body.state.map(keyState), unavailable = try body.unavailableMode.map(mode)
                let record = try await ctx.database.write { c -> DeveloperKeyRecord in
                    guard var record = try WarrantyLifeStore.key(c, key), record.projectID == p else { throw AdminError.notFound("Developer key") }
                    if let name = body.name { record.name = name }
                    if let environment = body.environment { record.environment = environment }
                    if let state { record.state = state }
                    if let unavailable { record.unavailableMode = unavailable }
                    try WarrantyLifeStore.updateKey(c, record)
                    return record
                }
                return .json(status: 200, bytes: record.json.encoded())
            },
            Route(.get, "/users") { _, ctx in
                let p = ctx.projectID ?? ""
                return list(try await ctx.database.read { c in try WarrantyLifeStore.users(c, p).map(userJSON) }, "users")
            },
            Route(.post, "/users") { request, ctx in
                let body = try JSONBody.decode(UserBody.self, from: request, rejectUnknownKeys: true)
                let p = ctx.projectID ?? "", now = ctx.now
                let user = try await ctx.database.write { c in try createUser(c, p, body, services: ctx.services, now: now) }
                return .json(status: 201, bytes: userJSON(user).encoded())
            },
            Route(.patch, "/users/{userId}") { request, ctx in
                let body = try JSONBody.decode(UserPatch.self, from: request, rejectUnknownKeys: true)
                let p = ctx.projectID ?? "", id = ctx.parameter("userId")
                let token = ctx.services.generateIDs(for: p) { $0.hex(40) }
                let user = try await ctx.database.write { c -> UserRecord in
                    guard var user = try WarrantyLifeStore.user(c, p, id: id) else { throw AdminError.notFound("User") }
                    if let activated = body.activated { user.activated = activated }
                    if let password = body.password { user.password = password }
                    if body.revokeToken == true { user.token = token }
                    try WarrantyLifeStore.updateUser(c, p, user)
                    return user
                }
                return .json(status: 200, bytes: userJSON(user).encoded())
            },
            Route(.get, "/vouchers") { _, ctx in
                let p = ctx.projectID ?? ""
                return list(try await ctx.database.read { c in try WarrantyLifeStore.vouchers(c, p).map(\.adminJSON) }, "vouchers")
            },
            Route(.post, "/vouchers") { request, ctx in
                let body = try JSONBody.decode(VoucherSeed.self, from: request, rejectUnknownKeys: true)
                let p = ctx.projectID ?? "", now = ctx.now
                let voucher = try await ctx.database.write { c in try createVoucher(c, p, body, services: ctx.services, now: now) }
                return .json(status: 201, bytes: voucher.adminJSON.encoded())
            },
            Route(.get, "/vouchers/{code}") { _, ctx in
                let p = ctx.projectID ?? "", code = ctx.parameter("code")
                guard let voucher = try await ctx.database.read({ c in try WarrantyLifeStore.voucher(c, p, code: code) }) else { throw AdminError.notFound("Voucher") }
                return .json(status: 200, bytes: voucher.adminJSON.encoded())
            },
            Route(.get, "/items") { _, ctx in
                let p = ctx.projectID ?? ""
                return list(try await ctx.database.read { c in try WarrantyLifeStore.items(c, p).map(\.adminJSON) }, "items")
            },
            Route(.post, "/items") { request, ctx in
                let body = try JSONBody.decode(ItemBody.self, from: request, rejectUnknownKeys: true)
                let p = ctx.projectID ?? "", now = ctx.now
                let item = try await ctx.database.write { c in try createItem(c, p, body, services: ctx.services, now: now) }
                return .json(status: 201, bytes: item.adminJSON.encoded())
            },
            Route(.delete, "/items/{itemId}") { _, ctx in
                let p = ctx.projectID ?? "", id = ctx.parameter("itemId")
                guard try await ctx.database.write({ c in try WarrantyLifeStore.deleteItem(c, p, id: id) }) else { throw AdminError.notFound("Item") }
                return Response(status: 204)
            },
            Route(.get, "/warranties") { _, ctx in
                let p = ctx.projectID ?? "", now = ctx.now
                return list(try await ctx.database.read { c in try WarrantyLifeStore.warranties(c, p).map { w in
                    var json = w.wire(now: now, item: try w.itemID.flatMap { try WarrantyLifeStore.item(c, p, id: $0) }).objectValue ?? [:]
                    json["userId"] = w.userID.map(JSONValue.string) ?? .null
                    return JSONValue.object(json)
                } }, "warranties")
            },
            Route(.post, "/warranties") { request, ctx in
                let body = try JSONBody.decode(WarrantyBody.self, from: request, rejectUnknownKeys: true)
                let p = ctx.projectID ?? "", now = ctx.now
                let json = try await ctx.database.write { c in try createWarranty(c, p, body, services: ctx.services, now: now) }
                return .json(status: 201, bytes: json.encoded())
            },
            Route(.patch, "/warranties/{warrantyId}") { request, ctx in
                let body = try JSONBody.decode(WarrantyBody.self, from: request, rejectUnknownKeys: true)
                let p = ctx.projectID ?? "", now = ctx.now, id = ctx.parameter("warrantyId")
                let json = try await ctx.database.write { c -> JSONValue in
                    guard var warranty = try WarrantyLifeStore.warranty(c, p, id: id) else { throw AdminError.notFound("Warranty") }
                    try merge(body, into: &warranty)
                    try WarrantyLifeStore.saveWarranty(c, p, warranty)
                    return warranty.wire(now: now, item: try warranty.itemID.flatMap { try WarrantyLifeStore.item(c, p, id: $0) })
                }
                return .json(status: 200, bytes: json.encoded())
            },
            Route(.put, "/items/{itemId}/insights") { request, ctx in
                let p = ctx.projectID ?? "", id = ctx.parameter("itemId")
                guard let value = try? JSONValue.parse(request.body) else { throw AdminError.badRequest("The body must be an InsightData object or null.", code: "invalid_json") }
                if value != .null {
                    let problems = WarrantyLifeRules.insightProblems(value)
                    if !problems.isEmpty { throw AdminError(status: 400, code: "invalid_insight", message: problems.joined(separator: "; ")) }
                }
                try await ctx.database.write { c in
                    guard try WarrantyLifeStore.item(c, p, id: id) != nil else { throw AdminError.notFound("Item") }
                    try WarrantyLifeStore.setInsight(c, p, itemID: id, value)
                }
                return .json(status: 200, bytes: JSONValue.object(["itemId": .string(id), "insight": value]).encoded())
            },
            Route(.post, "/items/{itemId}/insights/generate") { request, ctx in
                let body = request.body.isEmpty ? GenerateBody() : try JSONBody.decode(GenerateBody.self, from: request, rejectUnknownKeys: true)
                let zone = body.timeZone ?? "UTC"
                guard let timeZone = TimeZone(identifier: zone) else { throw AdminError.badRequest("Unknown time zone `\(zone)`.") }
                let p = ctx.projectID ?? "", id = ctx.parameter("itemId")
                let insight = InsightGenerator.generate(now: ctx.now, timeZone: timeZone, seed: UInt64(truncatingIfNeeded: id.hashValue))
                try await ctx.database.write { c in
                    guard try WarrantyLifeStore.item(c, p, id: id) != nil else { throw AdminError.notFound("Item") }
                    try WarrantyLifeStore.setInsight(c, p, itemID: id, insight)
                }
                return .json(status: 201, bytes: JSONValue.object(["itemId": .string(id), "insight": insight]).encoded())
            },
            Route(.get, "/content/{name}") { _, ctx in
                let p = ctx.projectID ?? "", name = ctx.parameter("name")
                guard DefaultContent.names.contains(name) else { throw AdminError.notFound("Content `\(name)`") }
                let value = try await ctx.database.read { c in try WarrantyLifeStore.content(c, p, name) }
                return .json(status: 200, bytes: JSONValue.object(["name": .string(name), "value": value]).encoded())
            },
            Route(.put, "/content/{name}") { request, ctx in
                let p = ctx.projectID ?? "", name = ctx.parameter("name")
                guard DefaultContent.names.contains(name) else { throw AdminError.notFound("Content `\(name)`") }
                guard let value = try? JSONValue.parse(request.body) else { throw AdminError.badRequest("The body must be JSON.", code: "invalid_json") }
                try checkContent(name, value)
                try await ctx.database.write { c in try WarrantyLifeStore.setContent(c, p, name, value) }
                return .json(status: 200, bytes: JSONValue.object(["name": .string(name), "value": value]).encoded())
            },
            inspect("/sensor-events", "sensorEvents", "SELECT id, item_id, event_at, sensor_event_type, body, duplicate_of, created_at FROM wl_sensor_events", order: "created_at, rowid"),
            inspect("/readings", "readings", "SELECT id, item_id, sensor_event_id, count, gzipped, readings, created_at FROM wl_readings"),
            inspect("/audio-clips", "audioClips", "SELECT id, item_id, sensor_event_id, recorded_at, content_type, bytes, sha256, created_at FROM wl_audio_clips"),
            inspect("/diagnostics", "diagnostics", "SELECT id, item_id, body, request_hash, same_hash_as, created_at FROM wl_diagnostics", order: "created_at, rowid"),
            inspect("/images", "images", "SELECT id, item_id, diagnostic_id, kind, filename, content_type, bytes, sha256, duplicate, created_at FROM wl_images"),
            inspect("/fcm-tokens", "fcmTokens", "SELECT id, item_id, token, source, created_at FROM wl_fcm_tokens"),
            inspect("/opt-ins", "optIns", "SELECT id, item_id, program, opted_in, sensor_event_id, created_at FROM wl_opt_ins"),
            inspect("/submissions", "submissions", "SELECT id, kind, user_id, body, created_at FROM wl_submissions", order: "created_at, rowid", byItem: false),
            Route(.get, "/voucher-lookups") { _, ctx in
                let p = ctx.projectID ?? ""
                return list(try await ctx.database.read { c in try WarrantyLifeStore.lookups(c, p) }, "voucherLookups")
            },
            Route(.post, "/items/{itemId}/silent-push") { request, ctx in
                let body = request.body.isEmpty ? PushBody() : try JSONBody.decode(PushBody.self, from: request, rejectUnknownKeys: true)
                let p = ctx.projectID ?? "", id = ctx.parameter("itemId"), now = ctx.now
                let payload = body.payload ?? ["aps": ["content-available": 1]]
                let messageID = try await ctx.database.write { c -> Int in
                    guard let item = try WarrantyLifeStore.item(c, p, id: id) else { throw AdminError.notFound("Item") }
                    guard let token = item.notificationToken else { throw AdminError(status: 409, code: "no_token", message: "The item has no FCM token yet.") }
                    return try Outbox.add(c, project: p, platform: .warrantylife, kind: "push", recipient: token, subject: "silentPush", payload: payload, now: now)
                }
                return .json(status: 201, bytes: JSONValue.object(["messageId": .int(Int64(messageID)), "payload": payload]).encoded())
            },
        ]
    }

    static func list(_ values: [JSONValue], _ name: String) -> Response {
        .json(status: 200, bytes: JSONValue.object([name: .array(values)]).encoded())
    }

    static func keyState(_ state: String) throws -> String {
        guard ["valid", "revoked", "unavailable"].contains(state) else { throw AdminError.badRequest("`state` must be valid, revoked or unavailable.") }
        return state
    }

    static func mode(_ mode: String) throws -> String {
        guard ["status", "hang"].contains(mode) else { throw AdminError.badRequest("`unavailableMode` must be status or hang.") }
        return mode
    }

    static func userJSON(_ user: UserRecord) -> JSONValue {
        var members = user.whoami.objectValue ?? [:]
        members["token"] = .string(user.token)
        members["activated"] = .bool(user.activated)
        members["authorization"] = .string("Basic " + Data("\(user.identity):\(user.token)".utf8).base64EncodedString())
        members["createdAt"] = .string(user.createdAt)
        return .object(members)
    }

    /// Rows of one inspection table, optionally filtered by `itemId`; JSON columns decoded.
    static func inspect(_ path: String, _ name: String, _ select: String, order: String = "id", byItem: Bool = true) -> Route {
        Route(.get, path) { request, ctx in
            let p = ctx.projectID ?? "", itemID = request.queryValue("itemId")
            let rows = try await ctx.database.read { c in
                byItem ? try c.query("\(select) WHERE project_id = ? AND (? IS NULL OR item_id = ?) ORDER BY \(order)", p, itemID, itemID)
                    : try c.query("\(select) WHERE project_id = ? ORDER BY \(order)", p)
            }
            return list(rows.map { row in
                var members: [String: JSONValue] = [:]
                for (index, column) in row.columns.enumerated() {
                    let key = camel(column)
                    switch row.values[index] {
                    case .null: members[key] = .null
                    case .integer(let value): members[key] = ["gzipped", "duplicate", "opted_in"].contains(column) ? .bool(value != 0) : .int(value)
                    case .real(let value): members[key] = .double(value)
                    case .text(let text): members[key] = ["body", "readings"].contains(column) ? WarrantyLifeStore.json(text) : .string(text)
                    case .blob(let data): members[key] = .int(Int64(data.count))
                    }
                }
                if let id = members["id"]?.intValue, row.columns.first == "id", !["sensorEvents", "diagnostics", "submissions"].contains(name) { members["id"] = .string(String(id)) }
                return .object(members)
            }, name)
        }
    }

    static func camel(_ column: String) -> String {
        let parts = column.split(separator: "_")
        return parts.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }.joined()
    }

    static func checkContent(_ name: String, _ value: JSONValue) throws {
        switch name {
        case "appConfig":
            guard let countries = value["countries"]?.arrayValue, countries.allSatisfy({ $0["id"]?.intValue != nil && $0["code"]?.stringValue != nil && $0["provinces"]?.arrayValue != nil }) else {
                throw AdminError.badRequest("`appConfig` must be {countries: [{id, code, name, provinces: [{id, code, name}]}]}.")
            }
        case "offersRegistrationHTML", "offersRewardScreenHTML":
            guard value.stringValue != nil else { throw AdminError.badRequest("`\(name)` must be a JSON string holding the HTML.") }
        case "offers", "sensorTests":
            guard value.arrayValue != nil else { throw AdminError.badRequest("`\(name)` must be an array.") }
        default:
            guard value.objectValue != nil else { throw AdminError.badRequest("`\(name)` must be an object.") }
        }
    }

    // MARK: Seeding (shared by the control plane and fixtures)

    static func newID(_ services: EmulatorServices?, _ p: ProjectID) -> String {
        services?.generateIDs(for: p) { String($0.int(in: 100_000...99_999_999)) } ?? String(Int.random(in: 100_000...99_999_999))
    }

    static func createUser(_ c: SQLiteConnection, _ p: ProjectID, _ body: UserBody, services: EmulatorServices?, now: Date) throws -> UserRecord {
        guard body.email.contains("@") else { throw AdminError.badRequest("`email` must be an e-mail address.") }
        if try WarrantyLifeStore.user(c, p, email: body.email) != nil { throw AdminError(status: 409, code: "conflict", message: "A user with this e-mail exists.") }
        var profile: [String: JSONValue] = [:]
        let encoded = (try? JSONValue.from(body).objectValue) ?? [:]
        for name in UserRecord.profileFields { if let value = encoded[name], value != .null { profile[name] = value } }
        let token = body.token ?? services?.generateIDs(for: p) { $0.hex(40) } ?? UUID().uuidString
        let user = UserRecord(id: newID(services, p), email: body.email, password: body.password, token: token, activated: body.activated ?? true,
                              profile: profile, createdAt: Timestamp.format(now, fractionalSeconds: false))
        try WarrantyLifeStore.insertUser(c, p, user)
        return user
    }

    static func createVoucher(_ c: SQLiteConnection, _ p: ProjectID, _ seed: VoucherSeed, services: EmulatorServices?, now: Date) throws -> VoucherRecord {
        let code = WarrantyLifeRules.normalizedVoucherCode(seed.code)
        guard !code.isEmpty else { throw AdminError.badRequest("`code` must not be empty.") }
        let status = seed.status ?? (seed.claimedByUserId != nil || seed.claimedByEmail != nil ? "claimed" : "unredeemed")
        guard ["unredeemed", "claimed", "redeemed"].contains(status) else { throw AdminError.badRequest("`status` must be unredeemed, claimed or redeemed.") }
        if let expires = seed.expiresAt, WarrantyLifeRules.parseDate(expires) == nil { throw AdminError.badRequest("`expiresAt` must be ISO 8601.") }
        var claimer = seed.claimedByUserId
        if let email = seed.claimedByEmail {
            guard let user = try WarrantyLifeStore.user(c, p, email: email) else { throw AdminError.badRequest("No user with e-mail `\(email)`.") }
            claimer = user.id
        }
        if let claimer, try WarrantyLifeStore.user(c, p, id: claimer) == nil { throw AdminError.badRequest("No user with id `\(claimer)`.") }
        if seed.registrationType == .lockedEmailRegistration, seed.lockedEmail == nil { throw AdminError.badRequest("`lockedEmailRegistration` needs `lockedEmail`.") }
        let text = Timestamp.format(now, fractionalSeconds: false)
        let existing = try WarrantyLifeStore.voucher(c, p, code: code)
        let voucher = VoucherRecord(code: code, status: status, claimedByUserID: claimer, originalDeviceID: seed.originalDeviceId ?? seed.originalDevice?.deviceId,
                                    warrantyID: seed.warrantyId ?? existing?.warrantyID ?? newID(services, p), seed: seed,
                                    createdAt: existing?.createdAt ?? text, updatedAt: text)
        try WarrantyLifeStore.saveVoucher(c, p, voucher)
        return voucher
    }

    static func createItem(_ c: SQLiteConnection, _ p: ProjectID, _ body: ItemBody, services: EmulatorServices?, now: Date) throws -> ItemRecord {
        var owner: UserRecord?
        if let id = body.userId { owner = try WarrantyLifeStore.user(c, p, id: id) }
        else if let email = body.ownerEmail {
            owner = try WarrantyLifeStore.user(c, p, email: email)
            if owner == nil {
                // "Owned by another account" needs only an e-mail: create that account on the fly.
                owner = try createUser(c, p, UserBody(email: email, password: nil), services: services, now: now)
            }
        }
        guard let owner else { throw AdminError.badRequest("`userId` or `ownerEmail` must name the owner.") }
        if try WarrantyLifeStore.item(c, p, deviceID: body.deviceId) != nil { throw AdminError(status: 409, code: "conflict", message: "The device already has an item.") }
        let text = Timestamp.format(now, fractionalSeconds: false)
        let item = ItemRecord(id: body.id ?? newID(services, p), deviceID: body.deviceId, userID: owner.id, categoryID: body.categoryId ?? "95",
                              manufacturerName: body.manufacturerName ?? "Apple", model: body.model, mpn: body.mpn, imei: body.imei,
                              notificationToken: body.notificationToken, ssr: body.ssr ?? false, ssd: body.ssd ?? false, tradeIn: body.tradeIn ?? false,
                              createdAt: text, updatedAt: text)
        try WarrantyLifeStore.saveItem(c, p, item)
        return item
    }

    static func merge(_ body: WarrantyBody, into warranty: inout WarrantyRecord) throws {
        if let status = body.status {
            guard WarrantyRecord.statuses.contains(status) else { throw AdminError.badRequest("`status` must be one of \(WarrantyRecord.statuses.joined(separator: ", ")).") }
            warranty.document["status"] = .string(status)
        }
        for (key, value) in [("coverageStartDate", body.coverageStartDate), ("coverageEndDate", body.coverageEndDate), ("dateOfPurchase", body.dateOfPurchase)] {
            guard let value else { continue }
            guard WarrantyLifeRules.parseDate(value) != nil else { throw AdminError.badRequest("`\(key)` must be a date.") }
            warranty.document[key] = .string(value)
        }
        let encoded = (try? JSONValue.from(body).objectValue) ?? [:]
        for key in ["warrantyPlanId", "planName", "planCurrency", "rewardAmount", "rewardAmountMax", "rewardType", "tradeInScore", "ssrOffered",
                    "ssdOffered", "tipOffered", "firstName", "lastName", "country", "state"] {
            if let value = encoded[key], value != .null { warranty.document[key] = value }
        }
    }

    static func createWarranty(_ c: SQLiteConnection, _ p: ProjectID, _ body: WarrantyBody, services: EmulatorServices?, now: Date) throws -> JSONValue {
        var item: ItemRecord?
        if let id = body.itemId { item = try WarrantyLifeStore.item(c, p, id: id) } else if let device = body.deviceId { item = try WarrantyLifeStore.item(c, p, deviceID: device) }
        guard let item else { throw AdminError.badRequest("`itemId` or `deviceId` must name an existing item.") }
        let voucher = try body.voucherCode.flatMap { try WarrantyLifeStore.voucher(c, p, code: $0) }
        let text = Timestamp.format(now, fractionalSeconds: false)
        let plan = voucher?.plan, offers = voucher?.smartSaver
        var warranty = WarrantyRecord(id: body.id ?? voucher?.warrantyID ?? newID(services, p), itemID: item.id, userID: body.userId ?? item.userID,
                                      voucherCode: voucher?.code ?? body.voucherCode, document: [
            "status": "ACTIVE", "registrationCode": .string(voucher?.code ?? body.voucherCode ?? ""),
            "warrantyPlanId": plan?["warrantyPlanId"] ?? "77", "planName": plan?["planName"] ?? "Device Protection Plan",
            "planCurrency": plan?["currency"] ?? "USD", "rewardAmount": plan?["rewardAmount"] ?? 0, "rewardAmountMax": plan?["rewardAmountMax"] ?? 50,
            "rewardType": plan?["rewardType"] ?? "DEDUCTIBLE_REDUCTION",
            "ssrOffered": offers?["ssrOffered"] ?? true, "ssdOffered": offers?["ssdOffered"] ?? true, "tipOffered": offers?["tipOffered"] ?? false,
            "coverageStartDate": .string(text),
            "coverageEndDate": .string(Timestamp.format(WarrantyLifeRules.adding(months: voucher?.seed.coverageMonths ?? 12, to: now), fractionalSeconds: false)),
            "createdAt": .string(text), "updatedAt": .string(text),
        ])
        try merge(body, into: &warranty)
        try WarrantyLifeStore.saveWarranty(c, p, warranty)
        if var voucher {
            voucher.status = voucher.status == "redeemed" ? "redeemed" : "claimed"
            voucher.claimedByUserID = warranty.userID
            voucher.originalDeviceID = item.deviceID
            try WarrantyLifeStore.saveVoucher(c, p, voucher)
        }
        var json = warranty.wire(now: now, item: item).objectValue ?? [:]
        json["userId"] = warranty.userID.map(JSONValue.string) ?? .null
        return .object(json)
    }

    /// Demo fixtures: each list holds control-plane bodies.
    static func loadFixtures(_ fixtures: JSONValue, project p: ProjectID, connection c: SQLiteConnection, now: Date) throws {
        for user in fixtures["users"]?.arrayValue ?? [] { _ = try createUser(c, p, try user.decode(UserBody.self), services: nil, now: now) }
        for voucher in fixtures["vouchers"]?.arrayValue ?? [] { _ = try createVoucher(c, p, try voucher.decode(VoucherSeed.self), services: nil, now: now) }
        for item in fixtures["items"]?.arrayValue ?? [] { _ = try createItem(c, p, try item.decode(ItemBody.self), services: nil, now: now) }
        for warranty in fixtures["warranties"]?.arrayValue ?? [] { _ = try createWarranty(c, p, try warranty.decode(WarrantyBody.self), services: nil, now: now) }
        for (itemID, insight) in fixtures["insights"]?.objectValue ?? [:] {
            if insight == "generate" {
                try WarrantyLifeStore.setInsight(c, p, itemID: itemID, InsightGenerator.generate(now: now, timeZone: TimeZone(identifier: "America/Toronto")!, seed: 7))
            } else {
                try WarrantyLifeStore.setInsight(c, p, itemID: itemID, insight)
            }
        }
        for (name, value) in fixtures["content"]?.objectValue ?? [:] where DefaultContent.names.contains(name) {
            try WarrantyLifeStore.setContent(c, p, name, value)
        }
    }
}
