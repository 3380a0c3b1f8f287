import EmulatorCore
import Foundation
import SQLiteStore

/// Direct seeding of trips and periods (control plane and fixtures), bypassing telemetry.
enum TelematicsSeeding {
    /// Seeds one trip: from samples (computed like uploaded telemetry, but never split or
    /// filtered), or from summary numbers alone. It gets its own processed period.
    static func trip(_ c: SQLiteConnection, _ project: ProjectID, body: TelematicsAdmin.TripBody, settings: TelematicsSettings, now: Date) throws -> Row {
        let periodID = try TelematicsStore.nextID(c, "telematics_periods", project)
        let tripID: Int
        let startMs: Int64, endMs: Int64
        var sampleCount = 0, attentionCount = 0
        var distance: Double
        if let raw = body.samples, !raw.isEmpty {
            let document: JSONValue = .object(["samples": .array(raw), "events": .array(body.events ?? []), "attentionEvents": .array(body.attentionEvents ?? [])])
            let batch: TelemetryBatch
            do { batch = try TelematicsService.parseBatch(document.encoded()) } catch { throw AdminError.badRequest(error.message) }
            guard batch.samples.count >= 2 else { throw AdminError.badRequest("A seeded trip needs at least two samples.") }
            startMs = batch.samples.first!.timestampMs
            endMs = batch.samples.last!.timestampMs
            try c.run("""
                INSERT INTO telematics_periods (project_id, id, user_id, vehicle_id, started_ms, last_sample_ms, ended_ms, is_processed, processed_at, sample_count)
                VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)
                """, project, periodID, body.userId, body.vehicleId, startMs, endMs, endMs, now.timeIntervalSince1970, batch.samples.count)
            for sample in batch.samples {
                sampleCount += try c.run("""
                    INSERT OR IGNORE INTO telematics_samples (project_id, user_id, ts_ms, latitude, longitude, speed_kmh, course_deg, accuracy_m,
                        altitude_m, speed_limit_kmh, phone_in_use) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, project, body.userId, sample.timestampMs, sample.latitude, sample.longitude, sample.speedKmh, sample.courseDeg,
                    sample.horizontalAccuracyM, sample.altitudeM, sample.speedLimitKmh, sample.phoneInUse)
            }
            for event in batch.events {
                let speed = batch.samples.min { abs($0.timestampMs - event.timestampMs) < abs($1.timestampMs - event.timestampMs) }?.speedKmh
                try TelematicsProcessing.insertDrivingEvent(c, project, userID: body.userId, event: event, speedKmh: speed, settings: settings, batchID: nil)
            }
            for event in batch.attentionEvents {
                if try TelematicsProcessing.insertAttentionEvent(c, project, userID: body.userId, event: event, now: now) { attentionCount += 1 }
            }
            let inserted = try TelematicsProcessing.insertTrip(c, project, userID: body.userId, vehicleID: body.vehicleId, periodID: periodID, samples: batch.samples)
            tripID = inserted.id
            distance = inserted.metrics.distanceKm
        } else {
            guard let started = body.startedAt.flatMap(Timestamp.parse), let ended = body.endedAt.flatMap(Timestamp.parse), let km = body.distanceKm else {
                throw AdminError.badRequest("A trip needs `samples`, or `startedAt`, `endedAt` (ISO 8601) and `distanceKm`.")
            }
            guard ended > started, km >= 0 else { throw AdminError.badRequest("`endedAt` must be after `startedAt` and `distanceKm` not negative.") }
            startMs = Int64(started.timeIntervalSince1970 * 1000)
            endMs = Int64(ended.timeIntervalSince1970 * 1000)
            distance = km
            let duration = Int(ended.timeIntervalSince(started).rounded())
            let average = km / (Double(duration) / 3600)
            try c.run("""
                INSERT INTO telematics_periods (project_id, id, user_id, vehicle_id, started_ms, last_sample_ms, ended_ms, is_processed, processed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)
                """, project, periodID, body.userId, body.vehicleId, startMs, endMs, endMs, now.timeIntervalSince1970)
            tripID = try TelematicsStore.nextID(c, "telematics_trips", project)
            try c.run("""
                INSERT INTO telematics_trips (project_id, id, user_id, vehicle_id, period_id, started_ms, ended_ms, distance_km, duration_sec,
                    avg_speed_kmh, max_speed_kmh, score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 100)
                """, project, tripID, body.userId, body.vehicleId, periodID, startMs, endMs, km, duration, average, body.maxSpeedKmh ?? average)
            try TelematicsProcessing.tallyTrip(c, project, tripID: tripID)
        }
        try c.run("UPDATE telematics_periods SET trip_count = 1, distance_km = ?, attention_event_count = ?, sample_count = ? WHERE project_id = ? AND id = ?",
                  distance, attentionCount, sampleCount, project, periodID)
        return try c.queryOne("SELECT * FROM telematics_trips WHERE project_id = ? AND id = ?", project, tripID)!
    }

    /// Seeds `count` periods starting at `start`, `spacingSeconds` apart (default one hour).
    static func periods(_ c: SQLiteConnection, _ project: ProjectID, body: TelematicsAdmin.PeriodBody, start: Date, end: Date?, count: Int, now: Date) throws -> [Row] {
        var rows: [Row] = []
        let spacing = TelematicsService.wholeMs((body.spacingSeconds ?? 3600) * 1000) ?? 3_600_000
        let processed = body.isProcessed ?? (end != nil)
        let nowMs = Int64(now.timeIntervalSince1970 * 1000)
        for index in 0..<count {
            let id = try TelematicsStore.nextID(c, "telematics_periods", project)
            let startMs = Int64(start.timeIntervalSince1970 * 1000) + Int64(index) * spacing
            let endMs = end.map { Int64($0.timeIntervalSince1970 * 1000) + Int64(index) * spacing }
            // An open seeded period counts as receiving samples now, so it is not closed as idle at once.
            let last = endMs ?? max(startMs, nowMs)
            try c.run("""
                INSERT INTO telematics_periods (project_id, id, user_id, vehicle_id, service_code, started_ms, last_sample_ms, ended_ms, is_processed, processed_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, project, id, body.userId, body.vehicleId, body.serviceCode, startMs, last, endMs, processed,
                processed ? now.timeIntervalSince1970 : nil)
            rows.append(try c.queryOne("SELECT * FROM telematics_periods WHERE project_id = ? AND id = ?", project, id)!)
        }
        return rows
    }

    /// Samples of a straight drive from `from` to `to`, one every `intervalSec` seconds.
    static func syntheticDrive(startMs: Int64, from: (Double, Double), to: (Double, Double), durationSec: Int, intervalSec: Int = 5) -> [JSONValue] {
        let steps = max(2, durationSec / max(1, intervalSec))
        var samples: [JSONValue] = []
        for step in 0...steps {
            let fraction = Double(step) / Double(steps)
            let latitude = from.0 + (to.0 - from.0) * fraction
            let longitude = from.1 + (to.1 - from.1) * fraction
            samples.append(["timestampMs": .int(startMs + Int64(step * intervalSec * 1000)), "latitude": .double(latitude), "longitude": .double(longitude),
                            "horizontalAccuracyM": 5.0])
        }
        return samples
    }
}

/// Loads `Config/fixtures/telematics.json` into the demo project.
enum TelematicsFixtures {
    static func load(_ fixtures: JSONValue, project: ProjectID, connection c: SQLiteConnection, now: Date) throws {
        var settings = TelematicsSettings()
        if let patch = fixtures["settings"], patch.objectValue != nil { settings = try patch.decode(TelematicsSettings.self) }
        try TelematicsStore.saveSettings(c, project, settings)
        let tenant = try TelematicsStore.tenantKey(c, project)
        for user in fixtures["users"]?.arrayValue ?? [] {
            guard let id = user["userId"]?.intValue else { continue }
            _ = try TelematicsStore.insertUser(c, project, userID: id, userName: user["userName"]?.stringValue ?? "Demo Driver",
                                               state: user["state"]?.stringValue ?? "ACTIVE", accessTtl: nil, refreshTtl: nil, now: now)
            for (index, token) in (user["tokens"]?.arrayValue ?? []).enumerated() {
                let accessTtl = token["accessTtlSeconds"]?.doubleValue ?? settings.defaultAccessTtlSeconds
                let refreshTtl = token["refreshTtlSeconds"]?.doubleValue ?? settings.defaultRefreshTtlSeconds
                let access = token["token"]?.stringValue ?? "tma_\(tenant)_demoaccess\(index)"
                let refresh = token["refreshToken"]?.stringValue
                let t = now.timeIntervalSince1970
                try c.run("""
                    INSERT INTO telematics_token_pairs (project_id, id, user_id, access_token, access_expires, refresh_token, refresh_expires,
                        access_ttl_seconds, refresh_ttl_seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, project, "tp_fixture\(id)_\(index)", id, access, t + accessTtl, refresh, refresh == nil ? nil : t + refreshTtl,
                    accessTtl, refresh == nil ? nil : refreshTtl, t)
            }
        }
        var plates: [String: Int] = [:]
        for vehicle in fixtures["vehicles"]?.arrayValue ?? [] {
            guard let plate = vehicle["plate"]?.stringValue else { continue }
            let (record, _) = try TelematicsStore.upsertVehicle(c, project, plate: plate, internalPlate: vehicle["internalPlate"]?.stringValue,
                                                                type: vehicle["type"]?.intValue ?? 1, fuelType: vehicle["fuelType"]?.intValue ?? 1,
                                                                addReason: vehicle["addReason"]?.intValue, now: now)
            plates[plate] = record.id
            if let user = vehicle["currentForUserId"]?.intValue { try TelematicsStore.setCurrentVehicle(c, project, userID: user, vehicleID: record.id) }
            for report in vehicle["kilometers"]?.arrayValue ?? [] {
                guard let km = report["kilometers"]?.doubleValue else { continue }
                let readAt = now.timeIntervalSince1970 - (report["daysAgo"]?.doubleValue ?? 0) * 86_400
                _ = try TelematicsStore.insertReport(c, project, vehicleID: record.id, userID: nil, kilometers: km, observations: report["observations"]?.stringValue,
                                                     readAt: readAt, now: now)
            }
        }
        let midnight = floor(now.timeIntervalSince1970 / 86_400) * 86_400
        for trip in fixtures["trips"]?.arrayValue ?? [] {
            guard let user = trip["userId"]?.intValue, let from = trip["from"]?.arrayValue, let to = trip["to"]?.arrayValue,
                  from.count == 2, to.count == 2 else { continue }
            let start = midnight - (trip["daysAgo"]?.doubleValue ?? 1) * 86_400 + (trip["startHourUtc"]?.doubleValue ?? 8) * 3600
            let samples = TelematicsSeeding.syntheticDrive(startMs: Int64(start * 1000), from: (from[0].doubleValue ?? 0, from[1].doubleValue ?? 0),
                                                           to: (to[0].doubleValue ?? 0, to[1].doubleValue ?? 0),
                                                           durationSec: Int((trip["durationMinutes"]?.doubleValue ?? 20) * 60))
            // Fixture events are placed by `offsetSeconds` from the trip start, so they move with the demo's creation day.
            let events: [JSONValue] = (trip["events"]?.arrayValue ?? []).map { event in
                guard case .object(var members) = event else { return event }
                members["timestampMs"] = .int(Int64((start + (members.removeValue(forKey: "offsetSeconds")?.doubleValue ?? 0)) * 1000))
                return .object(members)
            }
            let body = TelematicsAdmin.TripBody(userId: user, vehicleId: trip["vehiclePlate"]?.stringValue.flatMap { plates[$0] }, samples: samples,
                                                events: events, attentionEvents: nil)
            _ = try TelematicsSeeding.trip(c, project, body: body, settings: settings, now: now)
        }
    }
}
