import Foundation

/// A user's most recent session, as the user API shows it.
public struct AsleepLastSessionInfo: Sendable, Codable, Equatable {
    /// The session's id.
    public var sessionId: String
    /// What the SDK uploads for analysis, `MELSPECTROGRAM` (the default) or `AUDIO`.
    public var inferenceType: String
    /// The app nickname the session was started with.
    public var service: String
    /// When tracking started (UTC, `Z`).
    public var startTime: String
    /// When tracking stopped (UTC); nil while open.
    public var endTime: String?
    /// `OPEN`, `CLOSED` or `COMPLETE`.
    public var state: String
    /// When analysis finished (UTC); nil before `COMPLETE`.
    public var completeTime: String?
}
