import EmulatorCore
import Foundation

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
            body["expiresIn"] = .int(max(0, (pair.accessExpires - now.timeIntervalSince1970).roundedInt64() ?? 0))
            body["accessToken"] = .string(pair.accessToken)
            body["accessTokenExpiresAt"] = iso(pair.accessExpires)
            body["refreshTokenExpiresAt"] = iso(pair.refreshExpires)
        }
        return .object(body)
    }

    static func user(_ user: UserRecord) -> JSONValue {
        [
            "userId": .int(Int64(user.userID)), "userName": .string(user.userName), "id": .int(Int64(user.userID)), "name": .string(user.userName),
            "active": .bool(user.state == .active),
        ]
    }

    static func catalogue(_ map: [String: Int]) -> JSONValue { .object(map.mapValues { .int(Int64($0)) }) }

    static func vehicle(_ vehicle: VehicleRecord, settings: TelematicsSettings) -> JSONValue {
        func name(_ map: [String: Int], _ code: Int?) -> JSONValue {
            guard let code else { return .null }
            return map.filter { $0.value == code }.keys.sorted().first.map { .string($0) } ?? .null
        }
        return [
            "id": .int(Int64(vehicle.id)), "plate": .string(vehicle.plate), "internalPlate": str(vehicle.internalPlate),
            "type": .int(Int64(vehicle.type)), "typeName": name(settings.vehicleTypes, vehicle.type) == .null ? "" : name(settings.vehicleTypes, vehicle.type),
            "fuelType": .int(Int64(vehicle.fuelType)), "fuelTypeName": name(settings.fuelTypes, vehicle.fuelType) == .null ? "" : name(settings.fuelTypes, vehicle.fuelType),
            "addReason": int(vehicle.addReason), "addReasonName": name(settings.addReasons, vehicle.addReason),
            "createdAt": .string(vehicle.createdAt), "lastReportedKilometers": num(vehicle.lastKilometers), "lastReportedAt": iso(vehicle.lastReportedAt),
        ]
    }

    static func report(_ report: ReportRecord) -> JSONValue {
        [
            "id": .int(Int64(report.id)), "vehicleId": .int(Int64(report.vehicleID)), "kilometers": .double(report.kilometers), "observations": str(report.observations),
            "readAt": iso(report.readAt), "reportedAt": iso(report.reportedAt), "corrected": .bool(report.corrected), "correctedAt": iso(report.correctedAt),
        ]
    }

    static func tripResume(_ trip: TripRecord) -> JSONValue {
        func location(_ latitude: Double?, _ longitude: Double?) -> JSONValue {
            guard let latitude, let longitude else { return .null }
            return ["latitude": .double(latitude), "longitude": .double(longitude), "address": .null]
        }
        func count(_ value: Int) -> JSONValue { .int(Int64(value)) }
        return [
            "id": count(trip.id), "vehicleId": int(trip.vehicleID), "periodId": int(trip.periodID),
            "startedAt": isoMs(trip.startedMs), "endedAt": isoMs(trip.endedMs),
            "distanceKm": num(trip.distanceKm), "durationSec": count(trip.durationSec),
            "startLocation": location(trip.startLatitude, trip.startLongitude), "endLocation": location(trip.endLatitude, trip.endLongitude),
            "avgSpeedKmh": num(trip.avgSpeedKmh), "maxSpeedKmh": num(trip.maxSpeedKmh),
            "score": count(trip.score), "hardBrakingCount": count(trip.hardBrakingCount), "abruptAccelerationCount": count(trip.abruptAccelerationCount),
            "hardCorneringCount": count(trip.hardCorneringCount), "speedingCount": count(trip.speedingCount),
            "speedingDurationSec": count(trip.speedingDurationSec), "distractionCount": count(trip.distractionCount),
            "distractionDurationSec": count(trip.distractionDurationSec), "manualEventCount": count(trip.manualEventCount),
        ]
    }

    static func sample(_ sample: Sample) -> JSONValue {
        [
            "timestamp": isoMs(sample.timestampMs), "timestampMs": .int(sample.timestampMs), "latitude": .double(sample.latitude), "longitude": .double(sample.longitude),
            "speedKmh": num(sample.speedKmh), "courseDeg": num(sample.courseDeg), "horizontalAccuracyM": num(sample.horizontalAccuracyM),
            "altitudeM": num(sample.altitudeM), "speedLimitKmh": num(sample.speedLimitKmh), "phoneInUse": sample.phoneInUse.map { .bool($0) } ?? .null,
        ]
    }

    static func tripEvent(type: String, source: String, ms: Int64, latitude: Double?, longitude: Double?, durationSec: Double?, value: Double?) -> JSONValue {
        [
            "type": .string(type), "source": .string(source), "timestamp": isoMs(ms), "timestampMs": .int(ms), "latitude": num(latitude),
            "longitude": num(longitude), "durationSec": num(durationSec), "value": num(value),
        ]
    }

    static func attentionEvent(_ event: AttentionEvent) -> JSONValue {
        [
            "id": .string(event.id), "type": .string(event.type),
            "startTimestampMs": .int(event.startTimestampMs), "endTimestampMs": .int(event.endTimestampMs),
            "startDate": isoMs(event.startTimestampMs), "endDate": isoMs(event.endTimestampMs),
            "confidence": .double(event.confidence), "averageSpeedMps": event.averageSpeedMps.map { .double($0) } ?? .null,
            "latitude": event.latitude.map { .double($0) } ?? .null, "longitude": event.longitude.map { .double($0) } ?? .null,
            "horizontalAccuracyM": event.horizontalAccuracyM.map { .double($0) } ?? .null,
            "locationTimestampMs": event.locationTimestampMs.map { .int($0) } ?? .null,
            "detectorVersion": .string(event.detectorVersion),
        ]
    }

    static func manualEvent(_ event: ManualEventRecord) -> JSONValue {
        [
            "id": .int(Int64(event.id)), "clientEventId": str(event.clientEventID), "type": .string(event.type.rawValue),
            "timestamp": isoMs(event.timestampMs), "receivedAt": iso(event.receivedAt),
            "latitude": event.latitude.map { .double($0) } ?? .null, "longitude": event.longitude.map { .double($0) } ?? .null,
            "tripId": int(event.tripID), "periodId": int(event.periodID), "vehicleId": int(event.vehicleID),
        ]
    }

    static func period(_ period: PeriodRecord) -> JSONValue {
        [
            "id": .int(Int64(period.id)), "startedAt": isoMs(period.startedMs),
            "endedAt": isoMs(period.endedMs), "isProcessed": .bool(period.isProcessed),
            "processedAt": iso(period.processedAt), "vehicleId": int(period.vehicleID), "serviceCode": str(period.serviceCode),
            "tripCount": .int(Int64(period.tripCount)), "distanceKm": num(period.distanceKm),
            "sampleCount": .int(Int64(period.sampleCount)), "attentionEventCount": .int(Int64(period.attentionEventCount)),
        ]
    }

    /// A `{"key": […]}` listing, as the control plane answers lists.
    static func list(_ key: String, _ items: [JSONValue]) -> JSONValue { .object([key: .array(items)]) }

    /// `value` (an object) with `extra` members added, for the control plane's richer views.
    static func adding(_ extra: [String: JSONValue], to value: JSONValue) -> JSONValue {
        guard case .object(var members) = value else { return value }
        members.merge(extra) { _, new in new }
        return .object(members)
    }
}

/// A decoded telemetry batch [D-TM-13].
struct TelemetryBatch: Sendable {
    /// Client batch id (generated when absent).
    var batchId: String?
    /// Declared user, flagged when it differs from the token's.
    var userId: Int?
    /// Declared vehicle.
    var vehicleId: Int?
    /// Service code from the body.
    var serviceCode: String?
    /// Device identifier.
    var deviceId: String?
    /// Samples in time order.
    var samples: [Sample]
    /// Driving events.
    var events: [DrivingEvent]
    /// Attention events carried in the batch.
    var attentionEvents: [AttentionEvent]
}

/// A manual event as the SDK sends it, ready to store.
struct ManualEventInput: Sendable {
    var clientID: String?
    var type: ManualEventType
    var timeMs: Int64
    var latitude: Double?
    var longitude: Double?
    var accuracy: Double?
    var locationTimeMs: Int64?
    var vehicleID: Int?
}
