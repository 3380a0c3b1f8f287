import Foundation

/// IANA zones: validity and the JS-style offset ([W-A2], [W-C3]).
public enum TimeZones {
    private static let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC", "Etc/UTC", "GMT", "Etc/GMT"])

    /// Whether `identifier` is a tzdb zone name.
    public static func isValid(_ identifier: String) -> Bool {
        known.contains(identifier) && TimeZone(identifier: identifier) != nil
    }

    /// Minutes with `getTimezoneOffset` sign (UTC−5 → 300) for `identifier` at `date`.
    public static func jsOffset(_ identifier: String, at date: Date) -> Int? {
        guard isValid(identifier), let zone = TimeZone(identifier: identifier) else { return nil }
        return -zone.secondsFromGMT(for: date) / 60
    }
}
