import Foundation

/// The `session` of a report (`Asleep.Model.Session`).
public struct AsleepReportSession: Sendable, Codable, Equatable {
    /// The session's id.
    public var id: String
    /// `OPEN`, `CLOSED` or `COMPLETE`.
    public var state: String
    /// When tracking started, in the report's zone (`±hh:mm`).
    public var startTime: String
    /// When tracking stopped, in the report's zone; nil while open.
    public var endTime: String?
    /// When tracking stopped unexpectedly (`unexpected: 1` on close), if it did.
    public var unexpectedEndTime: String?
    /// The zone the session was started in.
    public var createdTimezone: String
    /// One value per 30-s epoch: 0 wake, 1 light, 2 deep, 3 REM, -1 missing.
    public var sleepStages: [Int]?
    /// One value per epoch: 0 stable, 1 unstable, -1 missing; nil while breathing analysis is off.
    public var breathStages: [Int]?
    /// One value per epoch: 0 quiet, 1 snoring, -1 missing; nil while snoring analysis is off.
    public var snoringStages: [Int]?
}
