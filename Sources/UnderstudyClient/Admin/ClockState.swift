import Foundation

/// A project's virtual clock: real time, frozen at an instant, or real time shifted by an offset.
public struct ClockState: Sendable, Codable, Equatable {
    /// `real`, `frozen` or `offset`.
    public var mode: String
    /// The project's current time.
    public var now: String
    /// Offset from real time (mode `offset`).
    public var offsetSeconds: Double
    /// The frozen instant (mode `frozen`).
    public var frozenAt: String?
}
