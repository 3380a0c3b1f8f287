import EmulatorCore
import Foundation

/// The `WLWarrantyRequest` fields of a warranty create, update or patch, type-checked by the route.
struct WarrantyInput: Sendable {
    /// Free-text holder fields that were sent (`firstName`, …, `phone`).
    var text: [(name: String, value: String)] = []
    var country: Int?
    var state: Int?
    var dateOfPurchase: String?
    /// `acceptedMarketing` and `isDeviceInsured`, when sent.
    var flags: [(name: String, value: Bool)] = []
    var rewardAmount: Double?
    var voucherCode: String?
    var itemID: String?
    var deviceID: String?
    var imei: String?
    /// Smart Saver choices made at registration.
    var smartSaver: [(program: SmartSaverProgram, optedIn: Bool)] = []
}

// Warranties (§5.7, D-WL-20).
extension WarrantyLifeService {
    /// The caller's warranties, each with its item.
    func warranties(of user: UserRecord) throws -> [(warranty: WarrantyRecord, item: ItemRecord?)] {
        try store.warranties(project, userID: user.id).map { warranty in (warranty, try warranty.itemID.flatMap { try store.item(project, id: $0) }) }
    }

    /// One of the caller's warranties, or 404.
    func warranty(id: String, user: UserRecord) throws -> (warranty: WarrantyRecord, item: ItemRecord?) {
        guard let warranty = try store.warranty(project, id: id), warranty.userID == user.id else { throw WarrantyLifeError.warrantyNotFound }
        return (warranty, try warranty.itemID.flatMap { try store.item(project, id: $0) })
    }

    /// Registers the voucher (the one sent, else the one last looked up) on the caller's item: 201;
    /// the voucher becomes claimed by the caller and bound to the device.
    func createWarranty(_ input: WarrantyInput, user: UserRecord) throws -> (warranty: WarrantyRecord, item: ItemRecord) {
        let lookup = try store.latestLookup(project, userID: user.id, deviceID: input.deviceID)
        guard let code = input.voucherCode ?? lookup?.code else {
            throw WarrantyLifeError.validation("Field `voucherCode` is required (no voucher was looked up).")
        }
        guard var voucher = try store.voucher(project, code: code) else { throw WarrantyLifeError.voucherNotFound }
        if voucher.status == .redeemed { throw WarrantyLifeError.voucherRedeemed }
        var item = try callerItem(input, user: user, lookupDevice: lookup?.deviceID)
        // A cancelled warranty frees its voucher; any other one binds it.
        if let existing = try store.warranty(project, id: voucher.warrantyID), existing.status != "CANCELLED" {
            throw WarrantyLifeError.warrantyConflict
        }
        if let claimer = voucher.claimedByUserID, claimer != user.id { throw WarrantyLifeError.warrantyConflict }
        let plan = voucher.plan, offers = voucher.smartSaver
        var document: [String: JSONValue] = [
            "registrationCode": .string(voucher.code), "warrantyUrl": .string("https://www.warrantylife.com/w/\(Self.encodedID(voucher.warrantyID))"),
            "status": "ACTIVE", "warrantyPlanId": plan["warrantyPlanId"] ?? .null, "planName": plan["planName"] ?? .null,
            "planCurrency": plan["currency"] ?? .null, "rewardAmount": plan["rewardAmount"] ?? .null, "rewardAmountMax": plan["rewardAmountMax"] ?? .null,
            "rewardType": plan["rewardType"] ?? .null, "tradeInScore": .null,
            "ssrOffered": offers["ssrOffered"] ?? false, "ssdOffered": offers["ssdOffered"] ?? false, "tipOffered": offers["tipOffered"] ?? false,
            "coverageStartDate": .string(nowText),
            "coverageEndDate": .string(Timestamp.format(Self.adding(months: voucher.seed.coverageMonths ?? 12, to: now), fractionalSeconds: false)),
            "waitingPeriodEndsAt": .null, "isDeviceInsured": false, "acceptedMarketing": false, "createdAt": .string(nowText), "updatedAt": .string(nowText),
        ]
        try apply(input, to: &document)
        if voucher.seed.purchaseDateRequired == true, document["dateOfPurchase"] == nil {
            throw WarrantyLifeError.dateOfPurchaseRequired
        }
        var changed = false
        for (program, flag) in input.smartSaver {
            changed = true
            item.setOptedIn(program, flag)
            try store.recordOptIn(project, itemID: item.id, program: program, optedIn: flag, sensorEventID: nil, now: nowText)
        }
        if let imei = input.imei { item.imei = imei; changed = true }
        if changed { item.updatedAt = nowText; try store.saveItem(project, item) }
        let warranty = WarrantyRecord(id: voucher.warrantyID, itemID: item.id, userID: user.id, voucherCode: voucher.code, document: document)
        try store.saveWarranty(project, warranty)
        voucher.status = .claimed
        voucher.claimedByUserID = user.id
        voucher.originalDeviceID = item.deviceID
        voucher.updatedAt = nowText
        try store.saveVoucher(project, voucher)
        return (warranty, item)
    }

    /// `PUT`: merges the fields; a caller on another device who looked the voucher up takes the
    /// warranty over (transfer), rebinding the voucher.
    func updateWarranty(id: String, _ input: WarrantyInput, user: UserRecord) throws -> (warranty: WarrantyRecord, item: ItemRecord) {
        guard var warranty = try store.warranty(project, id: id) else { throw WarrantyLifeError.warrantyNotFound }
        let lookup = try store.latestLookup(project, userID: user.id, deviceID: input.deviceID)
        let lookedUp = lookup.map { Self.normalizedVoucherCode($0.code) } == warranty.voucherCode.map(Self.normalizedVoucherCode)
        guard warranty.userID == user.id || lookedUp else { throw WarrantyLifeError.warrantyNotFound }
        let item = try callerItem(input, user: user, lookupDevice: lookup?.deviceID)
        try apply(input, to: &warranty.document)
        if warranty.itemID != item.id || warranty.userID != user.id {
            warranty.itemID = item.id
            warranty.userID = user.id
            if let code = warranty.voucherCode, var voucher = try store.voucher(project, code: code) {
                voucher.claimedByUserID = user.id
                voucher.originalDeviceID = item.deviceID
                voucher.status = .claimed
                voucher.updatedAt = nowText
                try store.saveVoucher(project, voucher)
            }
        }
        warranty.document["updatedAt"] = .string(nowText)
        try store.saveWarranty(project, warranty)
        return (warranty, item)
    }

    /// `PATCH` (`updateWarrantyById`): merges the fields of one of the caller's warranties.
    func patchWarranty(id: String, _ input: WarrantyInput, user: UserRecord) throws -> (warranty: WarrantyRecord, item: ItemRecord?) {
        guard var warranty = try store.warranty(project, id: id), warranty.userID == user.id else { throw WarrantyLifeError.warrantyNotFound }
        try apply(input, to: &warranty.document)
        warranty.document["updatedAt"] = .string(nowText)
        try store.saveWarranty(project, warranty)
        return (warranty, try warranty.itemID.flatMap { try store.item(project, id: $0) })
    }

    /// The caller's item for this request: `itemId`, else `deviceId`, else the last looked-up device, else the newest item.
    private func callerItem(_ input: WarrantyInput, user: UserRecord, lookupDevice: String?) throws -> ItemRecord {
        if let itemID = input.itemID { return try ownedItem(id: itemID, user: user) }
        for deviceID in [input.deviceID, lookupDevice].compactMap({ $0 }) {
            if let item = try store.item(project, deviceID: deviceID) {
                try checkOwner(item: item, user: user)
                return item
            }
        }
        guard let item = try store.newestItem(project, userID: user.id) else { throw WarrantyLifeError.itemNotFound }
        return item
    }

    /// Writes the sent fields into `document`: the region sent must fit `appConfig`, `rewardAmount`
    /// must lie within 0…`rewardAmountMax`.
    private func apply(_ input: WarrantyInput, to document: inout [String: JSONValue]) throws {
        for (name, value) in input.text { document[name] = .string(value) }
        // The pair sent is checked (a state alone against every country), as the document states it.
        if let problem = try regionProblem(country: input.country, state: input.state) {
            throw WarrantyLifeError.validation(problem)
        }
        if let country = input.country { document["country"] = .int(Int64(country)) }
        if let state = input.state { document["state"] = .int(Int64(state)) }
        if let date = input.dateOfPurchase { document["dateOfPurchase"] = .string(date) }
        for (name, value) in input.flags { document[name] = .bool(value) }
        if let reward = input.rewardAmount {
            let max = document["rewardAmountMax"]?.doubleValue ?? .infinity
            guard reward >= 0, reward <= max else { throw WarrantyLifeError.rewardOutOfRange(max: max) }
            document["rewardAmount"] = .double(reward)
        }
    }
}
