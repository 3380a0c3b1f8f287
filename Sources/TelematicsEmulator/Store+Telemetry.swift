import EmulatorCore
import Foundation
import Storage

/// Batches, samples, periods and events: what telemetry uploads and seeding write.
extension TelematicsStore {
    // MARK: Batches

    /// A known batch's original answer (accepted samples, receipt time), counting the repeat.
    func repeatBatch(_ project: ProjectID, batchID: String) throws -> (accepted: Int, receivedAt: Double)? {
        guard let batch = try connection.fetchOne(BatchRecord.self, "SELECT * FROM telematics_batches WHERE project_id = ? AND batch_id = ?", project, batchID) else {
            return nil
        }
        try connection.run("UPDATE telematics_batches SET repeat_count = repeat_count + 1 WHERE project_id = ? AND batch_id = ?", project, batchID)
        return (batch.sampleCount, batch.receivedAt)
    }

    /// Stores what a batch was, for repeats and inspection.
    func insertBatch(
        _ project: ProjectID, batchID: String, userID: Int, batch: TelemetryBatch, vehicleID: Int?, serviceCode: String?,
        accepted: Int, at time: Double
    ) throws {
        try connection.run(
            """
            INSERT INTO telematics_batches (project_id, batch_id, user_id, declared_user_id, vehicle_id, service_code, device_id, sample_count,
                event_count, attention_event_count, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, batchID, userID, batch.userId, vehicleID, serviceCode, batch.deviceId, accepted, batch.events.count,
            batch.attentionEvents.count, time)
    }

    /// Batches in receipt order, of one user or of all.
    func batches(_ project: ProjectID, userID: Int?) throws -> [BatchRecord] {
        // One statement per filter, so that one user's batches come from (project, user, received_at).
        guard let userID else {
            return try connection.fetchAll(BatchRecord.self, "SELECT * FROM telematics_batches WHERE project_id = ? ORDER BY received_at, rowid", project)
        }
        return try connection.fetchAll(
            BatchRecord.self, "SELECT * FROM telematics_batches WHERE project_id = ? AND user_id = ? ORDER BY received_at, rowid",
            project, userID)
    }

    // MARK: Samples

    /// Stores a sample; false when the user already has one at that millisecond.
    func insertSample(_ project: ProjectID, userID: Int, _ sample: Sample, batchID: String?) throws -> Bool {
        try connection.run(
            """
            INSERT OR IGNORE INTO telematics_samples (project_id, user_id, ts_ms, latitude, longitude, speed_kmh, course_deg, accuracy_m,
                altitude_m, speed_limit_kmh, phone_in_use, batch_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, userID, sample.timestampMs, sample.latitude, sample.longitude, sample.speedKmh, sample.courseDeg,
            sample.horizontalAccuracyM, sample.altitudeM, sample.speedLimitKmh, sample.phoneInUse, batchID) > 0
    }

    /// Stores the samples the user has no sample at the same millisecond for, in order, and returns
    /// them: what `insertSample` one by one would have stored and accepted, in a handful of
    /// multi-row statements (one range read finds the milliseconds already stored).
    func insertNewSamples(_ project: ProjectID, userID: Int, _ samples: [Sample], batchID: String?) throws -> [Sample] {
        guard var low = samples.first?.timestampMs else { return [] }
        var high = low
        for sample in samples { low = min(low, sample.timestampMs); high = max(high, sample.timestampMs) }
        var taken = Set<Int64>(minimumCapacity: samples.count)
        for time in try connection.integers(
            "SELECT ts_ms FROM telematics_samples WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ?",
            project, userID, low, high)
        {
            taken.insert(Int64(time))
        }
        var fresh: [Sample] = []
        fresh.reserveCapacity(samples.count)
        for sample in samples where taken.insert(sample.timestampMs).inserted { fresh.append(sample) }
        var start = 0
        while start < fresh.count {
            let size = Self.sampleRowsPerInsert.first { $0 <= fresh.count - start } ?? 1
            // Values, not `SQLBindable`s: converting 9,000 optionals through the protocol was a tenth of an upload's CPU.
            var values: [SQLValue] = [.text(project), .integer(Int64(userID)), batchID.map(SQLValue.text) ?? .null]
            values.reserveCapacity(3 + 9 * size)
            for sample in fresh[start..<(start + size)] {
                values.append(.integer(sample.timestampMs)); values.append(.real(sample.latitude)); values.append(.real(sample.longitude))
                values.append(Self.value(sample.speedKmh)); values.append(Self.value(sample.courseDeg))
                values.append(Self.value(sample.horizontalAccuracyM)); values.append(Self.value(sample.altitudeM))
                values.append(Self.value(sample.speedLimitKmh)); values.append(sample.phoneInUse.map { .integer($0 ? 1 : 0) } ?? .null)
            }
            // A plain INSERT: every row was checked above, so a conflict would be a bug and must not pass silently.
            try connection.run(Self.sampleInsertSQL[size] ?? "", values: values)
            start += size
        }
        return fresh
    }

    private static let sampleColumns = Sample.columns.joined(separator: ", ")

    private static func value(_ number: Double?) -> SQLValue { number.map(SQLValue.real) ?? .null }

    /// Statement sizes, largest first: few distinct statements for the connection's cache.
    private static let sampleRowsPerInsert = [64, 16, 4, 1]

    /// `INSERT … VALUES (…), (…)…` for each size; ?1–?3 (project, user, batch) are shared by every row.
    private static let sampleInsertSQL: [Int: String] = Dictionary(uniqueKeysWithValues: sampleRowsPerInsert.map { size in (size, sampleInsert(rows: size)) })

    private static func sampleInsert(rows count: Int) -> String {
        let rows = (0..<count).map { row -> String in
            let first = 4 + row * 9
            return "(?1, ?2, " + (first..<(first + 9)).map { "?\($0)" }.joined(separator: ", ") + ", ?3)"
        }
        return "INSERT INTO telematics_samples (project_id, user_id, ts_ms, latitude, longitude, speed_kmh, course_deg, accuracy_m, altitude_m, "
            + "speed_limit_kmh, phone_in_use, batch_id) VALUES " + rows.joined(separator: ", ")
    }

    /// A user's samples in `[fromMs, toMs]`, in time order; `expected`, how many there should be,
    /// sizes the array once instead of growing it through fresh pages.
    func samples(_ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64, expected: Int = 0) throws -> [Sample] {
        var samples: [Sample] = []
        samples.reserveCapacity(max(0, min(expected, 10_000_000)))
        try connection.forEachRow(
            "SELECT \(Self.sampleColumns) FROM telematics_samples WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ? ORDER BY ts_ms",
            bindings: [project, userID, fromMs, toMs]
        ) { row in samples.append(try Sample(positional: row)) }
        return samples
    }

    // MARK: Periods

    /// The user's newest open period.
    func openPeriod(_ project: ProjectID, userID: Int) throws -> PeriodRecord? {
        try connection.fetchOne(
            PeriodRecord.self, "SELECT * FROM telematics_periods WHERE project_id = ? AND user_id = ? AND ended_ms IS NULL ORDER BY id DESC LIMIT 1",
            project, userID)
    }

    /// One period, whoever owns it.
    func period(_ project: ProjectID, id: Int) throws -> PeriodRecord? {
        try connection.fetchOne(PeriodRecord.self, "SELECT * FROM telematics_periods WHERE project_id = ? AND id = ?", project, id)
    }

    /// One of the user's periods.
    func period(_ project: ProjectID, userID: Int, id: Int) throws -> PeriodRecord? {
        try connection.fetchOne(PeriodRecord.self, "SELECT * FROM telematics_periods WHERE project_id = ? AND id = ? AND user_id = ?", project, id, userID)
    }

    /// Opens a period at a first sample (its count is saved with `savePeriod`).
    func insertPeriod(_ project: ProjectID, userID: Int, vehicleID: Int?, serviceCode: String?, atMs time: Int64) throws -> Int {
        let id = try nextID(project, "telematics_periods")
        try connection.run(
            """
            INSERT INTO telematics_periods (project_id, id, user_id, vehicle_id, service_code, started_ms, last_sample_ms, sample_count)
            VALUES (?, ?, ?, ?, ?, ?, ?, 0)
            """, project, id, userID, vehicleID, serviceCode, time, time)
        return id
    }

    /// Stores a seeded period as given; returns its id.
    func insertSeededPeriod(
        _ project: ProjectID, userID: Int, vehicleID: Int?, serviceCode: String?, startedMs: Int64, lastSampleMs: Int64,
        endedMs: Int64?, processedAt: Double?, sampleCount: Int
    ) throws -> Int {
        let id = try nextID(project, "telematics_periods")
        try connection.run(
            """
            INSERT INTO telematics_periods (project_id, id, user_id, vehicle_id, service_code, started_ms, last_sample_ms, ended_ms, is_processed,
                processed_at, sample_count) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, userID, vehicleID, serviceCode, startedMs, lastSampleMs, endedMs, processedAt != nil, processedAt, sampleCount)
        return id
    }

    /// Saves an open period's bounds and count, closing it at its last sample when `ended`.
    func savePeriod(_ project: ProjectID, id: Int, startedMs: Int64, lastSampleMs: Int64, sampleCount: Int, ended: Bool) throws {
        try connection.run(
            "UPDATE telematics_periods SET started_ms = ?, last_sample_ms = ?, sample_count = ?, ended_ms = ? WHERE project_id = ? AND id = ?",
            startedMs, lastSampleMs, sampleCount, ended ? lastSampleMs : nil, project, id)
    }

    /// Ids of the user's open periods whose last sample is at or before `lastSampleMs`.
    func idlePeriodIDs(_ project: ProjectID, userID: Int, lastSampleMs: Int64) throws -> [Int] {
        try connection.query(
            "SELECT id FROM telematics_periods WHERE project_id = ? AND user_id = ? AND ended_ms IS NULL AND last_sample_ms <= ?",
            project, userID, lastSampleMs
        ).map { try $0.decode("id") }
    }

    /// Closes one period at its last sample.
    func closePeriod(_ project: ProjectID, id: Int) throws {
        try connection.run("UPDATE telematics_periods SET ended_ms = last_sample_ms WHERE project_id = ? AND id = ?", project, id)
    }

    /// Closes every open period of the user at its last sample.
    func closeOpenPeriods(_ project: ProjectID, userID: Int) throws {
        try connection.run("UPDATE telematics_periods SET ended_ms = last_sample_ms WHERE project_id = ? AND user_id = ? AND ended_ms IS NULL", project, userID)
    }

    /// Ids of the user's unprocessed periods, oldest first.
    func unprocessedPeriodIDs(_ project: ProjectID, userID: Int) throws -> [Int] {
        try connection.query("SELECT id FROM telematics_periods WHERE project_id = ? AND user_id = ? AND is_processed = 0 ORDER BY id", project, userID)
            .map { try $0.decode("id") }
    }

    /// Marks a period processed with its trip results.
    func markProcessed(_ project: ProjectID, id: Int, tripCount: Int, distanceKm: Double, attentionEventCount: Int, at time: Double) throws {
        try connection.run(
            """
            UPDATE telematics_periods SET is_processed = 1, processed_at = ?, trip_count = ?, distance_km = ?, attention_event_count = ?,
                ended_ms = COALESCE(ended_ms, last_sample_ms) WHERE project_id = ? AND id = ?
            """, time, tripCount, distanceKm, attentionEventCount, project, id)
    }

    /// Sets a seeded trip's period's results.
    func setPeriodResults(_ project: ProjectID, id: Int, tripCount: Int, distanceKm: Double, attentionEventCount: Int, sampleCount: Int) throws {
        try connection.run(
            "UPDATE telematics_periods SET trip_count = ?, distance_km = ?, attention_event_count = ?, sample_count = ? WHERE project_id = ? AND id = ?",
            tripCount, distanceKm, attentionEventCount, sampleCount, project, id)
    }

    /// One page of the user's periods starting in range, newest first, and the total.
    func periods(
        _ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64, processed: Bool?, page: Int,
        pageSize: Int
    ) throws -> (total: Int, periods: [PeriodRecord]) {
        let filter = "project_id = ? AND user_id = ? AND started_ms >= ? AND started_ms <= ? AND (? IS NULL OR is_processed = ?)"
        let arguments: [any SQLBindable] = [project, userID, fromMs, toMs, processed, processed]
        let total: Int = try connection.query("SELECT count(*) AS n FROM telematics_periods WHERE " + filter, bindings: arguments).first?.decode("n") ?? 0
        let periods = try connection.query(
            "SELECT * FROM telematics_periods WHERE " + filter + " ORDER BY started_ms DESC, id DESC LIMIT ? OFFSET ?",
            bindings: arguments + [pageSize, (page - 1) * pageSize]
        ).map { try PeriodRecord(row: $0) }
        return (total, periods)
    }

    /// Periods newest first, of one user or of all.
    func allPeriods(_ project: ProjectID, userID: Int?) throws -> [PeriodRecord] {
        // One statement per filter, so that one user's periods come from (project, user, started_ms, id).
        guard let userID else {
            return try connection.fetchAll(PeriodRecord.self, "SELECT * FROM telematics_periods WHERE project_id = ? ORDER BY started_ms DESC, id DESC", project)
        }
        return try connection.fetchAll(
            PeriodRecord.self, "SELECT * FROM telematics_periods WHERE project_id = ? AND user_id = ? ORDER BY started_ms DESC, id DESC",
            project, userID)
    }

    // MARK: Driving and attention events

    /// Stores a driving event under its specific type.
    func insertDrivingEvent(_ project: ProjectID, userID: Int, _ event: DrivingEvent, batchID: String?) throws {
        let id = try nextID(project, "telematics_driving_events")
        try connection.run(
            """
            INSERT INTO telematics_driving_events (project_id, id, user_id, type, ts_ms, latitude, longitude, duration_sec, value, batch_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, id, userID, event.type, event.timestampMs, event.latitude, event.longitude, event.durationSec, event.value, batchID)
    }

    /// A user's driving events in `[fromMs, toMs]`, in time order.
    func drivingEvents(_ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> [DrivingEvent] {
        try connection.fetchAll(
            DrivingEvent.self, "SELECT * FROM telematics_driving_events WHERE project_id = ? AND user_id = ? AND ts_ms >= ? AND ts_ms <= ? ORDER BY ts_ms, id",
            project, userID, fromMs, toMs)
    }

    /// Stores an attention event; false (and a counted duplicate) when its id is known.
    func insertAttentionEvent(_ project: ProjectID, userID: Int, _ event: AttentionEvent, now: Date) throws -> Bool {
        let inserted = try connection.run(
            """
            INSERT OR IGNORE INTO telematics_attention_events (project_id, id, user_id, type, start_ms, end_ms, confidence, average_speed_mps,
                latitude, longitude, horizontal_accuracy_m, location_timestamp_ms, detector_version, received_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, project, event.id, userID, event.type, event.startTimestampMs, event.endTimestampMs, event.confidence, event.averageSpeedMps,
            event.latitude, event.longitude, event.horizontalAccuracyM, event.locationTimestampMs, event.detectorVersion, now.timeIntervalSince1970)
        if inserted == 0 {
            try connection.run("UPDATE telematics_attention_events SET duplicate_count = duplicate_count + 1 WHERE project_id = ? AND id = ?", project, event.id)
            return false
        }
        return true
    }

    /// A user's attention events whose window overlaps `[fromMs, toMs]`.
    func attentionEvents(_ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> [AttentionEvent] {
        try connection.fetchAll(
            AttentionEvent.self, "SELECT * FROM telematics_attention_events WHERE project_id = ? AND user_id = ? AND end_ms >= ? AND start_ms <= ? ORDER BY start_ms, id",
            project, userID, fromMs, toMs)
    }

    /// Attention events with the first trip each overlaps, of one user or of all.
    func attentionEventRecords(_ project: ProjectID, userID: Int?) throws -> [AttentionEventRecord] {
        // One statement per filter, so that one user's events come from (project, user, start_ms, id).
        // The first trip is the least id among the user's trips that overlap. Asked as `ORDER BY
        // t.id LIMIT 1` (or `min(t.id)`), SQLite walked the project's trips in id order through every
        // other user's until one overlapped (all of them, for an event outside any trip); the unary
        // `+` keeps it on the user's trips, by (project, user, started_ms).
        let select = """
            SELECT a.*, (SELECT min(+t.id) FROM telematics_trips t WHERE t.project_id = a.project_id AND t.user_id = a.user_id
                AND t.ended_ms >= a.start_ms AND t.started_ms <= a.end_ms) AS trip_id
            FROM telematics_attention_events a WHERE a.project_id = ?
            """
        guard let userID else {
            return try connection.fetchAll(AttentionEventRecord.self, select + " ORDER BY a.start_ms, a.id", project)
        }
        return try connection.fetchAll(AttentionEventRecord.self, select + " AND a.user_id = ? ORDER BY a.start_ms, a.id", project, userID)
    }

    /// How many of the user's attention events overlap `[fromMs, toMs]`.
    func attentionEventCount(_ project: ProjectID, userID: Int, fromMs: Int64, toMs: Int64) throws -> Int {
        try connection.scalar(
            "SELECT count(*) FROM telematics_attention_events WHERE project_id = ? AND user_id = ? AND end_ms >= ? AND start_ms <= ?",
            project, userID, fromMs, toMs
        ).int ?? 0
    }
}
