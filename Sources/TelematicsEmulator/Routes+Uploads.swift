import EmulatorCore
import Foundation
import HTTPServer

/// Uploads: telemetry batches, attention events, manual events.
extension TelematicsRoutes {
    func uploadTelemetry(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        // Authenticate before reading the body, so a bad token is a 401 whatever the body.
        let limit = try await context.read { store in
            return try effectiveSettings(store, authenticate(store, context, feature: "TRIPS").project, cachedFor: context.core).maxBatchBytes
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
        let batch = try TelemetryParser.parseBatch(body)
        if let batchID = batch.batchId { context.core.note(TelematicsChecks.batchFact, batchID) }
        let headerCode = request.headers["x-service-code"]
        let generated = context.services.generateIDs(for: context.credential?.project) { $0.uuid() }
        let now = context.now
        let (result, duplicate) = try await context.write { store -> (JSONValue, Bool) in
            let (user, project) = try authenticate(store, context, feature: "TRIPS")
            let settings = try effectiveSettings(store, project, cachedFor: context.core)
            let serviceCode = batch.serviceCode ?? headerCode
            try TelematicsService.checkUpload(serviceCode: serviceCode, settings: settings)
            let batchID = batch.batchId ?? generated
            if let original = try store.repeatBatch(project, batchID: batchID) {
                return (
                    [
                        "batchId": .string(batchID), "accepted": .int(Int64(original.accepted)), "receivedAt": Wire.iso(original.receivedAt),
                        "duplicate": true,
                    ], true
                )
            }
            let vehicleID = batch.vehicleId ?? user.currentVehicleID
            let processor = PeriodProcessor(store: store, project: project, settings: settings, now: now)
            let accepted = try processor.ingest(userID: user.userID, batchID: batchID, batch: batch, vehicleID: vehicleID, serviceCode: serviceCode)
            try store.insertBatch(
                project, batchID: batchID, userID: user.userID, batch: batch, vehicleID: vehicleID, serviceCode: serviceCode,
                accepted: accepted, at: now.timeIntervalSince1970)
            return (["batchId": .string(batchID), "accepted": .int(Int64(accepted)), "receivedAt": Wire.iso(now.timeIntervalSince1970)], false) // checked: `accepted` is an Int
        }
        return json(result, status: duplicate ? 200 : 202)
    }

    func uploadAttentionEvents(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        // Any parse failure gets the same 400, so which one it was does not matter.
        guard let root = try? JSONValue.parse(request.body) else {
            throw TelematicsError.attentionEventsNotJSON
        }
        _ = try await context.read { store in try authenticate(store, context, feature: "ATTENTION") }
        guard let list = root.arrayValue ?? root["events"]?.arrayValue else { throw TelematicsError.invalidRequest("`events` must be an array.") }
        var events: [AttentionEvent] = []
        for (index, raw) in list.enumerated() { events.append(try TelemetryParser.parseAttentionEvent(raw, index: index)) }
        let parsed = events
        let (accepted, duplicates) = try await context.write { store -> (Int, Int) in
            let (user, project) = try authenticate(store, context, feature: "ATTENTION")
            var accepted = 0, duplicates = 0
            for event in parsed {
                if try store.insertAttentionEvent(project, userID: user.userID, event, now: context.now) { accepted += 1 } else { duplicates += 1 }
            }
            if let low = parsed.map(\.startTimestampMs).min(), let high = parsed.map(\.endTimestampMs).max() {
                let processor = PeriodProcessor(store: store, project: project, settings: try effectiveSettings(store, project, cachedFor: context.core), now: context.now)
                try processor.refreshTrips(userID: user.userID, fromMs: low, toMs: high)
            }
            return (accepted, duplicates)
        }
        // Events carry client ids, so an upload whose every event was stored before is a repeat:
        // 200, as a repeated telemetry batch or manual event is [D-TM idempotency]. An upload with
        // anything new stays 202, counting the repeats among it.
        let repeated = accepted == 0 && duplicates > 0
        return json(["accepted": .int(Int64(accepted)), "duplicates": .int(Int64(duplicates))], status: repeated ? 200 : 202)
    }

    func insertManualEvent(_ request: Request, _ context: TelematicsContext) async throws -> Response {
        let input = try manualEventInput(objectBody(request), now: context.now)
        let (event, created) = try await context.write { store -> (ManualEventRecord, Bool) in
            let (user, project) = try authenticate(store, context, feature: "TRIPS")
            if let clientID = input.clientID, let existing = try store.manualEvent(project, clientID: clientID) { return (existing, false) }
            let settings = try effectiveSettings(store, project, cachedFor: context.core)
            var stored = input
            stored.vehicleID = input.vehicleID ?? user.currentVehicleID
            let event = try store.insertManualEvent(
                project, userID: user.userID, stored, idleMs: Int64(settings.periodIdleTimeoutSeconds * 1000),
                at: context.now.timeIntervalSince1970)
            if let tripID = event.tripID {
                try PeriodProcessor(store: store, project: project, settings: settings, now: context.now).tallyTrip(tripID)
            }
            // Re-read after the tally, which may have linked it (as the stored row shows it).
            return (try store.inserted(store.manualEvent(project, id: event.id)), true)
        }
        return json(Wire.manualEvent(event), status: created ? 201 : 200)
    }

    /// The SDK's manual-event body [D-TM-18]: type in any of its three spellings, optional
    /// client UUID, time as epoch ms or ISO 8601 (default now), optional position and vehicle.
    private func manualEventInput(_ body: [String: JSONValue], now: Date) throws(TelematicsError) -> ManualEventInput {
        guard let rawType = body["type"], let type = ManualEventType.parse(rawType) else {
            throw .invalidEventType(body["type"].map { $0.stringValue ?? String(decoding: $0.encoded(), as: UTF8.self) } ?? "(missing)")
        }
        var clientID: String?
        if let value = body["id"], !value.isNull {
            guard let text = value.stringValue, UUID(uuidString: text) != nil else { throw .invalidRequest("`id` must be a UUID.") }
            clientID = text.lowercased()
        }
        var timeMs = now.clampedEpochMilliseconds
        if let value = body["timestampMs"], !value.isNull {
            guard let number = value.doubleValue.flatMap(TelemetryParser.wholeMs) else {
                throw .invalidDate("timestampMs", String(decoding: value.encoded(), as: UTF8.self))
            }
            timeMs = number
        } else if let value = body["timestamp"], !value.isNull {
            guard let text = value.stringValue, let date = TelematicsTime.parse(text) else {
                throw .invalidDate("timestamp", value.stringValue ?? String(decoding: value.encoded(), as: UTF8.self))
            }
            timeMs = date.clampedEpochMilliseconds
        }
        func number(_ key: String) throws(TelematicsError) -> Double? {
            guard let value = body[key], !value.isNull else { return nil }
            guard let number = value.doubleValue else { throw .invalidRequest("`\(key)` must be a number.") }
            return number
        }
        let latitude = try number("latitude"), longitude = try number("longitude")
        let accuracy = try number("horizontalAccuracyM"), locationTime = try number("locationTimestampMs")
        var vehicleID: Int?
        if let value = body["vehicleId"], !value.isNull {
            guard let id = value.intValue else { throw .invalidRequest("`vehicleId` must be an integer.") }
            vehicleID = id
        }
        if let time = locationTime, TelemetryParser.wholeMs(time) == nil { throw .invalidRequest("`locationTimestampMs` is out of range.") }
        return ManualEventInput(
            clientID: clientID, type: type, timeMs: timeMs, latitude: latitude, longitude: longitude, accuracy: accuracy,
            locationTimeMs: locationTime.flatMap(TelemetryParser.wholeMs), vehicleID: vehicleID)
    }
}
