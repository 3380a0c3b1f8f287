import Foundation

/// One entry of the session list (`Asleep.Model.SleepSession`).
public struct AsleepSleepSession: Sendable, Codable, Equatable {
    /// The session's id.
    public var sessionId: String
    /// `OPEN`, `CLOSED` or `COMPLETE`.
    public var state: String
    /// When tracking started, in the list's zone.
    public var sessionStartTime: String
    /// When tracking stopped; nil while open.
    public var sessionEndTime: String?
    /// The zone the session was started in.
    public var createdTimezone: String
    /// When tracking stopped unexpectedly, if it did.
    public var unexpectedEndTime: String?
    /// The highest chunk sequence number received.
    public var lastReceivedSeqNum: Int?
    /// Seconds from start to end of tracking (so far, while open).
    public var timeInBed: Int
}
