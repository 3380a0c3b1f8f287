import Foundation

/// `TelematicsTripResume`: a trip's totals, as `getTripsList` lists them.
public struct TelematicsTripResume: Sendable, Codable, Equatable {
    /// The trip's id.
    public var id: Int
    /// The vehicle driven, when one was current.
    public var vehicleId: Int?
    /// The telematics period the trip was built from.
    public var periodId: Int?
    /// The first sample's time (ISO 8601).
    public var startedAt: String
    /// The last sample's time (ISO 8601).
    public var endedAt: String
    /// Haversine distance over the samples.
    public var distanceKm: Double
    /// Seconds from first to last sample.
    public var durationSec: Int
    /// Where the trip began.
    public var startLocation: TelematicsLocation?
    /// Where the trip ended.
    public var endLocation: TelematicsLocation?
    /// Distance over duration.
    public var avgSpeedKmh: Double
    /// The highest sample speed.
    public var maxSpeedKmh: Double
    /// 100 minus 5 per detected event, speeding episode and distraction episode, clamped to 0…100.
    public var score: Int
    /// Hard brakes (either speed band).
    public var hardBrakingCount: Int
    /// Abrupt accelerations (either speed band).
    public var abruptAccelerationCount: Int
    /// Sharp turns.
    public var hardCorneringCount: Int
    /// Speeding episodes (needs `speedLimitKmh` on the samples).
    public var speedingCount: Int
    /// Seconds spent over the limit.
    public var speedingDurationSec: Int
    /// Distraction episodes: overlapping attention windows count once.
    public var distractionCount: Int
    /// Seconds covered by the union of attention windows.
    public var distractionDurationSec: Int
    /// Manual events that fall in the trip.
    public var manualEventCount: Int
}
