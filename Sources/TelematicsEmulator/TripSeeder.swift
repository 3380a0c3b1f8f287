import EmulatorCore
import Foundation

/// Direct seeding of trips and periods (control plane and fixtures), bypassing telemetry: a
/// seeded trip gets its own processed period, and is never split or filtered.
struct TripSeeder {
    /// The processor whose store, project, settings and clock seeding shares.
    let processor: PeriodProcessor

    private var store: TelematicsStore { processor.store }
    private var project: ProjectID { processor.project }
    private var now: Date { processor.now }

    /// Seeds one trip: from samples (measured like uploaded telemetry), or from summary numbers alone.
    func trip(_ body: TelematicsAdmin.TripBody) throws -> TripRecord {
        let periodID: Int
        let tripID: Int
        var sampleCount = 0, attentionCount = 0
        let distance: Double
        if let raw = body.samples, !raw.isEmpty {
            let document: JSONValue = .object(["samples": .array(raw), "events": .array(body.events ?? []), "attentionEvents": .array(body.attentionEvents ?? [])])
            let batch: TelemetryBatch
            do { batch = try TelemetryParser.parseBatch(document.encoded()) } catch { throw AdminError.badRequest(error.message) }
            guard let first = batch.samples.first, let last = batch.samples.last, batch.samples.count >= 2 else {
                throw AdminError.badRequest("A seeded trip needs at least two samples.")
            }
            periodID = try store.insertSeededPeriod(
                project, userID: body.userId, vehicleID: body.vehicleId, serviceCode: nil, startedMs: first.timestampMs,
                lastSampleMs: last.timestampMs, endedMs: last.timestampMs, processedAt: now.timeIntervalSince1970,
                sampleCount: batch.samples.count)
            for sample in batch.samples where try store.insertSample(project, userID: body.userId, sample, batchID: nil) { sampleCount += 1 }
            attentionCount = try processor.storeEvents(userID: body.userId, batch: batch, batchID: nil)
            let inserted = try processor.insertTrip(userID: body.userId, vehicleID: body.vehicleId, periodID: periodID, samples: batch.samples)
            tripID = inserted.id
            distance = inserted.metrics.distanceKm
        } else {
            guard let started = body.startedAt.flatMap(Timestamp.parse), let ended = body.endedAt.flatMap(Timestamp.parse), let km = body.distanceKm else {
                throw AdminError.badRequest("A trip needs `samples`, or `startedAt`, `endedAt` (ISO 8601) and `distanceKm`.")
            }
            guard ended > started, km >= 0 else { throw AdminError.badRequest("`endedAt` must be after `startedAt` and `distanceKm` not negative.") }
            let startMs = started.clampedEpochMilliseconds
            let endMs = ended.clampedEpochMilliseconds
            distance = km
            let duration = Int(ended.timeIntervalSince(started).rounded()) // checked: both parsed, inside Timestamp.range
            let average = km / (Double(duration) / 3600)
            periodID = try store.insertSeededPeriod(
                project, userID: body.userId, vehicleID: body.vehicleId, serviceCode: nil, startedMs: startMs,
                lastSampleMs: endMs, endedMs: endMs, processedAt: now.timeIntervalSince1970, sampleCount: 0)
            tripID = try store.insertSummaryTrip(
                project, userID: body.userId, vehicleID: body.vehicleId, periodID: periodID, startedMs: startMs, endedMs: endMs,
                distanceKm: km, durationSec: duration, avgSpeedKmh: average, maxSpeedKmh: body.maxSpeedKmh ?? average)
            try processor.tallyTrip(tripID)
        }
        try store.setPeriodResults(project, id: periodID, tripCount: 1, distanceKm: distance, attentionEventCount: attentionCount, sampleCount: sampleCount)
        return try store.inserted(store.trip(project, id: tripID))
    }

    /// Seeds `count` periods starting at `start`, `spacingSeconds` apart (default one hour).
    func periods(_ body: TelematicsAdmin.PeriodBody, start: Date, end: Date?, count: Int) throws -> [PeriodRecord] {
        var periods: [PeriodRecord] = []
        let spacing = TelemetryParser.wholeMs((body.spacingSeconds ?? 3600) * 1000) ?? 3_600_000
        let processed = body.isProcessed ?? (end != nil)
        for index in 0..<count {
            // At most 1000 periods of at most 1e15 ms: the products stay below 1e18.
            let startMs = start.clampedEpochMilliseconds + Int64(index) * spacing
            let endMs = end.map { $0.clampedEpochMilliseconds + Int64(index) * spacing }
            // An open seeded period is one whose last sample is its start, so the idle rule closes it
            // like any other: once the project clock passes `startedAt` + `periodIdleTimeoutSeconds`.
            let id = try store.insertSeededPeriod(
                project, userID: body.userId, vehicleID: body.vehicleId, serviceCode: body.serviceCode, startedMs: startMs,
                lastSampleMs: endMs ?? startMs, endedMs: endMs, processedAt: processed ? now.timeIntervalSince1970 : nil,
                sampleCount: 0)
            periods.append(try store.inserted(store.period(project, id: id)))
        }
        return periods
    }

    /// Samples of a straight drive from `from` to `to`, one every `intervalSec` seconds.
    static func syntheticDrive(startMs: Int64, from: (Double, Double), to: (Double, Double), durationSec: Int, intervalSec: Int = 5) -> [JSONValue] {
        let steps = max(2, durationSec / max(1, intervalSec))
        var samples: [JSONValue] = []
        for step in 0...steps {
            let fraction = Double(step) / Double(steps)
            let latitude = from.0 + (to.0 - from.0) * fraction
            let longitude = from.1 + (to.1 - from.1) * fraction
            samples.append([
                "timestampMs": .int(startMs + Int64(step * intervalSec * 1000)), "latitude": .double(latitude), "longitude": .double(longitude),
                "horizontalAccuracyM": 5.0,
            ])
        }
        return samples
    }
}
