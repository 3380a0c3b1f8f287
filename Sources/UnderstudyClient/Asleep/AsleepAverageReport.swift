import Foundation

/// `GET /data/v1/users/{id}/average-stats` result, loosely typed where the averages are open-ended.
public struct AsleepAverageReport: Sendable, Codable, Equatable {
    /// The date range and zone averaged over.
    public var period: AsleepPeriod
    /// Why the averages are limited, e.g. `NO_BREATHING_STABILITY`.
    public var peculiarities: [String]
    /// Mean statistics over the sessions that slept; nil when none did.
    public var averageStats: AnyJSON?
    /// Sessions in the range without any sleep epoch.
    public var neverSleptSessions: [AnyJSON]
    /// Sessions in the range that went into the averages.
    public var sleptSessions: [AnyJSON]
}
