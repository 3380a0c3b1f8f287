import Foundation

/// Confidence ceilings by click age and fingerprint variant ([W-M4], [W-M5]), in hundredths.
public enum ConfidenceScale {
    /// The fingerprint variants, best first.
    public enum Variant: String, Sendable, CaseIterable {
        /// IP, language and IANA time zone match (also the level of an exact fingerprint match).
        case enrichedTZ = "enriched_tz"
        /// IP, language and UTC offset match, with no time zone name to compare.
        case enriched
        /// Only IP and language match.
        case basic
    }

    /// The ceiling for a click `age` seconds old, or nil when it is too old to match.
    public static func ceiling(_ variant: Variant, age: TimeInterval, legacy: Bool) -> Int? {
        guard age >= 0 else { return ceiling(variant, age: 0, legacy: legacy) }
        let hours = age / 3600
        if legacy {
            if hours < 1 { return 85 }
            if hours < 24 { return 65 }
            if hours < 72 { return 40 }
            return nil
        }
        let row: [Int]
        if hours < 1 {
            row = [85, 80, 70]
        } else if hours < 3 {
            row = [65, 60, 50]
        } else if hours < 6 {
            row = [50, 45, 35]
        } else if hours < 24 {
            row = [30, 25, 20]
        } else {
            return nil
        }
        switch variant {
        case .enrichedTZ: return row[0]
        case .enriched: return row[1]
        case .basic: return row[2]
        }
    }

    /// The final confidence: ceiling × candidate multiplier × IP factor, rounded half up to 2 decimals.
    /// Integer arithmetic keeps e.g. 0.85 × 0.9 at 0.77 rather than a binary-rounding 0.76.
    public static func confidence(ceiling: Int, claimableInBucket: Int, ipFactorTenths: Int, legacy: Bool) -> Double {
        var hundredths = ceiling
        var candidateTenths = 10
        if legacy {
            hundredths = max(0, ceiling - 15 * max(0, claimableInBucket - 1))
        } else if claimableInBucket > 1 {
            candidateTenths = 6
        }
        let product = hundredths * candidateTenths * ipFactorTenths // units of 1e-4
        let rounded = (product + 50) / 100
        return Double(rounded) / 100
    }

    /// The match window of a link in seconds: its `match_window_hours` (default 6, or 72 when
    /// legacy), clamped to 24 h (72 h legacy).
    public static func window(hours: Int?, legacy: Bool) -> TimeInterval {
        let ceilingHours = legacy ? 72 : 24
        let chosen = min(max(hours ?? (legacy ? 72 : 6), 0), ceilingHours)
        return TimeInterval(chosen) * 3600
    }
}
