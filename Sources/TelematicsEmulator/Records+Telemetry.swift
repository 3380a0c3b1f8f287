import EmulatorCore
import Foundation
import Storage

/// One telemetry sample, normalised to the units trips report (km/h).
struct Sample: Sendable, Equatable, RowDecodable {
    /// Epoch milliseconds.
    var timestampMs: Int64
    /// Degrees.
    var latitude: Double
    /// Degrees.
    var longitude: Double
    /// km/h, when the device reported a speed.
    var speedKmh: Double?
    /// Degrees.
    var courseDeg: Double?
    /// Metres.
    var horizontalAccuracyM: Double?
    /// Metres.
    var altitudeM: Double?
    /// km/h.
    var speedLimitKmh: Double?
    /// Whether the phone was being handled (screen unlocked and not hands-free).
    var phoneInUse: Bool?

    init(
        timestampMs: Int64, latitude: Double, longitude: Double, speedKmh: Double? = nil, courseDeg: Double? = nil,
        horizontalAccuracyM: Double? = nil, altitudeM: Double? = nil, speedLimitKmh: Double? = nil, phoneInUse: Bool? = nil
    ) {
        self.timestampMs = timestampMs
        self.latitude = latitude
        self.longitude = longitude
        self.speedKmh = speedKmh
        self.courseDeg = courseDeg
        self.horizontalAccuracyM = horizontalAccuracyM
        self.altitudeM = altitudeM
        self.speedLimitKmh = speedLimitKmh
        self.phoneInUse = phoneInUse
    }

    init(row: Row) throws {
        timestampMs = try row.decode("ts_ms")
        latitude = try row.decode("latitude")
        longitude = try row.decode("longitude")
        speedKmh = try row.decodeIfPresent("speed_kmh")
        courseDeg = try row.decodeIfPresent("course_deg")
        horizontalAccuracyM = try row.decodeIfPresent("accuracy_m")
        altitudeM = try row.decodeIfPresent("altitude_m")
        speedLimitKmh = try row.decodeIfPresent("speed_limit_kmh")
        phoneInUse = try row.decodeIfPresent("phone_in_use")
    }

    /// The columns `init(positional:)` reads, in its order.
    static let columns = ["ts_ms", "latitude", "longitude", "speed_kmh", "course_deg", "accuracy_m", "altitude_m", "speed_limit_kmh", "phone_in_use"]

    /// Decodes a row of exactly `columns`, by position: trip building reads thousands of samples,
    /// and looking each column up by name cost more than the values. Same conversions and errors as `init(row:)`.
    init(positional row: Row) throws(RowDecodingError) {
        try row.expectColumns(Self.columns)
        timestampMs = try row.decode(at: 0)
        latitude = try row.decode(at: 1)
        longitude = try row.decode(at: 2)
        speedKmh = try row.decodeIfPresent(at: 3)
        courseDeg = try row.decodeIfPresent(at: 4)
        horizontalAccuracyM = try row.decodeIfPresent(at: 5)
        altitudeM = try row.decodeIfPresent(at: 6)
        speedLimitKmh = try row.decodeIfPresent(at: 7)
        phoneInUse = try row.decodeIfPresent(at: 8)
    }
}

/// A driving event as reported in a batch or seeded.
struct DrivingEvent: Sendable, Equatable, RowDecodable {
    /// One of the driving types (`hardBrakingHighSpeed`, … or the generic `hardBraking`/`abruptAcceleration`).
    var type: String
    /// Epoch milliseconds.
    var timestampMs: Int64
    /// Degrees.
    var latitude: Double?
    /// Degrees.
    var longitude: Double?
    /// Seconds.
    var durationSec: Double?
    /// A magnitude (g, km/h over the limit, …).
    var value: Double?

    init(type: String, timestampMs: Int64, latitude: Double?, longitude: Double?, durationSec: Double?, value: Double?) {
        self.type = type
        self.timestampMs = timestampMs
        self.latitude = latitude
        self.longitude = longitude
        self.durationSec = durationSec
        self.value = value
    }

    init(row: Row) throws {
        type = try row.decode("type")
        timestampMs = try row.decode("ts_ms")
        latitude = try row.decodeIfPresent("latitude")
        longitude = try row.decodeIfPresent("longitude")
        durationSec = try row.decodeIfPresent("duration_sec")
        value = try row.decodeIfPresent("value")
    }
}

/// An attention event exactly as the SDK models `TelematicsAttentionEvent`.
struct AttentionEvent: Sendable, Equatable, RowDecodable {
    /// UUID, lower-cased.
    var id: String
    /// `phoneDistraction`.
    var type: String
    /// Window start, epoch ms.
    var startTimestampMs: Int64
    /// Window end, epoch ms.
    var endTimestampMs: Int64
    /// 0…1.
    var confidence: Double
    /// m/s.
    var averageSpeedMps: Double?
    /// Degrees.
    var latitude: Double?
    /// Degrees.
    var longitude: Double?
    /// Metres.
    var horizontalAccuracyM: Double?
    /// Epoch ms.
    var locationTimestampMs: Int64?
    /// Detector identifier.
    var detectorVersion: String

    init(
        id: String, type: String, startTimestampMs: Int64, endTimestampMs: Int64, confidence: Double, averageSpeedMps: Double?,
        latitude: Double?, longitude: Double?, horizontalAccuracyM: Double?, locationTimestampMs: Int64?, detectorVersion: String
    ) {
        self.id = id
        self.type = type
        self.startTimestampMs = startTimestampMs
        self.endTimestampMs = endTimestampMs
        self.confidence = confidence
        self.averageSpeedMps = averageSpeedMps
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracyM = horizontalAccuracyM
        self.locationTimestampMs = locationTimestampMs
        self.detectorVersion = detectorVersion
    }

    init(row: Row) throws {
        id = try row.decode("id")
        type = try row.decode("type")
        startTimestampMs = try row.decode("start_ms")
        endTimestampMs = try row.decode("end_ms")
        confidence = try row.decode("confidence")
        averageSpeedMps = try row.decodeIfPresent("average_speed_mps")
        latitude = try row.decodeIfPresent("latitude")
        longitude = try row.decodeIfPresent("longitude")
        horizontalAccuracyM = try row.decodeIfPresent("horizontal_accuracy_m")
        locationTimestampMs = try row.decodeIfPresent("location_timestamp_ms")
        detectorVersion = try row.decode("detector_version")
    }
}

/// A stored attention event with what the control plane shows about it: owner, receipt,
/// duplicate count and the first trip its window overlaps (the store's query adds `trip_id`).
struct AttentionEventRecord: Sendable, RowDecodable {
    var event: AttentionEvent
    var userID: Int
    var receivedAt: Double
    var duplicateCount: Int
    var tripID: Int?

    init(row: Row) throws {
        event = try AttentionEvent(row: row)
        userID = try row.decode("user_id")
        receivedAt = try row.decode("received_at")
        duplicateCount = try row.decode("duplicate_count")
        tripID = try row.decodeIfPresent("trip_id")
    }
}

/// A manual event as stored, linked to its trip and period when they exist.
struct ManualEventRecord: Sendable, RowDecodable {
    var id: Int
    var clientEventID: String?
    var userID: Int
    var type: ManualEventType
    var timestampMs: Int64
    var receivedAt: Double
    var latitude: Double?
    var longitude: Double?
    var vehicleID: Int?
    var tripID: Int?
    var periodID: Int?

    init(row: Row) throws {
        id = try row.decode("id")
        clientEventID = try row.decodeIfPresent("client_event_id")
        userID = try row.decode("user_id")
        type = try row.decode("type")
        timestampMs = try row.decode("ts_ms")
        receivedAt = try row.decode("received_at")
        latitude = try row.decodeIfPresent("latitude")
        longitude = try row.decodeIfPresent("longitude")
        vehicleID = try row.decodeIfPresent("vehicle_id")
        tripID = try row.decodeIfPresent("trip_id")
        periodID = try row.decodeIfPresent("period_id")
    }
}
