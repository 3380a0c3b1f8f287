import Foundation

/// `TelematicsTripDetails`: one trip with its events, attention events and (if asked) samples.
public struct TelematicsTripDetails: Sendable, Codable, Equatable {
    /// The trip's id.
    public var id: Int
    /// The first sample's time (ISO 8601).
    public var startedAt: String
    /// The last sample's time (ISO 8601).
    public var endedAt: String
    /// Haversine distance over the samples.
    public var distanceKm: Double
    /// Seconds from first to last sample.
    public var durationSec: Int
    /// The highest sample speed.
    public var maxSpeedKmh: Double
    /// Distance over duration.
    public var avgSpeedKmh: Double
    /// 100 minus 5 per detected event, speeding episode and distraction episode, clamped to 0…100.
    public var score: Int
    /// Distraction episodes: overlapping attention windows count once.
    public var distractionCount: Int
    /// Seconds covered by the union of attention windows.
    public var distractionDurationSec: Int
    /// Manual events that fall in the trip.
    public var manualEventCount: Int
    /// Hard brakes (either speed band).
    public var hardBrakingCount: Int
    /// The trip's samples; empty unless requested with `includeSamples`.
    public var samples: [TelematicsTripSample]
    /// Detected and manual driving events, in time order.
    public var events: [TelematicsTripEvent]
    /// Attention events inside the trip.
    public var attentionEvents: [TelematicsAttentionEvent]
}
