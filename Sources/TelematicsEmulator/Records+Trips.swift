import EmulatorCore
import Foundation
import Storage

/// A trip as stored: sample-derived numbers plus the event tallies.
struct TripRecord: Sendable, Equatable, RowDecodable {
    var id: Int
    var userID: Int
    var vehicleID: Int?
    var periodID: Int?
    var startedMs: Int64
    var endedMs: Int64
    var distanceKm: Double
    var durationSec: Int
    var startLatitude: Double?
    var startLongitude: Double?
    var endLatitude: Double?
    var endLongitude: Double?
    var avgSpeedKmh: Double
    var maxSpeedKmh: Double
    var score: Int
    var hardBrakingCount: Int
    var abruptAccelerationCount: Int
    var hardCorneringCount: Int
    var speedingCount: Int
    /// Speeding episodes found in the samples (kept apart so re-tallies can add detected events to them).
    var sampleSpeedingCount: Int
    var speedingDurationSec: Int
    var distractionCount: Int
    var distractionDurationSec: Int
    var manualEventCount: Int

    init(row: Row) throws {
        id = try row.decode("id")
        userID = try row.decode("user_id")
        vehicleID = try row.decodeIfPresent("vehicle_id")
        periodID = try row.decodeIfPresent("period_id")
        startedMs = try row.decode("started_ms")
        endedMs = try row.decode("ended_ms")
        distanceKm = try row.decode("distance_km")
        durationSec = try row.decode("duration_sec")
        startLatitude = try row.decodeIfPresent("start_lat")
        startLongitude = try row.decodeIfPresent("start_lon")
        endLatitude = try row.decodeIfPresent("end_lat")
        endLongitude = try row.decodeIfPresent("end_lon")
        avgSpeedKmh = try row.decode("avg_speed_kmh")
        maxSpeedKmh = try row.decode("max_speed_kmh")
        score = try row.decode("score")
        hardBrakingCount = try row.decode("hard_braking_count")
        abruptAccelerationCount = try row.decode("abrupt_acceleration_count")
        hardCorneringCount = try row.decode("hard_cornering_count")
        speedingCount = try row.decode("speeding_count")
        sampleSpeedingCount = try row.decode("sample_speeding_count")
        speedingDurationSec = try row.decode("speeding_duration_sec")
        distractionCount = try row.decode("distraction_count")
        distractionDurationSec = try row.decode("distraction_duration_sec")
        manualEventCount = try row.decode("manual_event_count")
    }

    /// The columns `init(positional:)` reads, in its order.
    static let columns = [
        "id", "user_id", "vehicle_id", "period_id", "started_ms", "ended_ms", "distance_km", "duration_sec", "start_lat", "start_lon", "end_lat",
        "end_lon", "avg_speed_kmh", "max_speed_kmh", "score", "hard_braking_count", "abrupt_acceleration_count", "hard_cornering_count",
        "speeding_count", "sample_speeding_count", "speeding_duration_sec", "distraction_count", "distraction_duration_sec", "manual_event_count",
    ]

    /// Decodes a row of exactly `columns`, by position: a list of 100 trips looked 2,400 names up.
    /// Same conversions and errors as `init(row:)`.
    init(positional row: Row) throws(RowDecodingError) {
        try row.expectColumns(Self.columns)
        id = try row.decode(at: 0)
        userID = try row.decode(at: 1)
        vehicleID = try row.decodeIfPresent(at: 2)
        periodID = try row.decodeIfPresent(at: 3)
        startedMs = try row.decode(at: 4)
        endedMs = try row.decode(at: 5)
        distanceKm = try row.decode(at: 6)
        durationSec = try row.decode(at: 7)
        startLatitude = try row.decodeIfPresent(at: 8)
        startLongitude = try row.decodeIfPresent(at: 9)
        endLatitude = try row.decodeIfPresent(at: 10)
        endLongitude = try row.decodeIfPresent(at: 11)
        avgSpeedKmh = try row.decode(at: 12)
        maxSpeedKmh = try row.decode(at: 13)
        score = try row.decode(at: 14)
        hardBrakingCount = try row.decode(at: 15)
        abruptAccelerationCount = try row.decode(at: 16)
        hardCorneringCount = try row.decode(at: 17)
        speedingCount = try row.decode(at: 18)
        sampleSpeedingCount = try row.decode(at: 19)
        speedingDurationSec = try row.decode(at: 20)
        distractionCount = try row.decode(at: 21)
        distractionDurationSec = try row.decode(at: 22)
        manualEventCount = try row.decode(at: 23)
    }
}

/// A telematics period as stored: open until its idle timeout, then processed into trips.
struct PeriodRecord: Sendable, RowDecodable {
    var id: Int
    var userID: Int
    var vehicleID: Int?
    var serviceCode: String?
    var startedMs: Int64
    var lastSampleMs: Int64
    var endedMs: Int64?
    var isProcessed: Bool
    var processedAt: Double?
    var sampleCount: Int
    var tripCount: Int
    var distanceKm: Double
    var attentionEventCount: Int

    init(row: Row) throws {
        id = try row.decode("id")
        userID = try row.decode("user_id")
        vehicleID = try row.decodeIfPresent("vehicle_id")
        serviceCode = try row.decodeIfPresent("service_code")
        startedMs = try row.decode("started_ms")
        lastSampleMs = try row.decode("last_sample_ms")
        endedMs = try row.decodeIfPresent("ended_ms")
        isProcessed = try row.decode("is_processed")
        processedAt = try row.decodeIfPresent("processed_at")
        sampleCount = try row.decode("sample_count")
        tripCount = try row.decode("trip_count")
        distanceKm = try row.decode("distance_km")
        attentionEventCount = try row.decode("attention_event_count")
    }
}

/// Sums over a user's trips in a range, for the metrics routes.
struct TripTotals: Sendable, RowDecodable {
    var trips: Int
    var distanceKm: Double
    var durationSec: Double
    var maxSpeedKmh: Double
    /// Σ score × distance, for the distance-weighted score.
    var weightedScore: Double
    /// Plain mean score (100 without trips), used when no distance was driven.
    var meanScore: Double
    var hardBraking: Int
    var abruptAcceleration: Int
    var hardCornering: Int
    var speedingDurationSec: Int
    var distractionCount: Int
    var distractionDurationSec: Int
    var nightDistanceKm: Double

    init(row: Row) throws {
        trips = try row.decode("trips")
        distanceKm = try row.decode("distance")
        durationSec = try row.decode("duration")
        maxSpeedKmh = try row.decode("max_speed")
        weightedScore = try row.decode("weighted_score")
        meanScore = try row.decode("mean_score")
        hardBraking = try row.decode("hb")
        abruptAcceleration = try row.decode("aa")
        hardCornering = try row.decode("hc")
        speedingDurationSec = try row.decode("sd")
        distractionCount = try row.decode("dc")
        distractionDurationSec = try row.decode("dd")
        nightDistanceKm = try row.decode("night")
    }
}
