import EmulatorCore
import Foundation
import HTTPServer

/// Reads: trips, metrics and periods. Each first closes the user's idle periods, so what the SDK
/// reads reflects the project clock.
extension TelematicsRoutes {
    /// Authenticates and closes the user's idle periods (on the project clock) before a read.
    /// `asOf` is the change count read before this call (see `authenticate`); when closing the
    /// periods wrote, it becomes the count after that write, so that what the route reuses next
    /// was made from data that includes it (an answer kept a moment earlier, under the old count,
    /// would miss the trip this request just closed).
    private func settle(_ request: Request, _ context: TelematicsContext, asOf: inout Int?) async throws -> (user: UserRecord, project: ProjectID) {
        let readAsOf = asOf
        let (user, project, stale) = try await context.read { store -> (UserRecord, ProjectID, Bool) in
            let (user, project) = try authenticate(store, context, feature: "TRIPS", readAsOf: readAsOf)
            let processor = PeriodProcessor(store: store, project: project, settings: try effectiveSettings(store, project, cachedFor: context.core), now: context.now)
            return (user, project, try processor.hasIdle(userID: user.userID))
        }
        if stale {
            try await context.write { store in
                let processor = PeriodProcessor(store: store, project: project, settings: try effectiveSettings(store, project, cachedFor: context.core), now: context.now)
                try processor.closeIdle(userID: user.userID)
            }
            asOf = context.database.localChangeCount // the write moved it before returning
        }
        return (user, project)
    }

    /// The list is reused while the database has not changed (an SDK polling its trips gets the
    /// same bytes without the rows read and encoded again); the user is authenticated and their
    /// idle periods closed on every request, which is a write when due.
    func trips(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let range = try TelematicsService.dateRange(Self.dateQuery(request))
        var asOf = context.database.localChangeCount // before any read
        let (user, project) = try await settle(request, context, asOf: &asOf)
        let fromMs = TelematicsService.bound(range.start, Int64.min), toMs = TelematicsService.bound(range.end, Int64.max)
        let key = "telematics.trips\u{1F}\(project)\u{1F}\(user.userID)\u{1F}\(fromMs)\u{1F}\(toMs)"
        return .json(
            status: 200,
            bytes: try await reused(key, asOf: asOf, context) { store in
                TripListEncoder.encode(try store.trips(project, userID: user.userID, fromMs: fromMs, toMs: toMs))
            })
    }

    /// Reused like the list: a trip's detail with its samples is the largest read the SDK makes.
    func trip(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let includeSamples: Bool
        switch request.queryValue("includeSamples")?.lowercased() {
        case nil, "", "false", "0": includeSamples = false
        case "true", "1": includeSamples = true
        case let other?: throw TelematicsError.notAFlag("includeSamples", other)
        }
        var asOf = context.database.localChangeCount // before any read
        let (user, project) = try await settle(request, context, asOf: &asOf)
        let tripParameter = context.parameter("tripId")
        let key = "telematics.trip\u{1F}\(project)\u{1F}\(user.userID)\u{1F}\(tripParameter)\u{1F}\(includeSamples)"
        return .json(
            status: 200,
            bytes: try await reused(key, asOf: asOf, context) { store in
                guard let id = Int(tripParameter), let trip = try store.trip(project, userID: user.userID, id: id) else { throw TelematicsError.tripNotFound }
                return try Self.tripDetails(trip, store: store, project: project, includeSamples: includeSamples).encoded()
            })
    }

    /// The answer kept for `key` if the database has not changed since `asOf` was read, or
    /// `make`'s from a fresh read (see `DerivedAnswers`).
    private func reused(
        _ key: String, asOf: Int?, _ context: TelematicsContext,
        make: @escaping @Sendable (TelematicsStore) throws -> Data
    ) async throws -> Data {
        try await context.services.derivedAnswers.answer(for: key, asOf: asOf) {
            try await context.read { store in try make(store) }
        }
    }

    /// A trip with its (optional) samples, its detected and manual driving events in time order,
    /// and its attention events: the SDK's trip detail, and the control plane's inspection of it.
    static func tripDetails(_ trip: TripRecord, store: TelematicsStore, project: ProjectID, includeSamples: Bool) throws -> JSONValue {
        let (start, end, user) = (trip.startedMs, trip.endedMs, trip.userID)
        let samples = includeSamples ? try store.samples(project, userID: user, fromMs: start, toMs: end) : []
        var events = try store.drivingEvents(project, userID: user, fromMs: start, toMs: end).map {
            (
                ms: $0.timestampMs,
                value: Wire.tripEvent(
                    type: $0.type, source: "detected", ms: $0.timestampMs, latitude: $0.latitude,
                    longitude: $0.longitude, durationSec: $0.durationSec, value: $0.value)
            )
        }
        for event in try store.manualEvents(project, tripID: trip.id) where event.type.isDriving {
            events.append(
                (
                    event.timestampMs,
                    Wire.tripEvent(
                        type: event.type.rawValue, source: "manual", ms: event.timestampMs, latitude: event.latitude,
                        longitude: event.longitude, durationSec: nil, value: nil)
                ))
        }
        let attention = try store.attentionEvents(project, userID: user, fromMs: start, toMs: end)
        return Wire.adding(
            [
                "samples": .array(samples.map(Wire.sample)), "events": .array(events.sorted { $0.ms < $1.ms }.map(\.value)),
                "attentionEvents": .array(attention.map(Wire.attentionEvent)),
            ], to: Wire.tripResume(trip))
    }

    func metricsSummary(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let range = try TelematicsService.dateRange(Self.dateQuery(request))
        var asOf = context.database.localChangeCount // before any read
        let (user, project) = try await settle(request, context, asOf: &asOf)
        let totals = try await context.read { store in
            try store.tripTotals(
                project, userID: user.userID, fromMs: TelematicsService.bound(range.start, Int64.min),
                toMs: TelematicsService.bound(range.end, Int64.max))
        }
        func count(_ value: Int) -> JSONValue { .int(Int64(value)) }
        let distance = totals.distanceKm, duration = totals.durationSec
        return json([
            "from": Wire.iso(range.start?.timeIntervalSince1970), "to": Wire.iso(range.end?.timeIntervalSince1970),
            "tripCount": count(totals.trips), "distanceKm": Wire.num(distance), "durationSec": count(Int(duration)),
            "avgSpeedKmh": Wire.num(duration > 0 ? distance / (duration / 3600) : 0), "maxSpeedKmh": Wire.num(totals.maxSpeedKmh),
            "score": count(TelematicsService.score(totals)), "hardBrakingCount": count(totals.hardBraking), "abruptAccelerationCount": count(totals.abruptAcceleration),
            "hardCorneringCount": count(totals.hardCornering), "speedingDurationSec": count(totals.speedingDurationSec),
            "distractionCount": count(totals.distractionCount), "distractionDurationSec": count(totals.distractionDurationSec),
            "nightDrivingDistanceKm": Wire.num(totals.nightDistanceKm),
        ])
    }

    func activitySummary(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let range = try TelematicsService.dateRange(Self.dateQuery(request))
        var asOf = context.database.localChangeCount // before any read
        let (user, project) = try await settle(request, context, asOf: &asOf)
        let (driving, marks) = try await context.read { store -> (TripTotals, [String: Int]) in
            let low = TelematicsService.bound(range.start, Int64.min), high = TelematicsService.bound(range.end, Int64.max)
            return (
                try store.tripTotals(project, userID: user.userID, fromMs: low, toMs: high),
                try store.activityMarks(project, userID: user.userID, fromMs: low, toMs: high)
            )
        }
        var activities: [JSONValue] = [
            [
                "activity": "driving", "count": .int(Int64(driving.trips)), "durationSec": .int(Int64(driving.durationSec)),
                "distanceKm": Wire.num(driving.distanceKm),
            ]
        ]
        for name in ["passenger", "walking", "cycling", "stopped", "other"] {
            activities.append(["activity": .string(name), "count": .int(Int64(marks[name] ?? 0)), "durationSec": 0, "distanceKm": 0.0])
        }
        return json(["from": Wire.iso(range.start?.timeIntervalSince1970), "to": Wire.iso(range.end?.timeIntervalSince1970), "activities": .array(activities)])
    }

    func periods(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let range = try TelematicsService.dateRange(Self.dateQuery(request))
        let processed: Bool?
        switch request.queryValue("isProcessed")?.lowercased() {
        case nil, "": processed = nil
        case "true", "1": processed = true
        case "false", "0": processed = false
        case let other?: throw TelematicsError.notAFlag("isProcessed", other)
        }
        func positive(_ name: String, _ fallback: Int) throws(TelematicsError) -> Int {
            guard let text = request.queryValue(name), !text.isEmpty else { return fallback }
            guard let value = Int(text), value >= 1, value <= 1_000_000 else {
                throw .notAPage(name, text)
            }
            return value
        }
        let page = try positive("page", 1)
        let pageSize = min(100, try positive("pageSize", 20))
        var asOf = context.database.localChangeCount // before any read
        let (user, project) = try await settle(request, context, asOf: &asOf)
        let (total, periods) = try await context.read { store in
            try store.periods(
                project, userID: user.userID, fromMs: TelematicsService.bound(range.start, Int64.min),
                toMs: TelematicsService.bound(range.end, Int64.max), processed: processed,
                page: page, pageSize: pageSize)
        }
        let pages = (total + pageSize - 1) / pageSize
        return json([
            "items": .array(periods.map(Wire.period)), "page": .int(Int64(page)), "pageSize": .int(Int64(pageSize)),
            "totalItems": .int(Int64(total)), "totalPages": .int(Int64(pages)), "hasNext": .bool(page < pages),
        ])
    }

    func period(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        var asOf = context.database.localChangeCount // before any read
        let (user, project) = try await settle(request, context, asOf: &asOf)
        let parameter = context.parameter("periodId")
        let period = try await context.read { store -> PeriodRecord in
            guard let id = Int(parameter), let period = try store.period(project, userID: user.userID, id: id) else {
                throw TelematicsError.periodNotFound
            }
            return period
        }
        return json(Wire.period(period))
    }
}
