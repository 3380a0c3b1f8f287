import Foundation

/// The period of an average report.
public struct AsleepPeriod: Sendable, Codable, Equatable {
    /// The zone the dates are read in.
    public var timezone: String
    /// First day, `yyyy-MM-dd`.
    public var startDate: String
    /// Last day, `yyyy-MM-dd` (at most 100 days after the first).
    public var endDate: String

    /// A period to compare with a report's.
    public init(timezone: String, startDate: String, endDate: String) {
        self.timezone = timezone
        self.startDate = startDate
        self.endDate = endDate
    }
}
