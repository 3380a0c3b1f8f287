import EmulatorCore
import Foundation

// Seeding, shared by the control plane and fixtures: each takes the control-plane body.
extension WarrantyLifeAdmin {
    /// `POST`/`PATCH /developer-keys` body.
    struct KeyBody: Codable { var key: String?; var name: String?; var environment: String?; var state: String?; var unavailableMode: String? }
    /// `POST /users` body (and fixtures' `users`).
    struct UserBody: Codable {
        var email: String; var password: String?; var activated: Bool?; var token: String?
        var firstName: String?; var lastName: String?; var company: String?; var streetAddress: String?; var city: String?; var zip: String?
        var country: Int?; var countryCode: String?; var state: Int?; var stateCode: String?; var phone: String?
    }
    /// `PATCH /users/{userId}` body.
    struct UserPatch: Codable { var activated: Bool?; var password: String?; var revokeToken: Bool? }
    /// `POST /items` body (and fixtures' `items`).
    struct ItemBody: Codable {
        var id: String?; var deviceId: String; var userId: String?; var ownerEmail: String?; var categoryId: String?; var manufacturerName: String?
        var model: String?; var mpn: String?; var imei: String?; var notificationToken: String?; var ssr: Bool?; var ssd: Bool?; var tradeIn: Bool?
    }
    /// `POST`/`PATCH /warranties` body (and fixtures' `warranties`).
    struct WarrantyBody: Codable {
        var id: String?; var itemId: String?; var deviceId: String?; var userId: String?; var voucherCode: String?; var status: String?
        var coverageStartDate: String?; var coverageEndDate: String?; var dateOfPurchase: String?
        var warrantyPlanId: String?; var planName: String?; var planCurrency: String?; var rewardAmount: Double?; var rewardAmountMax: Double?
        var rewardType: String?; var tradeInScore: Double?; var ssrOffered: Bool?; var ssdOffered: Bool?; var tipOffered: Bool?
        var firstName: String?; var lastName: String?; var country: Int?; var state: Int?
    }
    /// `POST /items/{itemId}/silent-push` body.
    struct PushBody: Codable { var payload: JSONValue? }
    /// `POST /items/{itemId}/insights/generate` body.
    struct GenerateBody: Codable { var timeZone: String? }

    // MARK: Seeding (shared by the control plane and fixtures)

    static func newID(_ services: EmulatorServices?, _ project: ProjectID) -> String {
        services?.generateIDs(for: project) { String($0.int(in: 100_000...99_999_999)) } ?? String(Int.random(in: 100_000...99_999_999))
    }

    static func createUser(_ store: WarrantyLifeStore, _ project: ProjectID, _ body: UserBody, services: EmulatorServices?, now: Date) throws -> UserRecord {
        guard body.email.contains("@") else { throw AdminError.badRequest("`email` must be an e-mail address.") }
        if try store.user(project, email: body.email) != nil { throw AdminError(status: 409, code: "conflict", message: "A user with this e-mail exists.") }
        var profile: [String: JSONValue] = [:]
        // The body is plain Codable values, so encoding it back cannot fail.
        let encoded = (try? JSONValue.from(body).objectValue) ?? [:]
        for name in UserRecord.profileFields { if let value = encoded[name], value != .null { profile[name] = value } }
        let token = body.token ?? services?.generateIDs(for: project) { $0.hex(40) } ?? UUID().uuidString
        let user = UserRecord(
            id: newID(services, project), email: body.email, password: body.password, token: token, activated: body.activated ?? true,
            profile: profile, createdAt: Timestamp.format(now, fractionalSeconds: false))
        try store.insertUser(project, user)
        return user
    }

    static func createVoucher(_ store: WarrantyLifeStore, _ project: ProjectID, _ seed: VoucherSeed, services: EmulatorServices?, now: Date) throws -> VoucherRecord {
        let code = WarrantyLifeService.normalizedVoucherCode(seed.code)
        guard !code.isEmpty else { throw AdminError.badRequest("`code` must not be empty.") }
        let statusText = seed.status ?? (seed.claimedByUserId != nil || seed.claimedByEmail != nil ? "claimed" : "unredeemed")
        guard let status = VoucherStatus(rawValue: statusText) else { throw AdminError.badRequest("`status` must be \(VoucherStatus.allowedList).") }
        if let expires = seed.expiresAt, WarrantyLifeService.parseDate(expires) == nil { throw AdminError.badRequest("`expiresAt` must be ISO 8601.") }
        var claimer = seed.claimedByUserId
        if let email = seed.claimedByEmail {
            guard let user = try store.user(project, email: email) else { throw AdminError.notFound("User with e-mail `\(email)`") }
            claimer = user.id
        }
        if let claimer, try store.user(project, id: claimer) == nil { throw AdminError.notFound("User `\(claimer)`") }
        if seed.registrationType == .lockedEmailRegistration, seed.lockedEmail == nil { throw AdminError.badRequest("`lockedEmailRegistration` needs `lockedEmail`.") }
        if let test = seed.sensorTest, test != .null, test.stringValue != "standard", test.objectValue == nil {
            throw AdminError.badRequest("`sensorTest` must be \"standard\", a Sensor Test object, or null for none.")
        }
        let text = Timestamp.format(now, fractionalSeconds: false)
        let existing = try store.voucher(project, code: code)
        let voucher = VoucherRecord(
            code: code, status: status, claimedByUserID: claimer, originalDeviceID: seed.originalDeviceId ?? seed.originalDevice?.deviceId,
            warrantyID: seed.warrantyId ?? existing?.warrantyID ?? newID(services, project), seed: seed,
            createdAt: existing?.createdAt ?? text, updatedAt: text)
        try store.saveVoucher(project, voucher)
        return voucher
    }

    static func createItem(_ store: WarrantyLifeStore, _ project: ProjectID, _ body: ItemBody, services: EmulatorServices?, now: Date) throws -> ItemRecord {
        var owner: UserRecord?
        if let id = body.userId {
            // A named owner that does not exist is a missing record, not a malformed body.
            guard let user = try store.user(project, id: id) else { throw AdminError.notFound("User `\(id)`") }
            owner = user
        } else if let email = body.ownerEmail {
            owner = try store.user(project, email: email)
            if owner == nil {
                // "Owned by another account" needs only an e-mail: create that account on the fly.
                owner = try createUser(store, project, UserBody(email: email, password: nil), services: services, now: now)
            }
        }
        guard let owner else { throw AdminError.badRequest("`userId` or `ownerEmail` must name the owner.") }
        if try store.item(project, deviceID: body.deviceId) != nil { throw AdminError(status: 409, code: "conflict", message: "The device already has an item.") }
        let text = Timestamp.format(now, fractionalSeconds: false)
        let item = ItemRecord(
            id: body.id ?? newID(services, project), deviceID: body.deviceId, userID: owner.id, categoryID: body.categoryId ?? "95",
            manufacturerName: body.manufacturerName ?? "Apple", model: body.model, mpn: body.mpn, imei: body.imei,
            notificationToken: body.notificationToken, ssr: body.ssr ?? false, ssd: body.ssd ?? false, tradeIn: body.tradeIn ?? false,
            createdAt: text, updatedAt: text)
        try store.saveItem(project, item)
        return item
    }

    static func merge(_ body: WarrantyBody, into warranty: inout WarrantyRecord) throws {
        if let status = body.status {
            guard WarrantyRecord.statuses.contains(status) else { throw AdminError.badRequest("`status` must be one of \(WarrantyRecord.statuses.joined(separator: ", ")).") }
            warranty.document["status"] = .string(status)
        }
        for (key, value) in [("coverageStartDate", body.coverageStartDate), ("coverageEndDate", body.coverageEndDate), ("dateOfPurchase", body.dateOfPurchase)] {
            guard let value else { continue }
            guard WarrantyLifeService.parseDate(value) != nil else { throw AdminError.badRequest("`\(key)` must be a date.") }
            warranty.document[key] = .string(value)
        }
        // The body is plain Codable values, so encoding it back cannot fail.
        let encoded = (try? JSONValue.from(body).objectValue) ?? [:]
        for key in [
            "warrantyPlanId", "planName", "planCurrency", "rewardAmount", "rewardAmountMax", "rewardType", "tradeInScore", "ssrOffered",
            "ssdOffered", "tipOffered", "firstName", "lastName", "country", "state",
        ] {
            if let value = encoded[key], value != .null { warranty.document[key] = value }
        }
    }

    static func createWarranty(_ store: WarrantyLifeStore, _ project: ProjectID, _ body: WarrantyBody, services: EmulatorServices?, now: Date) throws -> JSONValue {
        var item: ItemRecord?
        if let id = body.itemId { item = try store.item(project, id: id) } else if let device = body.deviceId { item = try store.item(project, deviceID: device) }
        guard body.itemId != nil || body.deviceId != nil else { throw AdminError.badRequest("`itemId` or `deviceId` must name the item.") }
        guard let item else { throw AdminError.notFound("Item") }
        let voucher = try body.voucherCode.flatMap { try store.voucher(project, code: $0) }
        let text = Timestamp.format(now, fractionalSeconds: false)
        let plan = voucher?.plan, offers = voucher?.smartSaver
        var warranty = WarrantyRecord(
            id: body.id ?? voucher?.warrantyID ?? newID(services, project), itemID: item.id, userID: body.userId ?? item.userID,
            voucherCode: voucher?.code ?? body.voucherCode,
            document: [
                "status": "ACTIVE", "registrationCode": .string(voucher?.code ?? body.voucherCode ?? ""),
                "warrantyPlanId": plan?["warrantyPlanId"] ?? "77", "planName": plan?["planName"] ?? "Device Protection Plan",
                "planCurrency": plan?["currency"] ?? "USD", "rewardAmount": plan?["rewardAmount"] ?? 0, "rewardAmountMax": plan?["rewardAmountMax"] ?? 50,
                "rewardType": plan?["rewardType"] ?? "DEDUCTIBLE_REDUCTION",
                "ssrOffered": offers?["ssrOffered"] ?? true, "ssdOffered": offers?["ssdOffered"] ?? true, "tipOffered": offers?["tipOffered"] ?? false,
                "coverageStartDate": .string(text),
                "coverageEndDate": .string(Timestamp.format(WarrantyLifeService.adding(months: voucher?.seed.coverageMonths ?? 12, to: now), fractionalSeconds: false)),
                "createdAt": .string(text), "updatedAt": .string(text),
            ])
        try merge(body, into: &warranty)
        try store.saveWarranty(project, warranty)
        if var voucher {
            voucher.status = voucher.status == .redeemed ? .redeemed : .claimed
            voucher.claimedByUserID = warranty.userID
            voucher.originalDeviceID = item.deviceID
            try store.saveVoucher(project, voucher)
        }
        var json = warranty.wire(now: now, item: item).objectValue ?? [:]
        json["userId"] = warranty.userID.map(JSONValue.string) ?? .null
        return .object(json)
    }

    /// Demo fixtures: each list holds control-plane bodies.
    static func loadFixtures(_ fixtures: JSONValue, project: ProjectID, store: WarrantyLifeStore, now: Date) throws {
        for user in fixtures["users"]?.arrayValue ?? [] { _ = try createUser(store, project, try user.decode(UserBody.self), services: nil, now: now) }
        for voucher in fixtures["vouchers"]?.arrayValue ?? [] { _ = try createVoucher(store, project, try voucher.decode(VoucherSeed.self), services: nil, now: now) }
        for item in fixtures["items"]?.arrayValue ?? [] { _ = try createItem(store, project, try item.decode(ItemBody.self), services: nil, now: now) }
        for warranty in fixtures["warranties"]?.arrayValue ?? [] { _ = try createWarranty(store, project, try warranty.decode(WarrantyBody.self), services: nil, now: now) }
        for (itemID, insight) in fixtures["insights"]?.objectValue ?? [:] {
            if insight == "generate" {
                // America/Toronto is a zone in every tz database.
                let zone = TimeZone(identifier: "America/Toronto")!
                try store.setInsight(project, itemID: itemID, InsightGenerator.generate(now: now, timeZone: zone, seed: 7))
            } else {
                try store.setInsight(project, itemID: itemID, insight)
            }
        }
        for (name, value) in fixtures["content"]?.objectValue ?? [:] where DefaultContent.names.contains(name) {
            try store.setContent(project, name, value)
        }
    }
}
