import EmulatorCore
import Foundation
import Storage

/// Trips, their tallies and metrics, and the manual events linked to them.
extension TelematicsStore {
    // MARK: Trips

    /// One trip, whoever owns it.
    func trip(_ project: ProjectID, id: Int) throws -> TripRecord? {
        try connection.fetchOne(TripRecord.self, "SELECT * FROM telematics_trips WHERE project_id = ? AND id = ?", project, id)
    }

    /// One of the user's trips.
    func trip(_ project: ProjectID, userID: Int, id: Int) throws -> TripRecord? {
        try connection.fetchOne(TripRecord.self, "SELECT * FROM telematics_trips WHERE project_id = ? AND id = ? AND user_id = ?", project, id, userID)
    }

    /// The user's trips starting in `[fromMs, toMs]`, newest first.
    func trips(_ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> [TripRecord] {
        try connection.query(
            """
            SELECT \(Self.tripColumns) FROM telematics_trips WHERE project_id = ? AND user_id = ? AND started_ms >= ? AND started_ms <= ?
            ORDER BY started_ms DESC, id DESC
            """, project, userID, fromMs, toMs
        ).map { row throws(RowDecodingError) in try TripRecord(positional: row) }
    }

    /// `TripRecord.columns` as a select list.
    private static let tripColumns = TripRecord.columns.joined(separator: ", ")

    /// Trips newest first, of one user or of all.
    func allTrips(_ project: ProjectID, userID: Int?) throws -> [TripRecord] {
        // Not `(? IS NULL OR user_id = ?)`, which no index serves: one user's trips come from
        // (project, user, started_ms, id) in order, without reading other users'.
        guard let userID else {
            return try connection.fetchAll(TripRecord.self, "SELECT * FROM telematics_trips WHERE project_id = ? ORDER BY started_ms DESC, id DESC", project)
        }
        return try connection.fetchAll(
            TripRecord.self, "SELECT * FROM telematics_trips WHERE project_id = ? AND user_id = ? ORDER BY started_ms DESC, id DESC",
            project, userID)
    }

    /// Ids of the user's trips overlapping `[fromMs, toMs]`.
    func tripIDs(_ project: ProjectID, userID: Int, overlappingFromMs fromMs: Int64, toMs: Int64) throws -> [Int] {
        try connection.query(
            "SELECT id FROM telematics_trips WHERE project_id = ? AND user_id = ? AND ended_ms >= ? AND started_ms <= ?",
            project, userID, fromMs, toMs
        ).map { try $0.decode("id") }
    }

    /// Deletes the trips built from a period, unlinking their manual events first.
    func deleteTrips(_ project: ProjectID, periodID: Int) throws {
        try connection.run(
            """
            UPDATE telematics_manual_events SET trip_id = NULL
            WHERE project_id = ? AND trip_id IN (SELECT id FROM telematics_trips WHERE project_id = ? AND period_id = ?)
            """, project, project, periodID)
        try connection.run("DELETE FROM telematics_trips WHERE project_id = ? AND period_id = ?", project, periodID)
    }

    /// Stores a trip measured from samples (score 100 until tallied); returns its id.
    func insertTrip(_ project: ProjectID, userID: Int, vehicleID: Int?, periodID: Int?, first: Sample, last: Sample, metrics: SampleMetrics) throws -> Int {
        let id = try nextID(project, "telematics_trips")
        try connection.run(
            """
            INSERT INTO telematics_trips (project_id, id, user_id, vehicle_id, period_id, started_ms, ended_ms, distance_km, duration_sec,
                start_lat, start_lon, end_lat, end_lon, avg_speed_kmh, max_speed_kmh, score, speeding_count, sample_speeding_count,
                speeding_duration_sec, night_distance_km)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 100, ?, ?, ?, ?)
            """, project, id, userID, vehicleID, periodID, first.timestampMs, last.timestampMs, metrics.distanceKm, metrics.durationSec,
            first.latitude, first.longitude, last.latitude, last.longitude, metrics.avgSpeedKmh, metrics.maxSpeedKmh,
            metrics.speedingCount, metrics.speedingCount, metrics.speedingDurationSec, metrics.nightDistanceKm)
        return id
    }

    /// Stores a trip given by summary numbers alone (no positions); returns its id.
    func insertSummaryTrip(
        _ project: ProjectID, userID: Int, vehicleID: Int?, periodID: Int, startedMs: Int64, endedMs: Int64, distanceKm: Double,
        durationSec: Int, avgSpeedKmh: Double, maxSpeedKmh: Double
    ) throws -> Int {
        let id = try nextID(project, "telematics_trips")
        try connection.run(
            """
            INSERT INTO telematics_trips (project_id, id, user_id, vehicle_id, period_id, started_ms, ended_ms, distance_km, duration_sec,
                avg_speed_kmh, max_speed_kmh, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 100)
            """, project, id, userID, vehicleID, periodID, startedMs, endedMs, distanceKm, durationSec, avgSpeedKmh, maxSpeedKmh)
        return id
    }

    /// Saves a trip's event tally and score.
    func saveTally(_ project: ProjectID, tripID: Int, _ tally: EventTally, speedingEpisodes: Int) throws {
        try connection.run(
            """
            UPDATE telematics_trips SET hard_braking_count = ?, abrupt_acceleration_count = ?, hard_cornering_count = ?, speeding_count = ?,
                distraction_count = ?, distraction_duration_sec = ?, manual_event_count = ?, score = ? WHERE project_id = ? AND id = ?
            """, tally.hardBraking, tally.abruptAcceleration, tally.hardCornering, tally.speeding + speedingEpisodes, tally.distraction,
            tally.distractionDurationSec, tally.manual, tally.score(speedingEpisodes: speedingEpisodes), project, tripID)
    }

    /// Sums over the user's trips starting in range.
    func tripTotals(_ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> TripTotals {
        try inserted(
            connection.fetchOne(
                TripTotals.self,
                """
                SELECT count(*) AS trips, COALESCE(SUM(distance_km), 0) AS distance, COALESCE(SUM(duration_sec), 0) AS duration,
                    COALESCE(MAX(max_speed_kmh), 0) AS max_speed, COALESCE(SUM(score * distance_km), 0) AS weighted_score,
                    COALESCE(AVG(score), 100) AS mean_score, COALESCE(SUM(hard_braking_count), 0) AS hb,
                    COALESCE(SUM(abrupt_acceleration_count), 0) AS aa, COALESCE(SUM(hard_cornering_count), 0) AS hc,
                    COALESCE(SUM(speeding_duration_sec), 0) AS sd, COALESCE(SUM(distraction_count), 0) AS dc,
                    COALESCE(SUM(distraction_duration_sec), 0) AS dd, COALESCE(SUM(night_distance_km), 0) AS night
                FROM telematics_trips WHERE project_id = ? AND user_id = ? AND started_ms >= ? AND started_ms <= ?
                """, project, userID, fromMs, toMs))
    }

    // MARK: Manual events

    /// A manual event by the SDK's client id.
    func manualEvent(_ project: ProjectID, clientID: String) throws -> ManualEventRecord? {
        try connection.fetchOne(ManualEventRecord.self, "SELECT * FROM telematics_manual_events WHERE project_id = ? AND client_event_id = ?", project, clientID)
    }

    /// Stores a manual event linked to the trip containing it (if built) and the period containing
    /// it (open periods reach `idleMs` past their last sample).
    func insertManualEvent(_ project: ProjectID, userID: Int, _ input: ManualEventInput, idleMs: Int64, at time: Double) throws -> ManualEventRecord {
        // Both look from the end: an event is sent as it happens, so few of the user's trips and
        // periods end after it, where every earlier one starts before it. `+started_ms` keeps
        // the planner off the index by start, whose range is the user's whole history; an open
        // period (no end yet) is found by its NULL end in the same index.
        let tripID = try connection.scalar(
            """
            SELECT max(id) FROM telematics_trips WHERE project_id = ? AND user_id = ? AND ended_ms >= ? AND +started_ms <= ?
            """, project, userID, input.timeMs, input.timeMs
        ).int
        let periodID = try connection.scalar(
            """
            SELECT max(id) FROM (
                SELECT id FROM telematics_periods WHERE project_id = ? AND user_id = ? AND ended_ms >= ? AND +started_ms <= ?
                UNION ALL
                SELECT id FROM telematics_periods WHERE project_id = ? AND user_id = ? AND ended_ms IS NULL AND +started_ms <= ?
                    AND last_sample_ms + ? >= ?) AS candidates
            """, project, userID, input.timeMs, input.timeMs, project, userID, input.timeMs, idleMs, input.timeMs
        ).int
        let id = try nextID(project, "telematics_manual_events")
        try connection.run(
            """
            INSERT INTO telematics_manual_events (project_id, id, client_event_id, user_id, type, ts_ms, received_at, latitude, longitude,
                horizontal_accuracy_m, location_timestamp_ms, vehicle_id, trip_id, period_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, input.clientID, userID, input.type.rawValue, input.timeMs, time, input.latitude, input.longitude, input.accuracy,
            input.locationTimeMs, input.vehicleID, tripID, periodID)
        return try inserted(connection.fetchOne(ManualEventRecord.self, "SELECT * FROM telematics_manual_events WHERE project_id = ? AND id = ?", project, id))
    }

    /// A manual event by id.
    func manualEvent(_ project: ProjectID, id: Int) throws -> ManualEventRecord? {
        try connection.fetchOne(ManualEventRecord.self, "SELECT * FROM telematics_manual_events WHERE project_id = ? AND id = ?", project, id)
    }

    /// The manual events linked to a trip, in time order.
    func manualEvents(_ project: ProjectID, tripID: Int) throws -> [ManualEventRecord] {
        try connection.fetchAll(ManualEventRecord.self, "SELECT * FROM telematics_manual_events WHERE project_id = ? AND trip_id = ? ORDER BY ts_ms, id", project, tripID)
    }

    /// Manual events in time order, of one user or of all.
    func allManualEvents(_ project: ProjectID, userID: Int?) throws -> [ManualEventRecord] {
        // One statement per filter, so that one user's events come from (project, user, ts_ms, id).
        guard let userID else {
            return try connection.fetchAll(ManualEventRecord.self, "SELECT * FROM telematics_manual_events WHERE project_id = ? ORDER BY ts_ms, id", project)
        }
        return try connection.fetchAll(
            ManualEventRecord.self, "SELECT * FROM telematics_manual_events WHERE project_id = ? AND user_id = ? ORDER BY ts_ms, id",
            project, userID)
    }

    /// Times of the user's `tripStart` and `tripEnd` marks in `[fromMs, toMs]`.
    func tripMarks(_ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> (starts: [Int64], ends: [Int64]) {
        let marks = try connection.fetchAll(
            ManualEventRecord.self,
            """
            SELECT * FROM telematics_manual_events WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ? AND type IN ('tripStart', 'tripEnd')
            """, project, userID, fromMs, toMs)
        return (marks.filter { $0.type == .tripStart }.map(\.timestampMs), marks.filter { $0.type == .tripEnd }.map(\.timestampMs))
    }

    /// Links the user's manual events in `[fromMs, toMs]` to `tripID`; returns how many the trip now has.
    func linkManualEvents(_ project: ProjectID, userID: Int, tripID: Int, fromMs: Int64, toMs: Int64) throws -> Int {
        try connection.run(
            "UPDATE telematics_manual_events SET trip_id = ? WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ?",
            tripID, project, userID, fromMs, toMs)
        return try connection.scalar("SELECT count(*) FROM telematics_manual_events WHERE project_id = ? AND trip_id = ?", project, tripID).int ?? 0
    }

    /// Manual activity marks (`walking`, `stopped`) in range, by type.
    func activityMarks(_ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try connection.query(
            """
            SELECT type, count(*) AS n FROM telematics_manual_events WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ?
                AND type IN ('walking', 'stopped') GROUP BY type
            """, project, userID, fromMs, toMs)
        {
            counts[try row.decode("type", as: String.self)] = try row.decode("n", as: Int.self)
        }
        return counts
    }
}
