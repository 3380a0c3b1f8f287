import Foundation

/// `GET /data/v1/sessions` result.
public struct AsleepSessionList: Sendable, Codable, Equatable {
    /// The zone the list's times are written in.
    public var timezone: String
    /// The user's sessions in the requested date range and order.
    public var sleepSessionList: [AsleepSleepSession]
}
