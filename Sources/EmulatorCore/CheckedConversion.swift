import Foundation

// Numbers and times from requests, bundles, stored rows and the clock are converted here, with
// results that are nil instead of traps: `Int64(someDouble)` traps on NaN, ±∞ and anything past
// ±9.22e18, `abs(Int64.min)` traps, and `Date` arithmetic on such values yields instants no
// formatter can print. `scripts/check-numbers.sh` keeps the unchecked forms out of `Sources`.

extension Double {
    /// This value rounded by `rule` as an `Int64`; nil for NaN, ±∞ or a result outside `Int64`.
    @inlinable public func roundedInt64(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int64? {
        Int64(exactly: rounded(rule))
    }

    /// This value rounded by `rule` as an `Int`; nil for NaN, ±∞ or a result outside `Int`.
    @inlinable public func roundedInt(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int? {
        Int(exactly: rounded(rule))
    }
}

extension Date {
    /// Milliseconds since 1970, rounded; nil for an instant outside `Timestamp.range`.
    public var epochMilliseconds: Int64? {
        guard Timestamp.range.contains(self) else { return nil }
        return (timeIntervalSince1970 * 1000).roundedInt64()
    }

    /// Milliseconds since 1970 of this instant held inside `Timestamp.range` (below 2.6e14 in
    /// magnitude, so sums and differences of a few of them cannot overflow); never traps.
    public var clampedEpochMilliseconds: Int64 {
        // In range the product is below 2.6e14, so `Int64(exactly:)` cannot fail.
        (Timestamp.clamped(self).timeIntervalSince1970 * 1000).roundedInt64() ?? 0
    }

    /// The instant `milliseconds` after 1970; nil outside `Timestamp.range`.
    public init?(epochMilliseconds milliseconds: Int64) {
        self.init(epochSeconds: Double(milliseconds) / 1000)
    }

    /// The instant `seconds` after 1970; nil for NaN, ±∞ or an instant outside `Timestamp.range`.
    public init?(epochSeconds seconds: Double) {
        guard seconds.isFinite else { return nil }
        let date = Date(timeIntervalSince1970: seconds)
        guard Timestamp.range.contains(date) else { return nil }
        self = date
    }

    /// This instant moved by `seconds`; nil for NaN, ±∞ or a result outside `Timestamp.range`.
    public func adding(seconds: Double) -> Date? {
        guard seconds.isFinite else { return nil }
        return Date(epochSeconds: timeIntervalSince1970 + seconds)
    }

    /// This instant moved by `seconds`, held at the nearest end of `Timestamp.range`: for
    /// deadlines (token expiry, retention) where "later than anything" is the meaning of a huge value.
    public func addingClamped(seconds: Double) -> Date {
        if seconds.isNaN { return self }
        return Timestamp.clamped(Date(timeIntervalSince1970: timeIntervalSince1970 + seconds))
    }
}
