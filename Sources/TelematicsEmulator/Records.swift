import EmulatorCore
import Foundation
import Storage

/// A user's account state as stored; the SDK sees 403s for the refused ones [D-TM-06].
enum UserState: String, Sendable, CaseIterable, SQLColumnDecodable {
    /// May use every route.
    case active = "ACTIVE"
    /// 403 `ACCOUNT_INACTIVE`, and refreshes fail.
    case inactive = "INACTIVE"
    /// 403 `ACCESS_DENIED`.
    case denied = "DENIED"

}

/// A Telematics user as stored.
struct UserRecord: Sendable, RowDecodable {
    var userID: Int
    var userName: String
    var state: UserState
    var currentVehicleID: Int?
    var accessTtl: Double?
    var refreshTtl: Double?
    var createdAt: String
    var disabledFeatures: [String]

    init(row: Row) throws {
        userID = try row.decode("user_id")
        userName = try row.decode("user_name")
        state = try row.decode("state")
        currentVehicleID = try row.decodeIfPresent("current_vehicle_id")
        accessTtl = try row.decodeIfPresent("access_ttl_seconds")
        refreshTtl = try row.decodeIfPresent("refresh_ttl_seconds")
        createdAt = try row.decode("created_at")
        disabledFeatures = try row.decode("disabled_features", as: String.self).split(separator: ",").map(String.init)
    }
}

/// A token pair as stored (times are epoch seconds).
struct PairRecord: Sendable, RowDecodable {
    var id: String
    var userID: Int
    var accessToken: String
    var accessExpires: Double
    var accessRevokedAt: Double?
    var refreshToken: String?
    var refreshExpires: Double?
    var refreshRevokedAt: Double?
    var accessTtl: Double
    var refreshTtl: Double?
    var parentID: String?
    var successorID: String?
    var rotatedAt: Double?
    var createdAt: Double

    init(row: Row) throws {
        id = try row.decode("id")
        userID = try row.decode("user_id")
        accessToken = try row.decode("access_token")
        accessExpires = try row.decode("access_expires")
        accessRevokedAt = try row.decodeIfPresent("access_revoked_at")
        refreshToken = try row.decodeIfPresent("refresh_token")
        refreshExpires = try row.decodeIfPresent("refresh_expires")
        refreshRevokedAt = try row.decodeIfPresent("refresh_revoked_at")
        accessTtl = try row.decode("access_ttl_seconds")
        refreshTtl = try row.decodeIfPresent("refresh_ttl_seconds")
        parentID = try row.decodeIfPresent("parent_id")
        successorID = try row.decodeIfPresent("successor_id")
        rotatedAt = try row.decodeIfPresent("rotated_at")
        createdAt = try row.decode("created_at")
    }
}

/// A vehicle with its latest kilometer report (the store's query adds `last_kilometers` and
/// `last_read_at`).
struct VehicleRecord: Sendable, RowDecodable {
    var id: Int
    var plate: String
    var internalPlate: String?
    var type: Int
    var fuelType: Int
    var addReason: Int?
    var createdAt: String
    var lastKilometers: Double?
    var lastReportedAt: Double?

    init(row: Row) throws {
        id = try row.decode("id")
        plate = try row.decode("plate")
        internalPlate = try row.decodeIfPresent("internal_plate")
        type = try row.decode("type")
        fuelType = try row.decode("fuel_type")
        addReason = try row.decodeIfPresent("add_reason")
        createdAt = try row.decode("created_at")
        lastKilometers = try row.decodeIfPresent("last_kilometers")
        lastReportedAt = try row.decodeIfPresent("last_read_at")
    }
}

/// A kilometer report.
struct ReportRecord: Sendable, RowDecodable {
    var id: Int
    var vehicleID: Int
    var kilometers: Double
    var observations: String?
    var readAt: Double
    var reportedAt: Double
    var corrected: Bool
    var correctedAt: Double?

    init(row: Row) throws {
        id = try row.decode("id")
        vehicleID = try row.decode("vehicle_id")
        kilometers = try row.decode("kilometers")
        observations = try row.decodeIfPresent("observations")
        readAt = try row.decode("read_at")
        reportedAt = try row.decode("reported_at")
        corrected = try row.decode("corrected")
        correctedAt = try row.decodeIfPresent("corrected_at")
    }
}

/// A decoded telemetry batch as stored, for the control plane's inspection.
struct BatchRecord: Sendable, RowDecodable {
    var batchID: String
    var userID: Int
    var declaredUserID: Int?
    var vehicleID: Int?
    var serviceCode: String?
    var deviceID: String?
    var sampleCount: Int
    var eventCount: Int
    var attentionEventCount: Int
    var repeatCount: Int
    var receivedAt: Double

    init(row: Row) throws {
        batchID = try row.decode("batch_id")
        userID = try row.decode("user_id")
        declaredUserID = try row.decodeIfPresent("declared_user_id")
        vehicleID = try row.decodeIfPresent("vehicle_id")
        serviceCode = try row.decodeIfPresent("service_code")
        deviceID = try row.decodeIfPresent("device_id")
        sampleCount = try row.decode("sample_count")
        eventCount = try row.decode("event_count")
        attentionEventCount = try row.decode("attention_event_count")
        repeatCount = try row.decode("repeat_count")
        receivedAt = try row.decode("received_at")
    }
}

/// Random parts of a new token pair, drawn from the project's id generator before the transaction.
struct TokenSecrets: Sendable {
    var pairID: String
    var access: String
    var refresh: String

    static func draw(_ generator: inout IDGenerator) -> TokenSecrets {
        TokenSecrets(pairID: "tp_" + generator.lowerAlphanumeric(12), access: generator.alphanumeric(32), refresh: generator.alphanumeric(40))
    }
}
