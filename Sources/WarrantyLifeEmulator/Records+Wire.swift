import EmulatorCore
import Foundation

// The records as WarrantyLife's SDK (and the control plane) see them: payloads are built as JSON
// values rather than Codable structs because the contract fixes which absent members are `null`
// and which are omitted, member by member.

extension DeveloperKeyRecord {
    /// Control-plane view.
    var json: JSONValue {
        [
            "key": .string(key), "name": .string(name), "environment": .string(environment), "state": .string(state.rawValue),
            "unavailableMode": .string(unavailableMode.rawValue), "createdAt": .string(createdAt),
        ]
    }
}

extension UserRecord {
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

    /// Control-plane view: the profile plus the token and a ready-made `Authorization` header.
    var adminJSON: JSONValue {
        var members = whoami.objectValue ?? [:]
        members["token"] = .string(token)
        members["activated"] = .bool(activated)
        members["authorization"] = .string("Basic " + Data("\(identity):\(token)".utf8).base64EncodedString())
        members["createdAt"] = .string(createdAt)
        return .object(members)
    }
}

extension VoucherRecord {
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
            "warrantyId": .string(warrantyID), "encodedWarrantyId": .string(WarrantyLifeService.encodedID(warrantyID)),
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
        // A seed is plain Codable values, so encoding it cannot fail; `try?` keeps the view non-throwing.
        var members = (try? JSONValue.from(seed).objectValue) ?? [:]
        members["code"] = .string(code)
        members["status"] = .string(status.rawValue)
        members["claimedByUserId"] = claimedByUserID.map(JSONValue.string) ?? .null
        members["originalDeviceId"] = originalDeviceID.map(JSONValue.string) ?? .null
        members["warrantyId"] = .string(warrantyID)
        members["createdAt"] = .string(createdAt)
        members["updatedAt"] = .string(updatedAt)
        return .object(members)
    }
}

extension ItemRecord {
    /// `Item` (D-WL-16 decision for the authenticated lookup).
    func wire(hasActiveCoverage: Bool, warrantyIDs: [String]) -> JSONValue {
        [
            "id": .string(id), "deviceId": .string(deviceID), "categoryId": categoryID.map(JSONValue.string) ?? .null,
            "manufacturerName": manufacturerName.map(JSONValue.string) ?? .null, "model": model.map(JSONValue.string) ?? .null,
            "mpn": mpn.map(JSONValue.string) ?? .null, "imei": imei.map(JSONValue.string) ?? .null, "createdAt": .string(createdAt),
            "hasActiveCoverage": .bool(hasActiveCoverage), "warrantyIds": .array(warrantyIDs.map(JSONValue.string)),
        ]
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

extension WarrantyRecord {
    /// The `Warranty` payload; Smart Saver flags come from the item when there is one.
    func wire(now: Date, item: ItemRecord?) -> JSONValue {
        var members = document
        members["id"] = .string(id)
        members["encodedId"] = .string(WarrantyLifeService.encodedID(id))
        members["itemId"] = itemID.map(JSONValue.string) ?? .null
        members["voucherCode"] = voucherCode.map(JSONValue.string) ?? .null
        members["status"] = .string(status(now: now))
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

    static let nullableKeys = [
        "registrationCode", "warrantyUrl", "deviceId", "warrantyPlanId", "planName", "planCurrency", "rewardAmount",
        "rewardAmountMax", "rewardType", "tradeInScore", "dateOfPurchase", "coverageStartDate", "coverageEndDate",
        "waitingPeriodEndsAt", "firstName", "lastName", "company", "streetAddress", "city", "zip", "state",
        "country", "phone", "createdAt", "updatedAt",
    ]
}

extension ItemCoverage {
    /// The `Item` payload with its coverage.
    var wire: JSONValue { item.wire(hasActiveCoverage: active != nil, warrantyIDs: all.map(\.id)) }
}

extension SmartSaverStatus {
    /// `{programs: […]}` of the Smart Saver routes.
    static func wire(_ programs: [SmartSaverStatus]) -> JSONValue {
        [
            "programs": .array(
                programs.map { status in
                    [
                        "program": .string(status.program.rawValue), "eligible": .bool(status.eligible), "optedIn": .bool(status.optedIn),
                        "optedInAt": status.optedInAt.map(JSONValue.string) ?? .null,
                    ]
                })
        ]
    }
}

extension VoucherLookupRecord {
    /// Control-plane view.
    var adminJSON: JSONValue {
        [
            "id": .int(Int64(id)), "code": .string(code), "deviceId": deviceID.map(JSONValue.string) ?? .null, "userId": userID.map(JSONValue.string) ?? .null,
            "action": .string(action), "registrationType": .string(registrationType), "createdAt": .string(createdAt),
        ]
    }
}
