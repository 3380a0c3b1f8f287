import EmulatorCore
import Foundation
import SQLiteStore

/// Telemetry → periods → trips [D-TM-17, D-TM-19], against the caller's transaction.
enum TelematicsProcessing {
    struct OpenPeriod {
        var id: Int
        var started: Int64
        var last: Int64
        var count: Int
    }

    /// Stores a batch's new samples and events, advances the user's periods, and processes the
    /// periods that closed. Returns the number of samples accepted.
    @discardableResult
    static func ingest(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, batchID: String?, batch: TelemetryBatch,
                       vehicleID: Int?, serviceCode: String?, settings: TelematicsSettings, now: Date) throws -> Int {
        let idleMs = Int64(settings.periodIdleTimeoutSeconds * 1000)
        var open: OpenPeriod? = try c.queryOne(
            "SELECT id, started_ms, last_sample_ms, sample_count FROM telematics_periods WHERE project_id = ? AND user_id = ? AND ended_ms IS NULL ORDER BY id DESC LIMIT 1",
            project, userID).map { OpenPeriod(id: $0.int("id") ?? 0, started: Int64($0.int("started_ms") ?? 0), last: Int64($0.int("last_sample_ms") ?? 0), count: $0.int("sample_count") ?? 0) }
        var closed: [Int] = []
        var accepted = 0
        for sample in batch.samples {
            let inserted = try c.run("""
                INSERT OR IGNORE INTO telematics_samples (project_id, user_id, ts_ms, latitude, longitude, speed_kmh, course_deg, accuracy_m,
                    altitude_m, speed_limit_kmh, phone_in_use, batch_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, project, userID, sample.timestampMs, sample.latitude, sample.longitude, sample.speedKmh, sample.courseDeg,
                sample.horizontalAccuracyM, sample.altitudeM, sample.speedLimitKmh, sample.phoneInUse, batchID)
            guard inserted > 0 else { continue }
            accepted += 1
            if var period = open, sample.timestampMs - period.last <= idleMs {
                period.last = max(period.last, sample.timestampMs)
                period.started = min(period.started, sample.timestampMs)
                period.count += 1
                open = period
                continue
            }
            if let period = open {
                try save(c, project, period, ended: true)
                closed.append(period.id)
            }
            let id = try TelematicsStore.nextID(c, "telematics_periods", project)
            try c.run("""
                INSERT INTO telematics_periods (project_id, id, user_id, vehicle_id, service_code, started_ms, last_sample_ms, sample_count)
                VALUES (?, ?, ?, ?, ?, ?, ?, 0)
                """, project, id, userID, vehicleID, serviceCode, sample.timestampMs, sample.timestampMs)
            open = OpenPeriod(id: id, started: sample.timestampMs, last: sample.timestampMs, count: 1)
        }
        if let period = open { try save(c, project, period, ended: false) }
        for event in batch.events {
            let speed = nearestSpeed(batch.samples, at: event.timestampMs)
            try insertDrivingEvent(c, project, userID: userID, event: event, speedKmh: speed, settings: settings, batchID: batchID)
        }
        for event in batch.attentionEvents {
            _ = try insertAttentionEvent(c, project, userID: userID, event: event, now: now)
        }
        if settings.autoProcess {
            for id in closed { try processPeriod(c, project, periodID: id, settings: settings, now: now) }
        }
        let times = batch.events.map(\.timestampMs) + batch.attentionEvents.flatMap { [$0.startTimestampMs, $0.endTimestampMs] }
        if let low = times.min(), let high = times.max() { try refreshTrips(c, project, userID: userID, fromMs: low, toMs: high) }
        return accepted
    }

    private static func save(_ c: SQLiteConnection, _ project: ProjectID, _ period: OpenPeriod, ended: Bool) throws {
        try c.run("UPDATE telematics_periods SET started_ms = ?, last_sample_ms = ?, sample_count = ?, ended_ms = ? WHERE project_id = ? AND id = ?",
                  period.started, period.last, period.count, ended ? period.last : nil, project, period.id)
    }

    private static func nearestSpeed(_ samples: [Sample], at time: Int64) -> Double? {
        samples.min { abs($0.timestampMs - time) < abs($1.timestampMs - time) }?.speedKmh
    }

    static func insertDrivingEvent(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, event: DrivingEvent, speedKmh: Double?,
                                   settings: TelematicsSettings, batchID: String?) throws {
        let id = try TelematicsStore.nextID(c, "telematics_driving_events", project)
        let type = TelematicsService.specificType(event.type, speedKmh: speedKmh, highSpeedKmh: settings.highSpeedKmh)
        try c.run("""
            INSERT INTO telematics_driving_events (project_id, id, user_id, type, ts_ms, latitude, longitude, duration_sec, value, batch_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, userID, type, event.timestampMs, event.latitude, event.longitude, event.durationSec, event.value, batchID)
    }

    /// Stores an attention event; false (and a counted duplicate) when its id is known.
    static func insertAttentionEvent(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, event: AttentionEvent, now: Date) throws -> Bool {
        let inserted = try c.run("""
            INSERT OR IGNORE INTO telematics_attention_events (project_id, id, user_id, type, start_ms, end_ms, confidence, average_speed_mps,
                latitude, longitude, horizontal_accuracy_m, location_timestamp_ms, detector_version, received_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, event.id, userID, event.type, event.startTimestampMs, event.endTimestampMs, event.confidence, event.averageSpeedMps,
            event.latitude, event.longitude, event.horizontalAccuracyM, event.locationTimestampMs, event.detectorVersion, now.timeIntervalSince1970)
        if inserted == 0 {
            try c.run("UPDATE telematics_attention_events SET duplicate_count = duplicate_count + 1 WHERE project_id = ? AND id = ?", project, event.id)
            return false
        }
        return true
    }

    /// Closes open periods whose last sample is older than the idle timeout on the project clock,
    /// processing them when auto-processing is on. Returns whether anything changed.
    @discardableResult
    static func closeStale(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, settings: TelematicsSettings, now: Date) throws -> Bool {
        let limit = Int64(now.timeIntervalSince1970 * 1000) - Int64(settings.periodIdleTimeoutSeconds * 1000)
        let ids = try c.query("SELECT id FROM telematics_periods WHERE project_id = ? AND user_id = ? AND ended_ms IS NULL AND last_sample_ms <= ?",
                              project, userID, limit).compactMap { $0.int("id") }
        for id in ids {
            try c.run("UPDATE telematics_periods SET ended_ms = last_sample_ms WHERE project_id = ? AND id = ?", project, id)
            if settings.autoProcess { try processPeriod(c, project, periodID: id, settings: settings, now: now) }
        }
        return !ids.isEmpty
    }

    /// Whether `closeStale` would change anything (a read-only check, so reads stay on readers).
    static func hasStale(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, settings: TelematicsSettings, now: Date) throws -> Bool {
        let limit = Int64(now.timeIntervalSince1970 * 1000) - Int64(settings.periodIdleTimeoutSeconds * 1000)
        return (try c.scalar("SELECT count(*) FROM telematics_periods WHERE project_id = ? AND user_id = ? AND ended_ms IS NULL AND last_sample_ms <= ?",
                             project, userID, limit).int ?? 0) > 0
    }

    /// "Process now": closes the user's open periods and processes every unprocessed one.
    static func processNow(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, settings: TelematicsSettings, now: Date) throws -> (periods: Int, trips: Int) {
        try c.run("UPDATE telematics_periods SET ended_ms = last_sample_ms WHERE project_id = ? AND user_id = ? AND ended_ms IS NULL", project, userID)
        let ids = try c.query("SELECT id FROM telematics_periods WHERE project_id = ? AND user_id = ? AND is_processed = 0 ORDER BY id",
                              project, userID).compactMap { $0.int("id") }
        var trips = 0
        for id in ids { trips += try processPeriod(c, project, periodID: id, settings: settings, now: now) }
        return (ids.count, trips)
    }

    static func samples(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> [Sample] {
        try c.query("""
            SELECT * FROM telematics_samples WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ? ORDER BY ts_ms
            """, project, userID, fromMs, toMs).map { row in
            Sample(timestampMs: Int64(row.int("ts_ms") ?? 0), latitude: row.double("latitude") ?? 0, longitude: row.double("longitude") ?? 0,
                   speedKmh: row.double("speed_kmh"), courseDeg: row.double("course_deg"), horizontalAccuracyM: row.double("accuracy_m"),
                   altitudeM: row.double("altitude_m"), speedLimitKmh: row.double("speed_limit_kmh"), phoneInUse: row.bool("phone_in_use"))
        }
    }

    /// Builds the trips of a closed period (replacing any built before). Returns how many.
    @discardableResult
    static func processPeriod(_ c: SQLiteConnection, _ project: ProjectID, periodID: Int, settings: TelematicsSettings, now: Date) throws -> Int {
        guard let period = try c.queryOne("SELECT * FROM telematics_periods WHERE project_id = ? AND id = ?", project, periodID),
              let userID = period.int("user_id") else { return 0 }
        let start = Int64(period.int("started_ms") ?? 0)
        let end = Int64(period.int("ended_ms") ?? period.int("last_sample_ms") ?? 0)
        let all = try samples(c, project, userID: userID, fromMs: start, toMs: end)
        let marks = try c.query("SELECT type, ts_ms FROM telematics_manual_events WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ? AND type IN ('tripStart', 'tripEnd')",
                                project, userID, start, end)
        let starts = marks.filter { $0.string("type") == "tripStart" }.compactMap { $0.int("ts_ms").map(Int64.init) }
        let ends = marks.filter { $0.string("type") == "tripEnd" }.compactMap { $0.int("ts_ms").map(Int64.init) }
        let segments = TelematicsService.segment(all, gapMs: Int64(settings.tripGapSeconds * 1000), starts: starts, ends: ends,
                                                 minDistanceKm: settings.minTripDistanceKm, minDurationMs: Int64(settings.minTripDurationSeconds * 1000))
        try c.run("UPDATE telematics_manual_events SET trip_id = NULL WHERE project_id = ? AND trip_id IN (SELECT id FROM telematics_trips WHERE project_id = ? AND period_id = ?)",
                  project, project, periodID)
        try c.run("DELETE FROM telematics_trips WHERE project_id = ? AND period_id = ?", project, periodID)
        var distance = 0.0
        for segment in segments {
            let trip = try insertTrip(c, project, userID: userID, vehicleID: period.int("vehicle_id"), periodID: periodID, samples: segment)
            distance += trip.metrics.distanceKm
        }
        let attention = try c.scalar("SELECT count(*) FROM telematics_attention_events WHERE project_id = ? AND user_id = ? AND end_ms >= ? AND start_ms <= ?",
                                     project, userID, start, end).int ?? 0
        try c.run("""
            UPDATE telematics_periods SET is_processed = 1, processed_at = ?, trip_count = ?, distance_km = ?, attention_event_count = ?,
                ended_ms = COALESCE(ended_ms, last_sample_ms) WHERE project_id = ? AND id = ?
            """, now.timeIntervalSince1970, segments.count, distance, attention, project, periodID)
        return segments.count
    }

    /// Inserts a trip computed from `samples` and tallies its events.
    static func insertTrip(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, vehicleID: Int?, periodID: Int?,
                           samples: [Sample]) throws -> (id: Int, metrics: TelematicsService.SampleMetrics) {
        let metrics = TelematicsService.metrics(samples)
        let first = samples.first!, last = samples.last!
        let id = try TelematicsStore.nextID(c, "telematics_trips", project)
        try c.run("""
            INSERT INTO telematics_trips (project_id, id, user_id, vehicle_id, period_id, started_ms, ended_ms, distance_km, duration_sec,
                start_lat, start_lon, end_lat, end_lon, avg_speed_kmh, max_speed_kmh, score, speeding_count, sample_speeding_count,
                speeding_duration_sec, night_distance_km)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 100, ?, ?, ?, ?)
            """, project, id, userID, vehicleID, periodID, first.timestampMs, last.timestampMs, metrics.distanceKm, metrics.durationSec,
            first.latitude, first.longitude, last.latitude, last.longitude, metrics.avgSpeedKmh, metrics.maxSpeedKmh,
            metrics.speedingCount, metrics.speedingCount, metrics.speedingDurationSec, metrics.nightDistanceKm)
        try tallyTrip(c, project, tripID: id)
        return (id, metrics)
    }

    /// Recomputes the event-derived counts and score of one trip and links manual events to it.
    static func tallyTrip(_ c: SQLiteConnection, _ project: ProjectID, tripID: Int) throws {
        guard let trip = try c.queryOne("SELECT * FROM telematics_trips WHERE project_id = ? AND id = ?", project, tripID),
              let userID = trip.int("user_id") else { return }
        let start = Int64(trip.int("started_ms") ?? 0), end = Int64(trip.int("ended_ms") ?? 0)
        let events = try drivingEvents(c, project, userID: userID, fromMs: start, toMs: end)
        let windows = try c.query("SELECT start_ms, end_ms FROM telematics_attention_events WHERE project_id = ? AND user_id = ? AND end_ms >= ? AND start_ms <= ?",
                                  project, userID, start, end).map { (Int64($0.int("start_ms") ?? 0), Int64($0.int("end_ms") ?? 0)) }
        try c.run("UPDATE telematics_manual_events SET trip_id = ? WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ?",
                  tripID, project, userID, start, end)
        let manual = try c.scalar("SELECT count(*) FROM telematics_manual_events WHERE project_id = ? AND trip_id = ?", project, tripID).int ?? 0
        let tally = TelematicsService.tally(events: events, attentionWindows: windows, manualCount: manual)
        let episodes = trip.int("sample_speeding_count") ?? 0
        try c.run("""
            UPDATE telematics_trips SET hard_braking_count = ?, abrupt_acceleration_count = ?, hard_cornering_count = ?, speeding_count = ?,
                distraction_count = ?, distraction_duration_sec = ?, manual_event_count = ?, score = ? WHERE project_id = ? AND id = ?
            """, tally.hardBraking, tally.abruptAcceleration, tally.hardCornering, tally.speeding + episodes, tally.distraction,
            tally.distractionDurationSec, tally.manual, tally.score(speedingEpisodes: episodes), project, tripID)
    }

    /// Re-tallies the user's trips overlapping a time span (after late events arrive).
    static func refreshTrips(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws {
        let ids = try c.query("SELECT id FROM telematics_trips WHERE project_id = ? AND user_id = ? AND ended_ms >= ? AND started_ms <= ?",
                              project, userID, fromMs, toMs).compactMap { $0.int("id") }
        for id in ids { try tallyTrip(c, project, tripID: id) }
    }

    static func drivingEvents(_ c: SQLiteConnection, _ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> [DrivingEvent] {
        try c.query("SELECT * FROM telematics_driving_events WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ? ORDER BY ts_ms, id",
                    project, userID, fromMs, toMs).map { row in
            DrivingEvent(type: row.string("type") ?? "", timestampMs: Int64(row.int("ts_ms") ?? 0), latitude: row.double("latitude"),
                         longitude: row.double("longitude"), durationSec: row.double("duration_sec"), value: row.double("value"))
        }
    }
}
