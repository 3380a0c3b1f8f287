import EmulatorCore
import Foundation
import Storage

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
    /// The voucher's Sensor Test: `"standard"` (the stored standard test), a Sensor Test object,
    /// or absent for none (the SDK's `isSensorTestAvailable()` is then false).
    var sensorTest: JSONValue?
    var diagnosticRequirements: JSONValue?
}

/// A voucher as stored: seed plus the state that changes (status, claimer, bound device).
struct VoucherRecord: RowDecodable, Sendable, Equatable {
    var code: String
    var status: VoucherStatus
    var claimedByUserID: String?
    var originalDeviceID: String?
    var warrantyID: String
    var seed: VoucherSeed
    var createdAt: String
    var updatedAt: String

    init(
        code: String, status: VoucherStatus, claimedByUserID: String?, originalDeviceID: String?, warrantyID: String, seed: VoucherSeed,
        createdAt: String, updatedAt: String
    ) {
        self.code = code
        self.status = status
        self.claimedByUserID = claimedByUserID
        self.originalDeviceID = originalDeviceID
        self.warrantyID = warrantyID
        self.seed = seed
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Seeds by their stored JSON: a lookup reads the same voucher again and again.
    private static let seeds = DecodedTextCache<VoucherSeed>()

    init(row: Row) throws {
        code = try row.decode("code")
        status = try row.decode("status")
        claimedByUserID = try row.decodeIfPresent("claimed_by_user_id")
        originalDeviceID = try row.decodeIfPresent("original_device_id")
        warrantyID = try row.decode("warranty_id")
        let attributes: String = try row.decode("attributes")
        do {
            seed = try Self.seeds.value(for: attributes) { try JSONDecoder().decode(VoucherSeed.self, from: Data($0.utf8)) }
        } catch {
            throw RowDecodingError.wrongType(column: "attributes", expected: "VoucherSeed JSON", found: "TEXT")
        }
        createdAt = try row.decode("created_at")
        updatedAt = try row.decode("updated_at")
    }

    /// Whether the plan may move to another device or owner.
    var transferable: Bool { seed.transferable ?? false }

    /// `diagnosticRequirements`: defaults, the seed's Sensor Test (none unless it names one; the
    /// test is then required), overridden by the seed's object and its scan/audio flags.
    var diagnosticRequirements: JSONValue {
        var members = DefaultContent.diagnosticRequirements.objectValue ?? [:]
        let test: JSONValue? = seed.sensorTest?.stringValue == "standard" ? DefaultContent.sensorTest : seed.sensorTest?.objectValue.map(JSONValue.object)
        members["sensorTest"] = test ?? .null
        members["sensorTestRequired"] = .bool(test != nil)
        for (key, value) in seed.diagnosticRequirements?.objectValue ?? [:] { members[key] = value }
        if let flag = seed.bluetoothScan { members["bluetoothScan"] = .bool(flag) }
        if let flag = seed.wifiScan { members["wifiScan"] = .bool(flag) }
        if let flag = seed.recordAudio { members["recordAudio"] = .bool(flag) }
        return .object(members)
    }

    /// The plan with the contract's defaults filled in.
    var plan: JSONValue {
        let plan = seed.plan
        return [
            "warrantyPlanId": .string(plan?.warrantyPlanId ?? "77"), "planName": .string(plan?.planName ?? "Device Protection Plan"),
            "currency": .string(plan?.currency ?? "USD"), "rewardAmount": .double(plan?.rewardAmount ?? 0),
            "rewardAmountMax": .double(plan?.rewardAmountMax ?? 50), "rewardType": .string(plan?.rewardType ?? "DEDUCTIBLE_REDUCTION"),
        ]
    }

    /// Which Smart Saver programs the voucher offers.
    var smartSaver: JSONValue {
        ["ssrOffered": .bool(seed.ssrOffered ?? true), "ssdOffered": .bool(seed.ssdOffered ?? true), "tipOffered": .bool(seed.tipOffered ?? false)]
    }
}
