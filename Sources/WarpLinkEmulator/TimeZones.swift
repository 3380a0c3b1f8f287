import EmulatorCore
import Foundation

/// IANA zones: validity and the JS-style offset ([W-A2], [W-C3]).
public enum TimeZones {
    /// Whether `identifier` is a tzdb zone name (`TimeZoneNames`).
    public static func isValid(_ identifier: String) -> Bool { TimeZoneNames.isValid(identifier) }

    /// Minutes with `getTimezoneOffset` sign (UTC−5 → 300) for `identifier` at `date`.
    public static func jsOffset(_ identifier: String, at date: Date) -> Int? {
        guard let zone = TimeZoneNames.zone(identifier) else { return nil }
        return -zone.secondsFromGMT(for: date) / 60
    }
}
