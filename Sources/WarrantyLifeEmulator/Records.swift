import EmulatorCore
import Foundation

/// A developer key as stored.
struct DeveloperKeyRecord: Sendable, Equatable {
    var key: String
    var projectID: ProjectID
    var name: String
    var environment: String
    var state: String
    var unavailableMode: String
    var createdAt: String

    var json: JSONValue {
        ["key": .string(key), "name": .string(name), "environment": .string(environment), "state": .string(state),
         "unavailableMode": .string(unavailableMode), "createdAt": .string(createdAt)]
    }
}

/// An account as stored; `identity` is the e-mail (what the SDK puts before the `:` in Basic auth).
struct UserRecord: Sendable, Equatable {
    var id: String
    var email: String
    var password: String?
    var token: String
    var activated: Bool
    var profile: [String: JSONValue]
    var createdAt: String

    var identity: String { email }

    /// `/whoami`: the `WLRegisterNewUserModel` field names plus ids.
    var whoami: JSONValue {
        var members: [String: JSONValue] = ["userId": .string(id), "identity": .string(identity), "email": .string(email)]
        for name in UserRecord.profileFields { members[name] = profile[name] ?? .null }
        return .object(members)
    }

    /// `LoginResponse`.
    var login: JSONValue {
        ["token": .string(token), "identity": .string(identity), "userId": .string(id), "email": .string(email)]
    }

    static let profileFields = ["firstName", "lastName", "company", "streetAddress", "city", "zip", "country", "countryCode", "state", "stateCode", "phone"]
}

/// A voucher's seeded attributes, camelCase as on WarrantyLife's wire (control-plane body and storage).
struct VoucherSeed: Codable, Sendable, Equatable {
    /// Plan details shown in the voucher and copied into warranties.
    struct Plan: Codable, Sendable, Equatable {
        var warrantyPlanId: String?
        var planName: String?
        var currency: String?
        var rewardAmount: Double?
        var rewardAmountMax: Double?
        var rewardType: String?
    }
    /// The device a voucher was first registered on.
    struct OriginalDevice: Codable, Sendable, Equatable {
        var deviceId: String
        var model: String?
        var mpn: String?
    }

    var code: String
    var status: String?
    var expiresAt: String?
    var registrationType: RegistrationType?
    var lockedEmail: String?
    var transferable: Bool?
    var originalDeviceId: String?
    var originalDevice: OriginalDevice?
    var claimedByUserId: String?
    var claimedByEmail: String?
    var forceAction: VoucherAction?
    var receiptRequired: Bool?
    var purchaseDateRequired: Bool?
    var registrationDeadlineDays: Int?
    var imeiLocked: String?
    var warrantyId: String?
    var askIfDeviceIsInsured: Bool?
    var skipRegistrationForm: Bool?
    var isDeviceTransferInProgress: Bool?
    var coverageMonths: Int?
    var plan: Plan?
    var ssrOffered: Bool?
    var ssdOffered: Bool?
    var tipOffered: Bool?
    var bluetoothScan: Bool?
    var wifiScan: Bool?
    var recordAudio: Bool?
    var diagnosticRequirements: JSONValue?
}

/// A voucher as stored: seed plus the state that changes (status, claimer, bound device).
struct VoucherRecord: Sendable, Equatable {
    var code: String
    var status: String
    var claimedByUserID: String?
    var originalDeviceID: String?
    var warrantyID: String
    var seed: VoucherSeed
    var createdAt: String
    var updatedAt: String

    var transferable: Bool { seed.transferable ?? false }

    /// `diagnosticRequirements`: defaults, overridden by the seed's object and its scan/audio flags.
    var diagnosticRequirements: JSONValue {
        var members = DefaultContent.diagnosticRequirements.objectValue ?? [:]
        for (key, value) in seed.diagnosticRequirements?.objectValue ?? [:] { members[key] = value }
        if let flag = seed.bluetoothScan { members["bluetoothScan"] = .bool(flag) }
        if let flag = seed.wifiScan { members["wifiScan"] = .bool(flag) }
        if let flag = seed.recordAudio { members["recordAudio"] = .bool(flag) }
        return .object(members)
    }

    var plan: JSONValue {
        let plan = seed.plan
        return ["warrantyPlanId": .string(plan?.warrantyPlanId ?? "77"), "planName": .string(plan?.planName ?? "Device Protection Plan"),
                "currency": .string(plan?.currency ?? "USD"), "rewardAmount": .double(plan?.rewardAmount ?? 0),
                "rewardAmountMax": .double(plan?.rewardAmountMax ?? 50), "rewardType": .string(plan?.rewardType ?? "DEDUCTIBLE_REDUCTION")]
    }

    var smartSaver: JSONValue {
        ["ssrOffered": .bool(seed.ssrOffered ?? true), "ssdOffered": .bool(seed.ssdOffered ?? true), "tipOffered": .bool(seed.tipOffered ?? false)]
    }

    /// The `Voucher` payload of `GET /vouchers/{code}` (D-WL-15).
    func wire(action: VoucherAction, countOnDevice: Int) -> JSONValue {
        let registrationType = seed.registrationType ?? .normalRegistration
        var original: JSONValue = .null
        if let device = seed.originalDevice {
            original = ["deviceId": .string(device.deviceId), "model": device.model.map(JSONValue.string) ?? .null, "mpn": device.mpn.map(JSONValue.string) ?? .null]
        } else if let id = originalDeviceID {
            original = ["deviceId": .string(id), "model": .null, "mpn": .null]
        }
        return [
            "voucherCode": .string(code), "action": .string(action.rawValue), "registrationType": .string(registrationType.rawValue),
            "isError": .bool(action.isError), "lockedEmail": seed.lockedEmail.map(JSONValue.string) ?? .null,
            "warrantyId": .string(warrantyID), "encodedWarrantyId": .string(WarrantyLifeRules.encodedID(warrantyID)),
            "isVoucherCorrect": true, "isVoucherConfirmed": true,
            "isTransferable": .bool(transferable), "isDeviceTransferable": .bool(action == .deviceTransferablePopup || action == .startWarrantyTransfer),
            "isDeviceTransferInProgress": .bool(seed.isDeviceTransferInProgress ?? false),
            "askIfDeviceIsInsured": .bool(seed.askIfDeviceIsInsured ?? false), "skipRegistrationForm": .bool(seed.skipRegistrationForm ?? false),
            "registrationDeadlineDays": seed.registrationDeadlineDays.map { .int(Int64($0)) } ?? .null,
            "imeiLocked": seed.imeiLocked.map(JSONValue.string) ?? .null,
            "receiptRequired": .bool(seed.receiptRequired ?? false), "purchaseDateRequired": .bool(seed.purchaseDateRequired ?? false),
            "countWarrantyOnCurrentDevice": .int(Int64(countOnDevice)), "originalDevice": original,
            "plan": plan, "smartSaver": smartSaver, "diagnosticRequirements": diagnosticRequirements,
        ]
    }

    /// Control-plane view.
    var adminJSON: JSONValue {
        var members = (try? JSONValue.from(seed).objectValue) ?? [:]
        members["code"] = .string(code)
        members["status"] = .string(status)
        members["claimedByUserId"] = claimedByUserID.map(JSONValue.string) ?? .null
        members["originalDeviceId"] = originalDeviceID.map(JSONValue.string) ?? .null
        members["warrantyId"] = .string(warrantyID)
        members["createdAt"] = .string(createdAt)
        members["updatedAt"] = .string(updatedAt)
        return .object(members)
    }
}

/// A device's item as stored.
struct ItemRecord: Sendable, Equatable {
    var id: String
    var deviceID: String
    var userID: String
    var categoryID: String?
    var manufacturerName: String?
    var model: String?
    var mpn: String?
    var imei: String?
    var notificationToken: String?
    var ssr: Bool
    var ssd: Bool
    var tradeIn: Bool
    var createdAt: String
    var updatedAt: String

    /// `Item` (D-WL-16 decision for the authenticated lookup).
    func wire(hasActiveCoverage: Bool, warrantyIDs: [String]) -> JSONValue {
        ["id": .string(id), "deviceId": .string(deviceID), "categoryId": categoryID.map(JSONValue.string) ?? .null,
         "manufacturerName": manufacturerName.map(JSONValue.string) ?? .null, "model": model.map(JSONValue.string) ?? .null,
         "mpn": mpn.map(JSONValue.string) ?? .null, "imei": imei.map(JSONValue.string) ?? .null, "createdAt": .string(createdAt),
         "hasActiveCoverage": .bool(hasActiveCoverage), "warrantyIds": .array(warrantyIDs.map(JSONValue.string))]
    }

    /// Control-plane view.
    var adminJSON: JSONValue {
        var members = wire(hasActiveCoverage: false, warrantyIDs: []).objectValue ?? [:]
        members.removeValue(forKey: "hasActiveCoverage"); members.removeValue(forKey: "warrantyIds")
        members["userId"] = .string(userID)
        members["notificationToken"] = notificationToken.map(JSONValue.string) ?? .null
        members["ssr"] = .bool(ssr); members["ssd"] = .bool(ssd); members["tradeIn"] = .bool(tradeIn)
        members["updatedAt"] = .string(updatedAt)
        return .object(members)
    }
}

/// A warranty as stored: the D-WL-20 document without the computed fields.
struct WarrantyRecord: Sendable, Equatable {
    var id: String
    var itemID: String?
    var userID: String?
    var voucherCode: String?
    var document: [String: JSONValue]

    var status: String { document["status"]?.stringValue ?? "ACTIVE" }

    func isActive(now: Date) -> Bool {
        WarrantyLifeRules.hasActiveCoverage(status: status, start: document["coverageStartDate"]?.stringValue,
                                            end: document["coverageEndDate"]?.stringValue, now: now)
    }

    /// The `Warranty` payload; Smart Saver flags come from the item when there is one.
    func wire(now: Date, item: ItemRecord?) -> JSONValue {
        var members = document
        members["id"] = .string(id)
        members["encodedId"] = .string(WarrantyLifeRules.encodedID(id))
        members["itemId"] = itemID.map(JSONValue.string) ?? .null
        members["voucherCode"] = voucherCode.map(JSONValue.string) ?? .null
        members["hasActiveCoverage"] = .bool(isActive(now: now))
        if let item {
            members["deviceId"] = .string(item.deviceID)
            members["ssr"] = .bool(item.ssr); members["ssd"] = .bool(item.ssd); members["tradeIn"] = .bool(item.tradeIn)
        }
        for key in WarrantyRecord.nullableKeys where members[key] == nil { members[key] = .null }
        for key in ["ssrOffered", "ssdOffered", "tipOffered", "ssr", "ssd", "tradeIn", "isDeviceInsured", "acceptedMarketing"] where members[key] == nil {
            members[key] = false
        }
        return .object(members)
    }

    static let nullableKeys = ["registrationCode", "warrantyUrl", "deviceId", "warrantyPlanId", "planName", "planCurrency", "rewardAmount",
                               "rewardAmountMax", "rewardType", "tradeInScore", "dateOfPurchase", "coverageStartDate", "coverageEndDate",
                               "waitingPeriodEndsAt", "firstName", "lastName", "company", "streetAddress", "city", "zip", "state",
                               "country", "phone", "createdAt", "updatedAt"]
    static let statuses = ["PENDING_ACTIVATION", "ACTIVE", "EXPIRED", "CANCELLED", "TRANSFERRED"]
}
