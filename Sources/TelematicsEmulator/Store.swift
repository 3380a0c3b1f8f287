import EmulatorCore
import Foundation
import SQLiteStore

/// A Telematics user as stored.
struct UserRecord: Sendable {
    var userID: Int
    var userName: String
    var state: String
    var currentVehicleID: Int?
    var accessTtl: Double?
    var refreshTtl: Double?
    var createdAt: String
    var disabledFeatures: [String]

    init(_ row: Row) {
        disabledFeatures = (row.string("disabled_features") ?? "").split(separator: ",").map(String.init)
        userID = row.int("user_id") ?? 0
        userName = row.string("user_name") ?? ""
        state = row.string("state") ?? "ACTIVE"
        currentVehicleID = row.int("current_vehicle_id")
        accessTtl = row.double("access_ttl_seconds")
        refreshTtl = row.double("refresh_ttl_seconds")
        createdAt = row.string("created_at") ?? ""
    }
}

/// A token pair as stored (times are epoch seconds).
struct PairRecord: Sendable {
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

    init(_ row: Row) {
        id = row.string("id") ?? ""
        userID = row.int("user_id") ?? 0
        accessToken = row.string("access_token") ?? ""
        accessExpires = row.double("access_expires") ?? 0
        accessRevokedAt = row.double("access_revoked_at")
        refreshToken = row.string("refresh_token")
        refreshExpires = row.double("refresh_expires")
        refreshRevokedAt = row.double("refresh_revoked_at")
        accessTtl = row.double("access_ttl_seconds") ?? 3600
        refreshTtl = row.double("refresh_ttl_seconds")
        parentID = row.string("parent_id")
        successorID = row.string("successor_id")
        rotatedAt = row.double("rotated_at")
        createdAt = row.double("created_at") ?? 0
    }
}

/// A vehicle with its latest kilometer report.
struct VehicleRecord: Sendable {
    var id: Int
    var plate: String
    var internalPlate: String?
    var type: Int
    var fuelType: Int
    var addReason: Int?
    var createdAt: String
    var lastKilometers: Double?
    var lastReportedAt: Double?
}

/// A kilometer report.
struct ReportRecord: Sendable {
    var id: Int
    var vehicleID: Int
    var kilometers: Double
    var observations: String?
    var readAt: Double
    var reportedAt: Double
    var corrected: Bool
    var correctedAt: Double?

    init(_ row: Row) {
        id = row.int("id") ?? 0
        vehicleID = row.int("vehicle_id") ?? 0
        kilometers = row.double("kilometers") ?? 0
        observations = row.string("observations")
        readAt = row.double("read_at") ?? 0
        reportedAt = row.double("reported_at") ?? 0
        corrected = row.bool("corrected") ?? false
        correctedAt = row.double("corrected_at")
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

/// The SQL of the Telematics platform, one function per statement family. Every function takes
/// the connection of the caller's transaction, so a request's writes commit or roll back together.
enum TelematicsStore {
    static let tables = [
        "telematics_settings", "telematics_users", "telematics_token_pairs", "telematics_vehicles", "telematics_kilometer_reports",
        "telematics_batches", "telematics_samples", "telematics_periods", "telematics_trips", "telematics_driving_events",
        "telematics_attention_events", "telematics_manual_events",
    ]

    // MARK: Settings

    static func settings(_ c: SQLiteConnection, _ project: ProjectID) throws -> TelematicsSettings {
        guard let text = try c.scalar("SELECT settings FROM telematics_settings WHERE project_id = ?", project).string,
              let decoded = try? JSONDecoder().decode(TelematicsSettings.self, from: Data(text.utf8)) else { return TelematicsSettings() }
        return decoded
    }

    static func saveSettings(_ c: SQLiteConnection, _ project: ProjectID, _ settings: TelematicsSettings) throws {
        let text = String(decoding: (try? JSONEncoder().encode(settings)) ?? Data("{}".utf8), as: UTF8.self)
        try c.run("""
            INSERT INTO telematics_settings (project_id, settings) VALUES (?, ?)
            ON CONFLICT (project_id) DO UPDATE SET settings = excluded.settings
            """, project, text)
    }

    static func tenantKey(_ c: SQLiteConnection, _ project: ProjectID) throws -> String {
        try c.scalar("SELECT value FROM project_credentials WHERE project_id = ? AND platform = 'telematics' AND name = 'tenantKey'", project).string ?? "x"
    }

    /// Per-project numbering: the next id of `table`.
    static func nextID(_ c: SQLiteConnection, _ table: String, _ project: ProjectID) throws -> Int {
        (try c.scalar("SELECT COALESCE(MAX(id), 0) + 1 FROM \(table) WHERE project_id = ?", project).int) ?? 1
    }

    // MARK: Users

    static func user(_ c: SQLiteConnection, _ project: ProjectID, _ userID: Int) throws -> UserRecord? {
        try c.queryOne("SELECT * FROM telematics_users WHERE project_id = ? AND user_id = ?", project, userID).map(UserRecord.init)
    }

    static func users(_ c: SQLiteConnection, _ project: ProjectID) throws -> [UserRecord] {
        try c.query("SELECT * FROM telematics_users WHERE project_id = ? ORDER BY user_id", project).map(UserRecord.init)
    }

    static func insertUser(_ c: SQLiteConnection, _ project: ProjectID, userID: Int?, userName: String, state: String,
                           accessTtl: Double?, refreshTtl: Double?, now: Date) throws -> UserRecord {
        let id: Int
        if let userID { id = userID } else {
            id = (try c.scalar("SELECT COALESCE(MAX(user_id), 1000) + 1 FROM telematics_users WHERE project_id = ?", project).int) ?? 1001
        }
        try c.run("""
            INSERT INTO telematics_users (project_id, user_id, user_name, state, access_ttl_seconds, refresh_ttl_seconds, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, project, id, userName, state, accessTtl, refreshTtl, Timestamp.formatMicroseconds(now))
        return try user(c, project, id)!
    }

    // MARK: Tokens

    static func pair(_ c: SQLiteConnection, _ project: ProjectID, access token: String) throws -> PairRecord? {
        try c.queryOne("SELECT * FROM telematics_token_pairs WHERE access_token = ? AND project_id = ?", token, project).map(PairRecord.init)
    }

    static func pair(_ c: SQLiteConnection, _ project: ProjectID, refresh token: String) throws -> PairRecord? {
        try c.queryOne("SELECT * FROM telematics_token_pairs WHERE refresh_token = ? AND project_id = ?", token, project).map(PairRecord.init)
    }

    static func pair(_ c: SQLiteConnection, _ project: ProjectID, id: String) throws -> PairRecord? {
        try c.queryOne("SELECT * FROM telematics_token_pairs WHERE id = ? AND project_id = ?", id, project).map(PairRecord.init)
    }

    static func pairs(_ c: SQLiteConnection, _ project: ProjectID, userID: Int?) throws -> [PairRecord] {
        if let userID {
            return try c.query("SELECT * FROM telematics_token_pairs WHERE project_id = ? AND user_id = ? ORDER BY created_at, rowid", project, userID).map(PairRecord.init)
        }
        return try c.query("SELECT * FROM telematics_token_pairs WHERE project_id = ? ORDER BY created_at, rowid", project).map(PairRecord.init)
    }

    /// Mints a pair. Tokens carry the project's tenant key so the project is found without a lookup.
    static func mintPair(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, accessExpires: Double, refreshExpires: Double?,
                         accessTtl: Double, refreshTtl: Double?, parentID: String?, now: Date, secrets: TokenSecrets) throws -> PairRecord {
        let (pairID, access, refresh) = (secrets.pairID, secrets.access, secrets.refresh)
        let tenant = try tenantKey(c, project)
        let accessToken = "tma_\(tenant)_\(access)"
        let refreshToken = refreshExpires == nil ? nil : "tmr_\(tenant)_\(refresh)"
        try c.run("""
            INSERT INTO telematics_token_pairs (project_id, id, user_id, access_token, access_expires, refresh_token, refresh_expires,
                access_ttl_seconds, refresh_ttl_seconds, parent_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, pairID, userID, accessToken, accessExpires, refreshToken, refreshExpires, accessTtl, refreshTtl, parentID,
            now.timeIntervalSince1970)
        return try pair(c, project, id: pairID)!
    }

    // MARK: Vehicles

    static func vehicle(_ c: SQLiteConnection, _ project: ProjectID, id: Int) throws -> VehicleRecord? {
        try c.queryOne("SELECT * FROM telematics_vehicles WHERE project_id = ? AND id = ?", project, id).map { try vehicleRecord(c, project, $0) }
    }

    static func vehicle(_ c: SQLiteConnection, _ project: ProjectID, plateKey: String) throws -> VehicleRecord? {
        try c.queryOne("SELECT * FROM telematics_vehicles WHERE project_id = ? AND plate_key = ?", project, plateKey).map { try vehicleRecord(c, project, $0) }
    }

    static func vehicles(_ c: SQLiteConnection, _ project: ProjectID) throws -> [VehicleRecord] {
        try c.query("SELECT * FROM telematics_vehicles WHERE project_id = ? ORDER BY id", project).map { try vehicleRecord(c, project, $0) }
    }

    private static func vehicleRecord(_ c: SQLiteConnection, _ project: ProjectID, _ row: Row) throws -> VehicleRecord {
        let id = row.int("id") ?? 0
        let last = try latestReports(c, project, vehicleID: id, limit: 1).first
        return VehicleRecord(id: id, plate: row.string("plate") ?? "", internalPlate: row.string("internal_plate"), type: row.int("type") ?? 0,
                             fuelType: row.int("fuel_type") ?? 0, addReason: row.int("add_reason"), createdAt: row.string("created_at") ?? "",
                             lastKilometers: last?.kilometers, lastReportedAt: last?.readAt)
    }

    /// Inserts or updates (by normalised plate); returns the vehicle and whether it was new.
    static func upsertVehicle(_ c: SQLiteConnection, _ project: ProjectID, plate: String, internalPlate: String?, type: Int, fuelType: Int,
                              addReason: Int?, now: Date) throws -> (VehicleRecord, created: Bool) {
        let key = TelematicsService.plateKey(plate)
        if let existing = try vehicle(c, project, plateKey: key) {
            try c.run("UPDATE telematics_vehicles SET plate = ?, internal_plate = ?, type = ?, fuel_type = ?, add_reason = ? WHERE project_id = ? AND id = ?",
                      plate, internalPlate, type, fuelType, addReason, project, existing.id)
            return (try vehicle(c, project, id: existing.id)!, false)
        }
        let id = try nextID(c, "telematics_vehicles", project)
        try c.run("""
            INSERT INTO telematics_vehicles (project_id, id, plate, plate_key, internal_plate, type, fuel_type, add_reason, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, plate, key, internalPlate, type, fuelType, addReason, Timestamp.formatMicroseconds(now))
        return (try vehicle(c, project, id: id)!, true)
    }

    static func setCurrentVehicle(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, vehicleID: Int?) throws {
        try c.run("UPDATE telematics_users SET current_vehicle_id = ? WHERE project_id = ? AND user_id = ?", vehicleID, project, userID)
    }

    // MARK: Kilometers

    static func latestReports(_ c: SQLiteConnection, _ project: ProjectID, vehicleID: Int, limit: Int) throws -> [ReportRecord] {
        try c.query("SELECT * FROM telematics_kilometer_reports WHERE project_id = ? AND vehicle_id = ? ORDER BY read_at DESC, id DESC LIMIT ?",
                    project, vehicleID, limit).map(ReportRecord.init)
    }

    static func reportCount(_ c: SQLiteConnection, _ project: ProjectID, vehicleID: Int) throws -> Int {
        try c.scalar("SELECT count(*) FROM telematics_kilometer_reports WHERE project_id = ? AND vehicle_id = ?", project, vehicleID).int ?? 0
    }

    static func insertReport(_ c: SQLiteConnection, _ project: ProjectID, vehicleID: Int, userID: Int?, kilometers: Double,
                             observations: String?, readAt: Double, now: Date) throws -> ReportRecord {
        let id = try nextID(c, "telematics_kilometer_reports", project)
        try c.run("""
            INSERT INTO telematics_kilometer_reports (project_id, id, vehicle_id, user_id, kilometers, observations, read_at, reported_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, vehicleID, userID, kilometers, observations, readAt, now.timeIntervalSince1970)
        return ReportRecord(try c.queryOne("SELECT * FROM telematics_kilometer_reports WHERE project_id = ? AND id = ?", project, id)!)
    }

    /// Distance of the vehicle's trips that started after `since`.
    static func trackedKm(_ c: SQLiteConnection, _ project: ProjectID, vehicleID: Int, sinceMs: Int64) throws -> Double {
        try c.scalar("SELECT COALESCE(SUM(distance_km), 0) FROM telematics_trips WHERE project_id = ? AND vehicle_id = ? AND started_ms > ?",
                     project, vehicleID, sinceMs).double ?? 0
    }
}
