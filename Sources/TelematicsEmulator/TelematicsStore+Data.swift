import EmulatorCore
import Foundation
import SQLiteStore

/// SQL behind the SDK's data routes and the control plane: token lifecycle, batches, manual
/// events, trips, metrics and periods.
extension TelematicsStore {
    // MARK: Token lifecycle

    static func markRotated(_ c: SQLiteConnection, _ project: ProjectID, pairID: String, successorID: String, at time: Double) throws {
        try c.run("UPDATE telematics_token_pairs SET rotated_at = ?, successor_id = ? WHERE project_id = ? AND id = ?", time, successorID, project, pairID)
    }

    /// Revokes both tokens of the pair holding `accessToken` (logout), and of `refreshToken` when it is the same user's.
    static func revokePairs(_ c: SQLiteConnection, _ project: ProjectID, accessToken: String?, refreshToken: String?, userID: Int, at time: Double) throws {
        let revoke = "UPDATE telematics_token_pairs SET access_revoked_at = COALESCE(access_revoked_at, ?), refresh_revoked_at = COALESCE(refresh_revoked_at, ?) WHERE project_id = ? AND user_id = ? AND "
        if let accessToken { try c.run(revoke + "access_token = ?", time, time, project, userID, accessToken) }
        if let refreshToken { try c.run(revoke + "refresh_token = ?", time, time, project, userID, refreshToken) }
    }

    /// What the control plane can do to one token.
    enum TokenAction: String { case expire, revoke }

    /// Expires or revokes the access or refresh token `token`; nil when no pair holds it.
    static func apply(_ action: TokenAction, token: String, _ c: SQLiteConnection, _ project: ProjectID, at time: Double) throws -> PairRecord? {
        let (pair, column): (PairRecord?, String)
        if let found = try self.pair(c, project, access: token) {
            (pair, column) = (found, action == .expire ? "access_expires = MIN(access_expires, ?)" : "access_revoked_at = COALESCE(access_revoked_at, ?)")
        } else if let found = try self.pair(c, project, refresh: token) {
            (pair, column) = (found, action == .expire ? "refresh_expires = MIN(refresh_expires, ?)" : "refresh_revoked_at = COALESCE(refresh_revoked_at, ?)")
        } else {
            return nil
        }
        guard let pair else { return nil }
        try c.run("UPDATE telematics_token_pairs SET \(column) WHERE project_id = ? AND id = ?", time, project, pair.id)
        return try self.pair(c, project, id: pair.id)
    }

    // MARK: Users

    static func updateUser(_ c: SQLiteConnection, _ project: ProjectID, _ userID: Int, name: String?, state: String?, accessTtl: Double?,
                           refreshTtl: Double?, disabledFeatures: String?) throws {
        let changes: [(String, (any SQLBindable)?)] = [("user_name", name), ("state", state), ("access_ttl_seconds", accessTtl),
                                                       ("refresh_ttl_seconds", refreshTtl), ("disabled_features", disabledFeatures)]
        for (column, value) in changes {
            guard let value else { continue }
            try c.run("UPDATE telematics_users SET \(column) = ? WHERE project_id = ? AND user_id = ?", value, project, userID)
        }
    }

    // MARK: Kilometers

    static func correct(_ c: SQLiteConnection, _ project: ProjectID, reports: [ReportRecord], kilometers: Double, observations: String?, at time: Double) throws {
        for report in reports {
            try c.run("UPDATE telematics_kilometer_reports SET kilometers = ?, observations = COALESCE(?, observations), corrected = 1, corrected_at = ? WHERE project_id = ? AND id = ?",
                      kilometers, observations, time, project, report.id)
        }
    }

    // MARK: Batches

    /// A known batch's original answer (accepted samples, receipt time), counting the repeat.
    static func repeatBatch(_ c: SQLiteConnection, _ project: ProjectID, batchID: String) throws -> (accepted: Int, receivedAt: Double)? {
        guard let row = try c.queryOne("SELECT sample_count, received_at FROM telematics_batches WHERE project_id = ? AND batch_id = ?", project, batchID) else { return nil }
        try c.run("UPDATE telematics_batches SET repeat_count = repeat_count + 1 WHERE project_id = ? AND batch_id = ?", project, batchID)
        return (row.int("sample_count") ?? 0, row.double("received_at") ?? 0)
    }

    static func insertBatch(_ c: SQLiteConnection, _ project: ProjectID, batchID: String, userID: Int, batch: TelemetryBatch, vehicleID: Int?,
                            serviceCode: String?, accepted: Int, at time: Double) throws {
        try c.run("""
            INSERT INTO telematics_batches (project_id, batch_id, user_id, declared_user_id, vehicle_id, service_code, device_id, sample_count,
                event_count, attention_event_count, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, batchID, userID, batch.userId, vehicleID, serviceCode, batch.deviceId, accepted, batch.events.count,
            batch.attentionEvents.count, time)
    }

    // MARK: Manual events

    /// A manual event as the SDK sends it, ready to store.
    struct ManualEventInput {
        var clientID: String?
        var type: ManualEventType
        var timeMs: Int64
        var latitude: Double?
        var longitude: Double?
        var accuracy: Double?
        var locationTimeMs: Int64?
        var vehicleID: Int?
    }

    static func manualEvent(_ c: SQLiteConnection, _ project: ProjectID, clientID: String) throws -> Row? {
        try c.queryOne("SELECT * FROM telematics_manual_events WHERE project_id = ? AND client_event_id = ?", project, clientID)
    }

    /// Stores a manual event linked to the trip containing it (if built) and the period containing it (open or closed).
    static func insertManualEvent(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, _ input: ManualEventInput, idleMs: Int64, at time: Double) throws -> Row {
        let tripID = try c.scalar("SELECT id FROM telematics_trips WHERE project_id = ? AND user_id = ? AND started_ms <= ? AND ended_ms >= ? ORDER BY id DESC LIMIT 1",
                                  project, userID, input.timeMs, input.timeMs).int
        let periodID = try c.scalar("""
            SELECT id FROM telematics_periods WHERE project_id = ? AND user_id = ? AND started_ms <= ?
                AND COALESCE(ended_ms, last_sample_ms + ?) >= ? ORDER BY id DESC LIMIT 1
            """, project, userID, input.timeMs, idleMs, input.timeMs).int
        let id = try nextID(c, "telematics_manual_events", project)
        try c.run("""
            INSERT INTO telematics_manual_events (project_id, id, client_event_id, user_id, type, ts_ms, received_at, latitude, longitude,
                horizontal_accuracy_m, location_timestamp_ms, vehicle_id, trip_id, period_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, input.clientID, userID, input.type.rawValue, input.timeMs, time, input.latitude, input.longitude, input.accuracy,
            input.locationTimeMs, input.vehicleID, tripID, periodID)
        if let tripID { try TelematicsProcessing.tallyTrip(c, project, tripID: tripID) }
        return try c.queryOne("SELECT * FROM telematics_manual_events WHERE project_id = ? AND id = ?", project, id)!
    }

    // MARK: Trips and metrics

    static func trips(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> [Row] {
        try c.query("SELECT * FROM telematics_trips WHERE project_id = ? AND user_id = ? AND started_ms >= ? AND started_ms <= ? ORDER BY started_ms DESC, id DESC",
                    project, userID, fromMs, toMs)
    }

    static func trip(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, id: Int) throws -> Row? {
        try c.queryOne("SELECT * FROM telematics_trips WHERE project_id = ? AND id = ? AND user_id = ?", project, id, userID)
    }

    static func manualEvents(_ c: SQLiteConnection, _ project: ProjectID, tripID: Int) throws -> [Row] {
        try c.query("SELECT * FROM telematics_manual_events WHERE project_id = ? AND trip_id = ? ORDER BY ts_ms, id", project, tripID)
    }

    /// Attention events whose window overlaps `[fromMs, toMs]`.
    static func attentionEvents(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> [Row] {
        try c.query("SELECT * FROM telematics_attention_events WHERE project_id = ? AND user_id = ? AND end_ms >= ? AND start_ms <= ? ORDER BY start_ms, id",
                    project, userID, fromMs, toMs)
    }

    /// Sums over the trips starting in range.
    static func tripTotals(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> Row {
        try c.queryOne("""
            SELECT count(*) AS trips, COALESCE(SUM(distance_km), 0) AS distance, COALESCE(SUM(duration_sec), 0) AS duration,
                COALESCE(MAX(max_speed_kmh), 0) AS max_speed, COALESCE(SUM(score * distance_km), 0) AS weighted_score,
                COALESCE(AVG(score), 100) AS mean_score, COALESCE(SUM(hard_braking_count), 0) AS hb,
                COALESCE(SUM(abrupt_acceleration_count), 0) AS aa, COALESCE(SUM(hard_cornering_count), 0) AS hc,
                COALESCE(SUM(speeding_duration_sec), 0) AS sd, COALESCE(SUM(distraction_count), 0) AS dc,
                COALESCE(SUM(distraction_duration_sec), 0) AS dd, COALESCE(SUM(night_distance_km), 0) AS night
            FROM telematics_trips WHERE project_id = ? AND user_id = ? AND started_ms >= ? AND started_ms <= ?
            """, project, userID, fromMs, toMs)!
    }

    /// Manual activity marks (`walking`, `stopped`) in range, by type.
    static func activityMarks(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try c.query("""
            SELECT type, count(*) AS n FROM telematics_manual_events WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ?
                AND type IN ('walking', 'stopped') GROUP BY type
            """, project, userID, fromMs, toMs) {
            counts[row.string("type") ?? ""] = row.int("n") ?? 0
        }
        return counts
    }

    // MARK: Periods

    /// One page of periods starting in range, newest first, and the total.
    static func periods(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64, processed: Bool?,
                        page: Int, pageSize: Int) throws -> (total: Int, rows: [Row]) {
        let filter = "project_id = ? AND user_id = ? AND started_ms >= ? AND started_ms <= ? AND (? IS NULL OR is_processed = ?)"
        let args: [any SQLBindable] = [project, userID, fromMs, toMs, processed, processed]
        let total = try c.query("SELECT count(*) AS n FROM telematics_periods WHERE " + filter, bindings: args).first?.int("n") ?? 0
        let rows = try c.query("SELECT * FROM telematics_periods WHERE " + filter + " ORDER BY started_ms DESC, id DESC LIMIT ? OFFSET ?",
                               bindings: args + [pageSize, (page - 1) * pageSize])
        return (total, rows)
    }

    static func period(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, id: Int) throws -> Row? {
        try c.queryOne("SELECT * FROM telematics_periods WHERE project_id = ? AND id = ? AND user_id = ?", project, id, userID)
    }
}
