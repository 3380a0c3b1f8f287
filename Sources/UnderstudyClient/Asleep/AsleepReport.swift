import Foundation

/// `GET /data/v3/sessions/{id}` result (`Asleep.Model.Report`).
public struct AsleepReport: Sendable, Codable, Equatable {
    /// The zone the report's times are written in (the `timezone` header, else UTC).
    public var timezone: String
    /// Why the analysis is limited, e.g. `TOO_SHORT_FOR_ANALYSIS`, `NEVER_SLEPT`, `NO_BREATHING_STABILITY`; `IN_PROGRESS` before completion.
    public var peculiarities: [String]
    /// The share of expected 30-s chunks that never arrived, 0–1.
    public var missingDataRatio: Double
    /// The session with its stage arrays.
    public var session: AsleepReportSession
    /// Statistics derived from the stages; nil until the session is `COMPLETE`.
    public var stat: AsleepStat?
}
