import EmulatorCore
import Foundation

/// The per-epoch stage arrays of a session (one entry per 30-s chunk index).
public struct StageArrays: Sendable, Equatable {
    /// `-1` unknown (chunk missing), `0` wake, `1` light, `2` deep, `3` REM.
    public var sleep: [Int]
    /// `0` no snoring, `1` snoring.
    public var snoring: [Int]
    /// `0` stable, `1` unstable breathing.
    public var breath: [Int]

    /// Creates arrays.
    public init(sleep: [Int], snoring: [Int], breath: [Int]) {
        self.sleep = sleep
        self.snoring = snoring
        self.breath = breath
    }

    /// The first `count` epochs.
    public func prefix(_ count: Int) -> StageArrays {
        StageArrays(sleep: Array(sleep.prefix(count)), snoring: Array(snoring.prefix(count)), breath: Array(breath.prefix(count)))
    }

    /// Integers as a JSON array (the wire's stage arrays).
    static func json(_ values: [Int]) -> JSONValue { .array(values.map { .int(Int64($0)) }) }

    /// The stage arrays the control plane set in a session's `overrides`, if any.
    static func explicit(in overrides: JSONValue) -> StageArrays? {
        func array(_ key: String) -> [Int]? { overrides[key]?.arrayValue?.compactMap(\.intValue) }
        let sleep = array("sleepStages"), snoring = array("snoringStages"), breath = array("breathStages")
        if sleep == nil && snoring == nil && breath == nil { return nil }
        return StageArrays(sleep: sleep ?? [], snoring: snoring ?? [], breath: breath ?? [])
    }
}
