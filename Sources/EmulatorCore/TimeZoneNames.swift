import Foundation

/// The tz database's zone names (IANA), canonical and backward aliases alike (`Asia/Kolkata`,
/// `Asia/Calcutta`, `US/Eastern`, `Etc/UTC`), as the SDKs send them from the device's settings.
///
/// The list is the server's own (`TimeZoneNames+Data.swift`): Foundation's
/// `knownTimeZoneIdentifiers` on Linux lacks names a phone sends (`Asia/Kolkata`), and
/// `TimeZone(identifier:)` also takes abbreviations (`PST`) that name no zone.
public enum TimeZoneNames {
    private static let names = Set(all)

    /// Whether `name` is a tz database name this system resolves to a zone.
    public static func isValid(_ name: String) -> Bool { zone(name) != nil }

    /// The zone `name` names; nil for anything that is not a tz database name, or that this
    /// system's Foundation cannot resolve.
    public static func zone(_ name: String) -> TimeZone? {
        names.contains(name) ? TimeZone(identifier: name) : nil
    }

    /// Every name this system resolves, sorted: what the OpenAPI documents list.
    public static let resolvable: [String] = all.filter { TimeZone(identifier: $0) != nil }
}
