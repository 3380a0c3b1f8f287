import EmulatorCore
import Foundation
import Storage

/// All the SQL of the Telematics platform. A store wraps the connection of the caller's
/// transaction, so a request's writes commit or roll back together; every method takes the
/// project first and returns records.
struct TelematicsStore {
    /// The connection of the current read or write transaction.
    let connection: any StoreConnection

    /// Per-project tables, parents first.
    static let tables = [
        "telematics_settings", "telematics_users", "telematics_token_pairs", "telematics_vehicles", "telematics_kilometer_reports",
        "telematics_batches", "telematics_samples", "telematics_periods", "telematics_trips", "telematics_driving_events",
        "telematics_attention_events", "telematics_manual_events",
    ]

    // MARK: Settings

    /// The project's stored settings document (only what was changed), or null when nothing was;
    /// a document that is not JSON is `TelematicsSettings.Unreadable`.
    func settingsDocument(_ project: ProjectID) throws -> JSONValue {
        guard let text = try connection.scalar("SELECT settings FROM telematics_settings WHERE project_id = ?", project).string else { return .null }
        do { return try JSONValue.parse(Data(text.utf8)) } catch { throw TelematicsSettings.Unreadable(reason: "the stored document is not JSON") }
    }

    /// Replaces the project's stored settings document.
    func saveSettingsDocument(_ project: ProjectID, _ document: JSONValue) throws {
        try connection.run(
            """
            INSERT INTO telematics_settings (project_id, settings) VALUES (?, ?)
            ON CONFLICT (project_id) DO UPDATE SET settings = excluded.settings
            """, project, String(decoding: document.encoded(), as: UTF8.self))
    }

    /// The tenant key tokens embed. Every project gets one when it is created; "x" only for a
    /// project row made without the platform's credentials, whose tokens then resolve to no one.
    func tenantKey(_ project: ProjectID) throws -> String {
        try connection.scalar("SELECT value FROM project_credentials WHERE project_id = ? AND platform = 'telematics' AND name = 'tenantKey'", project).string ?? "x"
    }

    /// Records the demo session's tokens as the project's credentials (nil removes one), so the
    /// project's SDK settings can show them. Written again on every fixture load (a demo reset
    /// reloads the fixtures over the kept credentials), hence the upsert.
    func recordSessionCredentials(_ project: ProjectID, _ values: [String: String?]) throws {
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let value else {
                try connection.run("DELETE FROM project_credentials WHERE project_id = ? AND platform = 'telematics' AND name = ?", project, name)
                continue
            }
            try connection.run(
                """
                INSERT INTO project_credentials (project_id, platform, name, value) VALUES (?, 'telematics', ?, ?)
                ON CONFLICT (project_id, platform, name) DO UPDATE SET value = excluded.value
                """, project, name, value)
        }
    }

    /// Per-project numbering: the next id of `table` (one of `tables`, never user input).
    func nextID(_ project: ProjectID, _ table: String) throws -> Int {
        try connection.scalar("SELECT COALESCE(MAX(id), 0) + 1 FROM \(table) WHERE project_id = ?", project).int ?? 1
    }

    // MARK: Users

    /// One user.
    func user(_ project: ProjectID, id: Int) throws -> UserRecord? {
        try connection.fetchOne(UserRecord.self, "SELECT * FROM telematics_users WHERE project_id = ? AND user_id = ?", project, id)
    }

    /// Every user, by id.
    func users(_ project: ProjectID) throws -> [UserRecord] {
        try connection.fetchAll(UserRecord.self, "SELECT * FROM telematics_users WHERE project_id = ? ORDER BY user_id", project)
    }

    /// Creates a user (numbered from 1001 when `id` is nil).
    func insertUser(_ project: ProjectID, id: Int?, name: String, state: UserState, accessTtl: Double?, refreshTtl: Double?, now: Date) throws -> UserRecord {
        let userID: Int
        if let id {
            userID = id
        } else {
            userID = try connection.scalar("SELECT COALESCE(MAX(user_id), 1000) + 1 FROM telematics_users WHERE project_id = ?", project).int ?? 1001
        }
        try connection.run(
            """
            INSERT INTO telematics_users (project_id, user_id, user_name, state, access_ttl_seconds, refresh_ttl_seconds, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """, project, userID, name, state.rawValue, accessTtl, refreshTtl, Timestamp.formatMicroseconds(now))
        return try inserted(user(project, id: userID))
    }

    /// Changes the given fields of a user (nil leaves a field as it is).
    func updateUser(
        _ project: ProjectID, id: Int, name: String?, state: UserState?, accessTtl: Double?, refreshTtl: Double?,
        disabledFeatures: [String]?
    ) throws {
        let changes: [(String, (any SQLBindable)?)] = [
            ("user_name", name), ("state", state?.rawValue), ("access_ttl_seconds", accessTtl),
            ("refresh_ttl_seconds", refreshTtl), ("disabled_features", disabledFeatures?.joined(separator: ",")),
        ]
        for (column, value) in changes {
            guard let value else { continue }
            try connection.run("UPDATE telematics_users SET \(column) = ? WHERE project_id = ? AND user_id = ?", value, project, id)
        }
    }

    /// Sets or clears a user's current vehicle.
    func setCurrentVehicle(_ project: ProjectID, userID: Int, vehicleID: Int?) throws {
        try connection.run("UPDATE telematics_users SET current_vehicle_id = ? WHERE project_id = ? AND user_id = ?", vehicleID, project, userID)
    }

    // MARK: Vehicles

    /// Vehicles with their latest report's kilometers and time.
    private static let vehicleSelect = """
        SELECT v.*, (SELECT r.kilometers FROM telematics_kilometer_reports r WHERE r.project_id = v.project_id AND r.vehicle_id = v.id
                ORDER BY r.read_at DESC, r.id DESC LIMIT 1) AS last_kilometers,
            (SELECT r.read_at FROM telematics_kilometer_reports r WHERE r.project_id = v.project_id AND r.vehicle_id = v.id
                ORDER BY r.read_at DESC, r.id DESC LIMIT 1) AS last_read_at
        FROM telematics_vehicles v WHERE v.project_id = ?
        """

    /// One vehicle by id.
    func vehicle(_ project: ProjectID, id: Int) throws -> VehicleRecord? {
        try connection.fetchOne(VehicleRecord.self, Self.vehicleSelect + " AND v.id = ?", project, id)
    }

    /// One vehicle by normalised plate.
    func vehicle(_ project: ProjectID, plateKey: String) throws -> VehicleRecord? {
        try connection.fetchOne(VehicleRecord.self, Self.vehicleSelect + " AND v.plate_key = ?", project, plateKey)
    }

    /// Every vehicle, by id.
    func vehicles(_ project: ProjectID) throws -> [VehicleRecord] {
        try connection.fetchAll(VehicleRecord.self, Self.vehicleSelect + " ORDER BY v.id", project)
    }

    /// Inserts or updates (by normalised plate); returns the vehicle and whether it was new.
    func upsertVehicle(
        _ project: ProjectID, plate: String, internalPlate: String?, type: Int, fuelType: Int, addReason: Int?,
        now: Date
    ) throws -> (VehicleRecord, created: Bool) {
        let key = TelematicsService.plateKey(plate)
        if let existing = try vehicle(project, plateKey: key) {
            try connection.run(
                "UPDATE telematics_vehicles SET plate = ?, internal_plate = ?, type = ?, fuel_type = ?, add_reason = ? WHERE project_id = ? AND id = ?",
                plate, internalPlate, type, fuelType, addReason, project, existing.id)
            return (try inserted(vehicle(project, id: existing.id)), false)
        }
        let id = try nextID(project, "telematics_vehicles")
        try connection.run(
            """
            INSERT INTO telematics_vehicles (project_id, id, plate, plate_key, internal_plate, type, fuel_type, add_reason, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, plate, key, internalPlate, type, fuelType, addReason, Timestamp.formatMicroseconds(now))
        return (try inserted(vehicle(project, id: id)), true)
    }

    // MARK: Kilometers

    /// A vehicle's most recent reports, newest first.
    func latestReports(_ project: ProjectID, vehicleID: Int, limit: Int) throws -> [ReportRecord] {
        try connection.fetchAll(
            ReportRecord.self, "SELECT * FROM telematics_kilometer_reports WHERE project_id = ? AND vehicle_id = ? ORDER BY read_at DESC, id DESC LIMIT ?",
            project, vehicleID, limit)
    }

    /// How many reports a vehicle has.
    func reportCount(_ project: ProjectID, vehicleID: Int) throws -> Int {
        try connection.scalar("SELECT count(*) FROM telematics_kilometer_reports WHERE project_id = ? AND vehicle_id = ?", project, vehicleID).int ?? 0
    }

    /// Stores a report.
    func insertReport(
        _ project: ProjectID, vehicleID: Int, userID: Int?, kilometers: Double, observations: String?, readAt: Double,
        now: Date
    ) throws -> ReportRecord {
        let id = try nextID(project, "telematics_kilometer_reports")
        try connection.run(
            """
            INSERT INTO telematics_kilometer_reports (project_id, id, vehicle_id, user_id, kilometers, observations, read_at, reported_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, vehicleID, userID, kilometers, observations, readAt, now.timeIntervalSince1970)
        return try inserted(connection.fetchOne(ReportRecord.self, "SELECT * FROM telematics_kilometer_reports WHERE project_id = ? AND id = ?", project, id))
    }

    /// Overwrites `reports` with a corrected value.
    func correct(_ project: ProjectID, reports: [ReportRecord], kilometers: Double, observations: String?, at time: Double) throws {
        for report in reports {
            try connection.run(
                """
                UPDATE telematics_kilometer_reports SET kilometers = ?, observations = COALESCE(?, observations), corrected = 1, corrected_at = ?
                WHERE project_id = ? AND id = ?
                """, kilometers, observations, time, project, report.id)
        }
    }

    /// Distance of the vehicle's trips that started after `sinceMs`.
    func trackedKm(_ project: ProjectID, vehicleID: Int, sinceMs: Int64) throws -> Double {
        try connection.scalar(
            "SELECT COALESCE(SUM(distance_km), 0) FROM telematics_trips WHERE project_id = ? AND vehicle_id = ? AND started_ms > ?",
            project, vehicleID, sinceMs
        ).double ?? 0
    }

    /// The row just written: reading it back inside the same transaction cannot miss, so a nil
    /// here is a bug worth a 500, not a default.
    func inserted<T>(_ record: T?) throws -> T {
        guard let record else { throw TelematicsStoreError.writtenRowMissing }
        return record
    }
}

/// A store invariant that failed.
enum TelematicsStoreError: Error {
    /// A row written in this transaction could not be read back.
    case writtenRowMissing
    /// A trip was to be built from no samples (callers pass at least one).
    case tripWithoutSamples
}
