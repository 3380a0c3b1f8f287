import Foundation

/// A project's clock: real time, frozen at an instant, or real time shifted by an offset.
public struct ClockSettings: Sendable, Equatable, Codable {
    /// How the clock runs.
    public enum Mode: String, Sendable, Codable {
        /// The wall clock.
        case real
        /// Stands still at the frozen instant; moves only when advanced or set again.
        case frozen
        /// The wall clock shifted by the offset.
        case offset
    }

    /// The mode.
    public var mode: Mode
    /// The frozen instant (mode `frozen`).
    public var frozenAt: Date?
    /// Seconds added to real time (mode `offset`).
    public var offsetSeconds: Double

    /// Real time.
    public static let real = ClockSettings(mode: .real, frozenAt: nil, offsetSeconds: 0)

    /// How far a project's clock may be from real time, either way: 100 years of 365.25 days.
    /// `PUT …/clock`, `clock/advance` and a bundle's clock are all held to it, so every instant a
    /// platform computes from the clock stays far inside `Timestamp.range`.
    public static let maximumShiftSeconds: Double = 100 * 365.25 * 86_400

    /// The most one `clock/advance` moves the clock: ten years of 365 days.
    public static let maximumAdvanceSeconds: Double = 10 * 365 * 86_400

    /// Why these settings are outside `maximumShiftSeconds` of `real` (NaN and ±∞ included); nil
    /// when they are inside.
    public func rangeProblem(real: Date = Date()) -> String? {
        let limit = Self.maximumShiftSeconds
        switch mode {
        case .real:
            return nil
        case .offset:
            guard offsetSeconds.isFinite, offsetSeconds.magnitude <= limit else {
                return "The clock's offset must be within ±\(Int(limit)) seconds (100 years) of real time; got \(offsetSeconds) s."
            }
            return nil
        case .frozen:
            let distance = (frozenAt ?? real).timeIntervalSince(real)
            guard distance.isFinite, distance.magnitude <= limit else {
                return "A frozen clock must be within 100 years of real time; got \(Timestamp.format(frozenAt ?? real))."
            }
            return nil
        }
    }

    /// Creates settings.
    public init(mode: Mode, frozenAt: Date?, offsetSeconds: Double) {
        self.mode = mode
        self.frozenAt = frozenAt
        self.offsetSeconds = offsetSeconds
    }

    /// The project's "now" given the real time, held inside `Timestamp.range`: settings from
    /// before the bound (or a doctored row) still give every platform an instant it can convert.
    public func now(real: Date = Date()) -> Date {
        switch mode {
        case .real: return real
        case .frozen: return Timestamp.clamped(frozenAt ?? real)
        case .offset: return real.addingClamped(seconds: offsetSeconds)
        }
    }

    /// These settings moved forward by `seconds` (frozen moves the instant, others grow the offset).
    public func advanced(by seconds: Double, real: Date = Date()) -> ClockSettings {
        switch mode {
        case .frozen: return ClockSettings(mode: .frozen, frozenAt: now(real: real).addingTimeInterval(seconds), offsetSeconds: 0)
        case .real, .offset: return ClockSettings(mode: .offset, frozenAt: nil, offsetSeconds: offsetSeconds + seconds)
        }
    }
}
