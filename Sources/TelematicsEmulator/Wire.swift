import EmulatorCore
import Foundation
import SQLiteStore

/// Wire shapes [§7 of the contract], rendered as JSON with explicit nulls (the SDK's optionals
/// decode either way, but the OpenAPI document promises the keys).
enum Wire {
    static func iso(_ seconds: Double) -> JSONValue { .string(Timestamp.formatMicroseconds(Date(timeIntervalSince1970: seconds))) }
    static func iso(_ seconds: Double?) -> JSONValue { seconds.map { iso($0) } ?? .null }
    static func isoMs(_ ms: Int64) -> JSONValue { iso(Double(ms) / 1000) }
    static func isoMs(_ ms: Int64?) -> JSONValue { ms.map { isoMs($0) } ?? .null }
    static func num(_ value: Double?) -> JSONValue { value.map { .double(round($0 * 1000) / 1000) } ?? .null }
    static func int(_ value: Int?) -> JSONValue { value.map { .int(Int64($0)) } ?? .null }
    static func str(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// Token pair, canonical names plus the documented aliases [D-TM-05].
    static func tokenPair(_ pair: PairRecord, now: Date, aliases: Bool) -> JSONValue {
        var body: [String: JSONValue] = [
            "token": .string(pair.accessToken), "tokenExpires": iso(pair.accessExpires),
            "refreshToken": str(pair.refreshToken), "refreshTokenExpires": iso(pair.refreshExpires),
        ]
        if aliases {
            body["tokenType"] = "Bearer"
            body["expiresIn"] = .int(Int64(max(0, (pair.accessExpires - now.timeIntervalSince1970).rounded())))
            body["accessToken"] = .string(pair.accessToken)
            body["accessTokenExpiresAt"] = iso(pair.accessExpires)
            body["refreshTokenExpiresAt"] = iso(pair.refreshExpires)
        }
        return .object(body)
    }

    static func user(_ user: UserRecord) -> JSONValue {
        ["userId": .int(Int64(user.userID)), "userName": .string(user.userName), "id": .int(Int64(user.userID)), "name": .string(user.userName),
         "active": .bool(user.state == "ACTIVE")]
    }

    static func catalogue(_ map: [String: Int]) -> JSONValue { .object(map.mapValues { .int(Int64($0)) }) }

    static func vehicle(_ v: VehicleRecord, settings: TelematicsSettings) -> JSONValue {
        func name(_ map: [String: Int], _ code: Int?) -> JSONValue {
            guard let code else { return .null }
            return map.filter { $0.value == code }.keys.sorted().first.map { .string($0) } ?? .null
        }
        return [
            "id": .int(Int64(v.id)), "plate": .string(v.plate), "internalPlate": str(v.internalPlate),
            "type": .int(Int64(v.type)), "typeName": name(settings.vehicleTypes, v.type) == .null ? "" : name(settings.vehicleTypes, v.type),
            "fuelType": .int(Int64(v.fuelType)), "fuelTypeName": name(settings.fuelTypes, v.fuelType) == .null ? "" : name(settings.fuelTypes, v.fuelType),
            "addReason": int(v.addReason), "addReasonName": name(settings.addReasons, v.addReason),
            "createdAt": .string(v.createdAt), "lastReportedKilometers": num(v.lastKilometers), "lastReportedAt": iso(v.lastReportedAt),
        ]
    }

    static func report(_ r: ReportRecord) -> JSONValue {
        ["id": .int(Int64(r.id)), "vehicleId": .int(Int64(r.vehicleID)), "kilometers": .double(r.kilometers), "observations": str(r.observations),
         "readAt": iso(r.readAt), "reportedAt": iso(r.reportedAt), "corrected": .bool(r.corrected), "correctedAt": iso(r.correctedAt)]
    }

    static func tripResume(_ row: Row) -> JSONValue {
        func location(_ lat: String, _ lon: String) -> JSONValue {
            guard let latitude = row.double(lat), let longitude = row.double(lon) else { return .null }
            return ["latitude": .double(latitude), "longitude": .double(longitude), "address": .null]
        }
        func count(_ column: String) -> JSONValue { .int(Int64(row.int(column) ?? 0)) }
        return [
            "id": count("id"), "vehicleId": int(row.int("vehicle_id")), "periodId": int(row.int("period_id")),
            "startedAt": isoMs(Int64(row.int("started_ms") ?? 0)), "endedAt": isoMs(Int64(row.int("ended_ms") ?? 0)),
            "distanceKm": num(row.double("distance_km") ?? 0), "durationSec": count("duration_sec"),
            "startLocation": location("start_lat", "start_lon"), "endLocation": location("end_lat", "end_lon"),
            "avgSpeedKmh": num(row.double("avg_speed_kmh") ?? 0), "maxSpeedKmh": num(row.double("max_speed_kmh") ?? 0),
            "score": count("score"), "hardBrakingCount": count("hard_braking_count"), "abruptAccelerationCount": count("abrupt_acceleration_count"),
            "hardCorneringCount": count("hard_cornering_count"), "speedingCount": count("speeding_count"),
            "speedingDurationSec": count("speeding_duration_sec"), "distractionCount": count("distraction_count"),
            "distractionDurationSec": count("distraction_duration_sec"), "manualEventCount": count("manual_event_count"),
        ]
    }

    static func sample(_ s: Sample) -> JSONValue {
        ["timestamp": isoMs(s.timestampMs), "timestampMs": .int(s.timestampMs), "latitude": .double(s.latitude), "longitude": .double(s.longitude),
         "speedKmh": num(s.speedKmh), "courseDeg": num(s.courseDeg), "horizontalAccuracyM": num(s.horizontalAccuracyM),
         "altitudeM": num(s.altitudeM), "speedLimitKmh": num(s.speedLimitKmh), "phoneInUse": s.phoneInUse.map { .bool($0) } ?? .null]
    }

    static func tripEvent(type: String, source: String, ms: Int64, latitude: Double?, longitude: Double?, durationSec: Double?, value: Double?) -> JSONValue {
        ["type": .string(type), "source": .string(source), "timestamp": isoMs(ms), "timestampMs": .int(ms), "latitude": num(latitude),
         "longitude": num(longitude), "durationSec": num(durationSec), "value": num(value)]
    }

    static func attentionEvent(_ row: Row) -> JSONValue {
        [
            "id": str(row.string("id")), "type": str(row.string("type")),
            "startTimestampMs": .int(Int64(row.int("start_ms") ?? 0)), "endTimestampMs": .int(Int64(row.int("end_ms") ?? 0)),
            "startDate": isoMs(Int64(row.int("start_ms") ?? 0)), "endDate": isoMs(Int64(row.int("end_ms") ?? 0)),
            "confidence": .double(row.double("confidence") ?? 0), "averageSpeedMps": row.double("average_speed_mps").map { .double($0) } ?? .null,
            "latitude": row.double("latitude").map { .double($0) } ?? .null, "longitude": row.double("longitude").map { .double($0) } ?? .null,
            "horizontalAccuracyM": row.double("horizontal_accuracy_m").map { .double($0) } ?? .null,
            "locationTimestampMs": row.int("location_timestamp_ms").map { .int(Int64($0)) } ?? .null,
            "detectorVersion": str(row.string("detector_version")),
        ]
    }

    static func manualEvent(_ row: Row) -> JSONValue {
        [
            "id": .int(Int64(row.int("id") ?? 0)), "clientEventId": str(row.string("client_event_id")), "type": str(row.string("type")),
            "timestamp": isoMs(Int64(row.int("ts_ms") ?? 0)), "receivedAt": iso(row.double("received_at") ?? 0),
            "latitude": row.double("latitude").map { .double($0) } ?? .null, "longitude": row.double("longitude").map { .double($0) } ?? .null,
            "tripId": int(row.int("trip_id")), "periodId": int(row.int("period_id")), "vehicleId": int(row.int("vehicle_id")),
        ]
    }

    static func period(_ row: Row) -> JSONValue {
        [
            "id": .int(Int64(row.int("id") ?? 0)), "startedAt": isoMs(Int64(row.int("started_ms") ?? 0)),
            "endedAt": isoMs(row.int("ended_ms").map(Int64.init)), "isProcessed": .bool(row.bool("is_processed") ?? false),
            "processedAt": iso(row.double("processed_at")), "vehicleId": int(row.int("vehicle_id")), "serviceCode": str(row.string("service_code")),
            "tripCount": .int(Int64(row.int("trip_count") ?? 0)), "distanceKm": num(row.double("distance_km") ?? 0),
            "sampleCount": .int(Int64(row.int("sample_count") ?? 0)), "attentionEventCount": .int(Int64(row.int("attention_event_count") ?? 0)),
        ]
    }
}
