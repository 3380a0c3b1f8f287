import Foundation

/// `TelematicsMetricsSummary`: driving totals over the trips that start in a range.
public struct TelematicsMetricsSummary: Sendable, Codable, Equatable {
    /// Start of the range asked for (ISO 8601); nil for unbounded.
    public var from: String?
    /// End of the range asked for (ISO 8601); nil for unbounded.
    public var to: String?
    /// Trips whose start lies in the range.
    public var tripCount: Int
    /// Their total distance.
    public var distanceKm: Double
    /// Their total duration.
    public var durationSec: Int
    /// Total distance over total duration.
    public var avgSpeedKmh: Double
    /// The highest speed of any of them.
    public var maxSpeedKmh: Double
    /// Distance-weighted mean trip score; 100 with no trips.
    public var score: Int
    /// Hard brakes over all the trips.
    public var hardBrakingCount: Int
    /// Abrupt accelerations over all the trips.
    public var abruptAccelerationCount: Int
    /// Sharp turns over all the trips.
    public var hardCorneringCount: Int
    /// Seconds over the limit over all the trips.
    public var speedingDurationSec: Int
    /// Distraction episodes over all the trips.
    public var distractionCount: Int
    /// Distracted seconds over all the trips.
    public var distractionDurationSec: Int
    /// Distance driven between 22:00 and 06:00 UTC.
    public var nightDrivingDistanceKm: Double
}
