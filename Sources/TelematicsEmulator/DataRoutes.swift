import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore

/// SDK routes for driving data: telemetry, attention and manual events, trips, metrics, periods.
enum TelematicsDataRoutes {
    typealias R = TelematicsRoutes

    static func routes(api: String) -> [Route] {
        var routes: [Route] = []

        // MARK: Uploads

        routes.append(R.route(.post, api + "/telemetry") { request, context in
            let project = context.projectID
            let token = R.bearer(request)
            // Authenticate before reading the body, so a bad token is a 401 whatever the body.
            let limit = try await context.database.read { c in
                _ = try R.authenticate(c, token: token, project: project, now: context.now, feature: "TRIPS")
                return try TelematicsStore.settings(c, project!).maxBatchBytes
            }
            var body = request.body
            // Gzip is recognised by its magic bytes too, for clients that forget Content-Encoding.
            if body.count >= 2, body[body.startIndex] == 0x1f, body[body.startIndex + 1] == 0x8b {
                do throws(Gzip.Failure) { body = try Gzip.decompress(body, limit: limit) } catch {
                    if case .tooLarge = error { throw TelematicsError.batchTooLarge(limit) }
                    throw TelematicsError.invalidBatch("The gzip body is corrupt.")
                }
            }
            if body.count > limit { throw TelematicsError.batchTooLarge(limit) }
            let batch = try TelematicsService.parseBatch(body)
            let headerCode = request.headers["x-service-code"]
            let generated = context.services.generateIDs(for: project) { $0.uuid() }
            let now = context.now
            let (result, duplicate) = try await context.database.write { c -> (JSONValue, Bool) in
                let user = try R.authenticate(c, token: token, project: project, now: now, feature: "TRIPS")
                let project = project!
                let settings = try TelematicsStore.settings(c, project)
                let serviceCode = batch.serviceCode ?? headerCode
                if let allowList = settings.serviceCodes, let serviceCode {
                    guard let entry = allowList.first(where: { $0.code == serviceCode }) else {
                        throw TelematicsError.accessDenied("Service code `\(serviceCode)` is not allowed.")
                    }
                    if let features = entry.features, !features.contains("TRIPS") {
                        throw TelematicsError.accessDenied("Service code `\(serviceCode)` does not include the TRIPS feature.")
                    }
                }
                let batchID = batch.batchId ?? generated
                if let original = try TelematicsStore.repeatBatch(c, project, batchID: batchID) {
                    return (["batchId": .string(batchID), "accepted": .int(Int64(original.accepted)), "receivedAt": Wire.iso(original.receivedAt),
                             "duplicate": true], true)
                }
                let vehicleID = batch.vehicleId ?? user.currentVehicleID
                let accepted = try TelematicsProcessing.ingest(c, project, userID: user.userID, batchID: batchID, batch: batch, vehicleID: vehicleID,
                                                               serviceCode: serviceCode, settings: settings, now: now)
                try TelematicsStore.insertBatch(c, project, batchID: batchID, userID: user.userID, batch: batch, vehicleID: vehicleID,
                                                serviceCode: serviceCode, accepted: accepted, at: now.timeIntervalSince1970)
                return (["batchId": .string(batchID), "accepted": .int(Int64(accepted)), "receivedAt": Wire.iso(now.timeIntervalSince1970)], false)
            }
            return R.json(result, status: duplicate ? 200 : 202)
        })

        routes.append(R.route(.post, api + "/attention-events") { request, context in
            guard let root = try? TelematicsService.parseJSON(request.body) else { throw TelematicsError.invalidRequest("The body must be JSON: `{\"events\": [...]}` or an array.") }
            let token = R.bearer(request)
            let project = context.projectID
            _ = try await context.database.read { c in try R.authenticate(c, token: token, project: project, now: context.now, feature: "ATTENTION") }
            guard let list = root.arrayValue ?? root["events"]?.arrayValue else { throw TelematicsError.invalidRequest("`events` must be an array.") }
            var events: [AttentionEvent] = []
            for (index, raw) in list.enumerated() { events.append(try TelematicsService.parseAttentionEvent(raw, index: index)) }
            let now = context.now
            let parsed = events
            let (accepted, duplicates) = try await context.database.write { c -> (Int, Int) in
                let user = try R.authenticate(c, token: token, project: project, now: now, feature: "ATTENTION")
                var accepted = 0, duplicates = 0
                for event in parsed {
                    if try TelematicsProcessing.insertAttentionEvent(c, project!, userID: user.userID, event: event, now: now) { accepted += 1 } else { duplicates += 1 }
                }
                if let low = parsed.map(\.startTimestampMs).min(), let high = parsed.map(\.endTimestampMs).max() {
                    try TelematicsProcessing.refreshTrips(c, project!, userID: user.userID, fromMs: low, toMs: high)
                }
                return (accepted, duplicates)
            }
            return R.json(["accepted": .int(Int64(accepted)), "duplicates": .int(Int64(duplicates))], status: 202)
        })

        routes.append(R.route(.post, api + "/manual-events") { request, context in
            let body = try R.objectBody(request)
            guard let rawType = body["type"], let type = ManualEventType.parse(rawType) else {
                throw TelematicsError.invalidEventType(body["type"].map { $0.stringValue ?? String(decoding: $0.encoded(), as: UTF8.self) } ?? "(missing)")
            }
            var clientID: String?
            if let value = body["id"], !value.isNull {
                guard let text = value.stringValue, UUID(uuidString: text) != nil else { throw TelematicsError.invalidRequest("`id` must be a UUID.") }
                clientID = text.lowercased()
            }
            var timeMs = Int64((context.now.timeIntervalSince1970 * 1000).rounded())
            if let value = body["timestampMs"], !value.isNull {
                guard let number = value.doubleValue.flatMap(TelematicsService.wholeMs) else {
                    throw TelematicsError.invalidDate("timestampMs", String(decoding: value.encoded(), as: UTF8.self))
                }
                timeMs = number
            } else if let value = body["timestamp"], !value.isNull {
                guard let text = value.stringValue, let date = Timestamp.parse(text) else {
                    throw TelematicsError.invalidDate("timestamp", value.stringValue ?? String(decoding: value.encoded(), as: UTF8.self))
                }
                timeMs = Int64((date.timeIntervalSince1970 * 1000).rounded())
            }
            func number(_ key: String) throws(TelematicsError) -> Double? {
                guard let value = body[key], !value.isNull else { return nil }
                guard let number = value.doubleValue else { throw .invalidRequest("`\(key)` must be a number.") }
                return number
            }
            let latitude = try number("latitude"), longitude = try number("longitude")
            let accuracy = try number("horizontalAccuracyM"), locationTime = try number("locationTimestampMs")
            var vehicleValue: Int?
            if let value = body["vehicleId"], !value.isNull {
                guard let id = value.intValue else { throw TelematicsError.invalidRequest("`vehicleId` must be an integer.") }
                vehicleValue = id
            }
            if let time = locationTime, TelematicsService.wholeMs(time) == nil { throw TelematicsError.invalidRequest("`locationTimestampMs` is out of range.") }
            let input = TelematicsStore.ManualEventInput(clientID: clientID, type: type, timeMs: timeMs, latitude: latitude, longitude: longitude,
                                                         accuracy: accuracy, locationTimeMs: locationTime.flatMap(TelematicsService.wholeMs), vehicleID: vehicleValue)
            let token = R.bearer(request)
            let project = context.projectID
            let now = context.now
            let (row, created) = try await context.database.write { c -> (Row, Bool) in
                let user = try R.authenticate(c, token: token, project: project, now: now, feature: "TRIPS")
                let project = project!
                if let clientID = input.clientID, let existing = try TelematicsStore.manualEvent(c, project, clientID: clientID) { return (existing, false) }
                let settings = try TelematicsStore.settings(c, project)
                var stored = input
                stored.vehicleID = input.vehicleID ?? user.currentVehicleID
                return (try TelematicsStore.insertManualEvent(c, project, userID: user.userID, stored, idleMs: Int64(settings.periodIdleTimeoutSeconds * 1000),
                                                              at: now.timeIntervalSince1970), true)
            }
            return R.json(Wire.manualEvent(row), status: created ? 201 : 200)
        })

        // MARK: Reads

        routes.append(R.route(.get, api + "/trips") { request, context in
            let range = try TelematicsService.dateRange(request.queryItems)
            let user = try await settle(request, context)
            let trips = try await context.database.read { c in
                try TelematicsStore.trips(c, context.projectID!, userID: user.userID, fromMs: bound(range.start, Int64.min), toMs: bound(range.end, Int64.max))
            }
            return R.json(.array(trips.map(Wire.tripResume)))
        })

        routes.append(R.route(.get, api + "/trips/{tripId}") { request, context in
            let includeSamples: Bool
            switch request.queryValue("includeSamples")?.lowercased() {
            case nil, "", "false", "0": includeSamples = false
            case "true", "1": includeSamples = true
            case let other?: throw TelematicsError.invalidRequest("`includeSamples` must be true or false; got `\(other)`.")
            }
            let user = try await settle(request, context)
            let tripParameter = context.parameter("tripId")
            let body = try await context.database.read { c -> JSONValue in
                let project = context.projectID!
                guard let id = Int(tripParameter),
                      let trip = try TelematicsStore.trip(c, project, userID: user.userID, id: id) else {
                    throw TelematicsError.tripNotFound
                }
                let start = Int64(trip.int("started_ms") ?? 0), end = Int64(trip.int("ended_ms") ?? 0)
                guard case .object(var members) = Wire.tripResume(trip) else { return .null }
                let samples = includeSamples ? try TelematicsProcessing.samples(c, project, userID: user.userID, fromMs: start, toMs: end) : []
                members["samples"] = .array(samples.map(Wire.sample))
                var events = try TelematicsProcessing.drivingEvents(c, project, userID: user.userID, fromMs: start, toMs: end).map {
                    (ms: $0.timestampMs, value: Wire.tripEvent(type: $0.type, source: "detected", ms: $0.timestampMs, latitude: $0.latitude,
                                                               longitude: $0.longitude, durationSec: $0.durationSec, value: $0.value))
                }
                for row in try TelematicsStore.manualEvents(c, project, tripID: id) {
                    guard let type = ManualEventType(rawValue: row.string("type") ?? ""), type.isDriving else { continue }
                    let ms = Int64(row.int("ts_ms") ?? 0)
                    events.append((ms, Wire.tripEvent(type: type.rawValue, source: "manual", ms: ms, latitude: row.double("latitude"),
                                                      longitude: row.double("longitude"), durationSec: nil, value: nil)))
                }
                members["events"] = .array(events.sorted { $0.ms < $1.ms }.map(\.value))
                members["attentionEvents"] = .array(try TelematicsStore.attentionEvents(c, project, userID: user.userID, fromMs: start, toMs: end).map(Wire.attentionEvent))
                return .object(members)
            }
            return R.json(body)
        })

        routes.append(R.route(.get, api + "/metrics/summary") { request, context in
            let range = try TelematicsService.dateRange(request.queryItems)
            let user = try await settle(request, context)
            let row = try await context.database.read { c in
                try TelematicsStore.tripTotals(c, context.projectID!, userID: user.userID, fromMs: bound(range.start, Int64.min), toMs: bound(range.end, Int64.max))
            }
            let distance = row.double("distance") ?? 0, duration = row.double("duration") ?? 0
            let score = distance > 0 ? (row.double("weighted_score") ?? 0) / distance : (row.double("mean_score") ?? 100)
            func count(_ key: String) -> JSONValue { .int(Int64(row.int(key) ?? 0)) }
            return R.json([
                "from": Wire.iso(range.start?.timeIntervalSince1970), "to": Wire.iso(range.end?.timeIntervalSince1970),
                "tripCount": count("trips"), "distanceKm": Wire.num(distance), "durationSec": count("duration"),
                "avgSpeedKmh": Wire.num(duration > 0 ? distance / (duration / 3600) : 0), "maxSpeedKmh": Wire.num(row.double("max_speed") ?? 0),
                "score": .int(Int64(score.rounded())), "hardBrakingCount": count("hb"), "abruptAccelerationCount": count("aa"),
                "hardCorneringCount": count("hc"), "speedingDurationSec": count("sd"), "distractionCount": count("dc"),
                "distractionDurationSec": count("dd"), "nightDrivingDistanceKm": Wire.num(row.double("night") ?? 0),
            ])
        })

        routes.append(R.route(.get, api + "/metrics/activity-summary") { request, context in
            let range = try TelematicsService.dateRange(request.queryItems)
            let user = try await settle(request, context)
            let (driving, marks) = try await context.database.read { c -> (Row, [String: Int]) in
                let low = bound(range.start, Int64.min), high = bound(range.end, Int64.max)
                return (try TelematicsStore.tripTotals(c, context.projectID!, userID: user.userID, fromMs: low, toMs: high),
                        try TelematicsStore.activityMarks(c, context.projectID!, userID: user.userID, fromMs: low, toMs: high))
            }
            var activities: [JSONValue] = [[
                "activity": "driving", "count": .int(Int64(driving.int("trips") ?? 0)), "durationSec": .int(Int64(driving.int("duration") ?? 0)),
                "distanceKm": Wire.num(driving.double("distance") ?? 0),
            ]]
            for name in ["passenger", "walking", "cycling", "stopped", "other"] {
                activities.append(["activity": .string(name), "count": .int(Int64(marks[name] ?? 0)), "durationSec": 0, "distanceKm": 0.0])
            }
            return R.json(["from": Wire.iso(range.start?.timeIntervalSince1970), "to": Wire.iso(range.end?.timeIntervalSince1970),
                           "activities": .array(activities)])
        })

        routes.append(R.route(.get, api + "/telematics-periods") { request, context in
            let range = try TelematicsService.dateRange(request.queryItems)
            var processed: Bool?
            switch request.queryValue("isProcessed")?.lowercased() {
            case nil, "": processed = nil
            case "true", "1": processed = true
            case "false", "0": processed = false
            case let other?: throw TelematicsError.invalidRequest("`isProcessed` must be true or false; got `\(other)`.")
            }
            func positive(_ name: String, _ fallback: Int) throws(TelematicsError) -> Int {
                guard let text = request.queryValue(name), !text.isEmpty else { return fallback }
                guard let value = Int(text), value >= 1, value <= 1_000_000 else {
                    throw .invalidRequest("`\(name)` must be an integer from 1 to 1000000; got `\(text)`.")
                }
                return value
            }
            let page = try positive("page", 1)
            let pageSize = min(100, try positive("pageSize", 20))
            let processedFilter = processed
            let user = try await settle(request, context)
            let (total, rows) = try await context.database.read { c in
                try TelematicsStore.periods(c, context.projectID!, userID: user.userID, fromMs: bound(range.start, Int64.min), toMs: bound(range.end, Int64.max),
                                            processed: processedFilter, page: page, pageSize: pageSize)
            }
            let pages = (total + pageSize - 1) / pageSize
            return R.json(["items": .array(rows.map(Wire.period)), "page": .int(Int64(page)), "pageSize": .int(Int64(pageSize)),
                           "totalItems": .int(Int64(total)), "totalPages": .int(Int64(pages)), "hasNext": .bool(page < pages)])
        })

        routes.append(R.route(.get, api + "/telematics-periods/{periodId}") { request, context in
            let user = try await settle(request, context)
            let parameter = context.parameter("periodId")
            let row = try await context.database.read { c -> Row in
                guard let id = Int(parameter),
                      let row = try TelematicsStore.period(c, context.projectID!, userID: user.userID, id: id) else {
                    throw TelematicsError.periodNotFound
                }
                return row
            }
            return R.json(Wire.period(row))
        })

        return routes
    }

    static func bound(_ date: Date?, _ fallback: Int64) -> Int64 {
        date.map { Int64(($0.timeIntervalSince1970 * 1000).rounded()) } ?? fallback
    }

    /// Authenticates and closes the user's idle periods (on the project clock) before a read.
    static func settle(_ request: Request, _ context: EmulatorContext) async throws -> UserRecord {
        let token = R.bearer(request)
        let (user, stale) = try await context.database.read { c -> (UserRecord, Bool) in
            let user = try R.authenticate(c, token: token, project: context.projectID, now: context.now, feature: "TRIPS")
            let settings = try TelematicsStore.settings(c, context.projectID!)
            return (user, try TelematicsProcessing.hasStale(c, context.projectID!, userID: user.userID, settings: settings, now: context.now))
        }
        if stale {
            try await context.database.write { c in
                let settings = try TelematicsStore.settings(c, context.projectID!)
                try TelematicsProcessing.closeStale(c, context.projectID!, userID: user.userID, settings: settings, now: context.now)
            }
        }
        return user
    }
}
