import Foundation

/// `TelematicsActivityMetricsSummary`: totals per activity in a range.
public struct TelematicsActivityMetricsSummary: Sendable, Codable, Equatable {
    /// One activity's totals.
    public struct Activity: Sendable, Codable, Equatable {
        /// `driving` (from trips), or `passenger`, `walking`, `cycling`, `stopped`, `other` (from manual marks).
        public var activity: String
        /// How many trips, or how many manual marks of the activity.
        public var count: Int
        /// Total trip duration; 0 for the mark-based activities.
        public var durationSec: Int
        /// Total trip distance; 0 for the mark-based activities.
        public var distanceKm: Double
    }
    /// Start of the range asked for (ISO 8601); nil for unbounded.
    public var from: String?
    /// End of the range asked for (ISO 8601); nil for unbounded.
    public var to: String?
    /// `driving` first, then every mark-based activity, each present even when zero.
    public var activities: [Activity]
}
