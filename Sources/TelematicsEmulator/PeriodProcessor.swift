import EmulatorCore
import Foundation

/// Telemetry → periods → trips [D-TM-17, D-TM-19] for one project, against the caller's
/// transaction: which samples open or extend a period, when a period closes, which trips a
/// closed period yields and how they are tallied. The decisions are `TripSegmenter`'s,
/// `SampleMetrics`' and `EventTally`'s; this type sequences them over the store's reads and writes.
struct PeriodProcessor {
    /// The store of the current transaction.
    let store: TelematicsStore
    /// The project whose data this is.
    let project: ProjectID
    /// The project's effective settings.
    let settings: TelematicsSettings
    /// The project clock.
    let now: Date

    private var idleMs: Int64 { Int64(settings.periodIdleTimeoutSeconds * 1000) }

    /// Stores a batch's new samples and events, advances the user's periods, and processes the
    /// periods that closed. Returns the number of samples accepted.
    @discardableResult
    func ingest(userID: Int, batchID: String?, batch: TelemetryBatch, vehicleID: Int?, serviceCode: String?) throws -> Int {
        var open = try store.openPeriod(project, userID: userID)
        var closed: [Int] = []
        var accepted = 0
        // Samples first (a period's rows do not depend on them), then the periods over the accepted ones.
        for sample in try store.insertNewSamples(project, userID: userID, batch.samples, batchID: batchID) {
            accepted += 1
            if var period = open, sample.timestampMs - period.lastSampleMs <= idleMs {
                period.lastSampleMs = max(period.lastSampleMs, sample.timestampMs)
                period.startedMs = min(period.startedMs, sample.timestampMs)
                period.sampleCount += 1
                open = period
                continue
            }
            if let period = open {
                try save(period, ended: true)
                closed.append(period.id)
            }
            let id = try store.insertPeriod(project, userID: userID, vehicleID: vehicleID, serviceCode: serviceCode, atMs: sample.timestampMs)
            open = try store.inserted(store.period(project, id: id))
            open?.sampleCount = 1
        }
        if let period = open { try save(period, ended: false) }
        try storeEvents(userID: userID, batch: batch, batchID: batchID)
        if settings.autoProcess {
            for id in closed { try processPeriod(id) }
        }
        let times = batch.events.map(\.timestampMs) + batch.attentionEvents.flatMap { [$0.startTimestampMs, $0.endTimestampMs] }
        if let low = times.min(), let high = times.max() { try refreshTrips(userID: userID, fromMs: low, toMs: high) }
        return accepted
    }

    private func save(_ period: PeriodRecord, ended: Bool) throws {
        try store.savePeriod(project, id: period.id, startedMs: period.startedMs, lastSampleMs: period.lastSampleMs, sampleCount: period.sampleCount, ended: ended)
    }

    /// Stores a batch's driving events (generic types named by the nearest sample's speed) and
    /// attention events; returns how many attention events were new.
    @discardableResult
    func storeEvents(userID: Int, batch: TelemetryBatch, batchID: String?) throws -> Int {
        for event in batch.events {
            var stored = event
            stored.type = DrivingEventKind.specificType(
                event.type, speedKmh: TripSegmenter.nearestSpeed(batch.samples, at: event.timestampMs),
                highSpeedKmh: settings.highSpeedKmh)
            try store.insertDrivingEvent(project, userID: userID, stored, batchID: batchID)
        }
        var added = 0
        for event in batch.attentionEvents where try store.insertAttentionEvent(project, userID: userID, event, now: now) { added += 1 }
        return added
    }

    /// Closes open periods whose last sample is older than the idle timeout on the project clock,
    /// processing them when auto-processing is on. Returns whether anything changed.
    @discardableResult
    func closeIdle(userID: Int) throws -> Bool {
        let ids = try store.idlePeriodIDs(project, userID: userID, lastSampleMs: idleLimitMs)
        for id in ids {
            try store.closePeriod(project, id: id)
            if settings.autoProcess { try processPeriod(id) }
        }
        return !ids.isEmpty
    }

    /// Whether `closeIdle` would change anything (a read-only check, so reads stay on readers).
    func hasIdle(userID: Int) throws -> Bool {
        try !store.idlePeriodIDs(project, userID: userID, lastSampleMs: idleLimitMs).isEmpty
    }

    private var idleLimitMs: Int64 { now.clampedEpochMilliseconds - idleMs }

    /// "Process now": closes the user's open periods and processes every unprocessed one.
    func processNow(userID: Int) throws -> (periods: Int, trips: Int) {
        try store.closeOpenPeriods(project, userID: userID)
        let ids = try store.unprocessedPeriodIDs(project, userID: userID)
        var trips = 0
        for id in ids { trips += try processPeriod(id) }
        return (ids.count, trips)
    }

    /// Builds the trips of a closed period (replacing any built before). Returns how many.
    @discardableResult
    func processPeriod(_ periodID: Int) throws -> Int {
        guard let period = try store.period(project, id: periodID) else { return 0 }
        let start = period.startedMs, end = period.endedMs ?? period.lastSampleMs
        let samples = try store.samples(project, userID: period.userID, fromMs: start, toMs: end, expected: period.sampleCount)
        let marks = try store.tripMarks(project, userID: period.userID, fromMs: start, toMs: end)
        let segments = TripSegmenter(settings: settings).segment(samples, starts: marks.starts, ends: marks.ends)
        try store.deleteTrips(project, periodID: periodID)
        var distance = 0.0
        for segment in segments {
            distance += try insertTrip(userID: period.userID, vehicleID: period.vehicleID, periodID: periodID, samples: segment).metrics.distanceKm
        }
        let attention = try store.attentionEventCount(project, userID: period.userID, fromMs: start, toMs: end)
        try store.markProcessed(
            project, id: periodID, tripCount: segments.count, distanceKm: distance, attentionEventCount: attention,
            at: now.timeIntervalSince1970)
        return segments.count
    }

    /// Inserts a trip measured from `samples` (at least one) and tallies its events.
    func insertTrip(userID: Int, vehicleID: Int?, periodID: Int?, samples: some RandomAccessCollection<Sample>) throws -> (id: Int, metrics: SampleMetrics) {
        let metrics = SampleMetrics(samples: samples)
        guard let first = samples.first, let last = samples.last else { throw TelematicsStoreError.tripWithoutSamples }
        let id = try store.insertTrip(project, userID: userID, vehicleID: vehicleID, periodID: periodID, first: first, last: last, metrics: metrics)
        try tallyTrip(id)
        return (id, metrics)
    }

    /// Recomputes the event-derived counts and score of one trip and links manual events to it.
    func tallyTrip(_ tripID: Int) throws {
        guard let trip = try store.trip(project, id: tripID) else { return }
        let events = try store.drivingEvents(project, userID: trip.userID, fromMs: trip.startedMs, toMs: trip.endedMs)
        let windows = try store.attentionEvents(project, userID: trip.userID, fromMs: trip.startedMs, toMs: trip.endedMs)
            .map { ($0.startTimestampMs, $0.endTimestampMs) }
        let manual = try store.linkManualEvents(project, userID: trip.userID, tripID: tripID, fromMs: trip.startedMs, toMs: trip.endedMs)
        let tally = EventTally(events: events, attentionWindows: windows, manualCount: manual)
        try store.saveTally(project, tripID: tripID, tally, speedingEpisodes: trip.sampleSpeedingCount)
    }

    /// Re-tallies the user's trips overlapping a time span (after late events arrive).
    func refreshTrips(userID: Int, fromMs: Int64, toMs: Int64) throws {
        for id in try store.tripIDs(project, userID: userID, overlappingFromMs: fromMs, toMs: toMs) { try tallyTrip(id) }
    }
}
