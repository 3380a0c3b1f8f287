import EmulatorCore
import Foundation

/// Asleep's time formats: data-API timestamps with a `±hh:mm` offset in the requested zone,
/// user-API timestamps in UTC with `Z`, `YYYY-MM-DD` query dates and the time-based id formats.
enum WireTime {
    /// The zone named by a `timezone` header or parameter; absent or empty means UTC.
    static func zone(_ name: String?) throws(AsleepError) -> TimeZone {
        guard let name = name?.trimmingWhitespace(), !name.isEmpty else { return utc }
        guard let zone = TimeZoneNames.zone(name) else { throw .invalidTimezone }
        return zone
    }

    /// Every zone name we accept, sorted (the OpenAPI document lists them).
    static var zoneNames: [String] { TimeZoneNames.resolvable }

    /// Whether `name` is an IANA zone name we accept.
    static func isValidZone(_ name: String) -> Bool { TimeZoneNames.isValid(name) }

    // "UTC" is a zone every Foundation knows, so the identifier always resolves.
    static let utc = TimeZone(identifier: "UTC")!

    /// The zone's name as responses show it (Foundation on Linux calls UTC `GMT`).
    static func name(_ zone: TimeZone) -> String { zone.identifier == "GMT" ? "UTC" : zone.identifier }

    private static func components(_ date: Date, _ zone: TimeZone) -> DateComponents {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// `2025-01-15T11:50:29+09:00` (data API; `+00:00` for UTC, never `Z`).
    static func format(_ date: Date, in zone: TimeZone) -> String {
        let c = components(date, zone)
        let offset = zone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        let minutes = Int(offset.magnitude / 60) // a zone offset is at most a day of seconds
        return "\(pad(c.year ?? 0, 4))-\(pad(c.month ?? 0))-\(pad(c.day ?? 0))T\(pad(c.hour ?? 0)):\(pad(c.minute ?? 0)):\(pad(c.second ?? 0))"
            + "\(sign)\(pad(minutes / 60)):\(pad(minutes % 60))"
    }

    /// `2025-01-15T02:50:29Z` (user API).
    static func formatUTC(_ date: Date) -> String {
        let c = components(date, utc)
        return "\(pad(c.year ?? 0, 4))-\(pad(c.month ?? 0))-\(pad(c.day ?? 0))T\(pad(c.hour ?? 0)):\(pad(c.minute ?? 0)):\(pad(c.second ?? 0))Z"
    }

    /// `20250115025029`: UTC creation time as the id formats use it.
    static func compactUTC(_ date: Date) -> String {
        let c = components(date, utc)
        return "\(pad(c.year ?? 0, 4))\(pad(c.month ?? 0))\(pad(c.day ?? 0))\(pad(c.hour ?? 0))\(pad(c.minute ?? 0))\(pad(c.second ?? 0))"
    }

    /// Seconds since local midnight of `date` in `zone`.
    static func secondsOfDay(_ date: Date, in zone: TimeZone) -> Int {
        let c = components(date, zone)
        return (c.hour ?? 0) * 3600 + (c.minute ?? 0) * 60 + (c.second ?? 0)
    }

    /// `hh:mm:ss` for a number of seconds since midnight.
    static func clock(_ seconds: Int) -> String {
        let value = ((seconds % 86_400) + 86_400) % 86_400
        return "\(pad(value / 3600)):\(pad(value / 60 % 60)):\(pad(value % 60))"
    }

    /// The local calendar day of `date` in `zone` as a day number (days since 1970-01-01), as a
    /// calendar in that zone would name it. Session lists and average stats place every session
    /// of the user by day, and a calendar and a string per session were a third of such a list.
    static func dayNumber(_ date: Date, in zone: TimeZone) -> Int {
        let local = date.timeIntervalSince1970 + Double(zone.secondsFromGMT(for: date))
        return (local / 86_400).roundedInt(.down) ?? 0
    }

    /// The start times (Unix seconds, `from ..< before`) that can fall on local days
    /// `firstDay...lastDay` in some zone; nil leaves that side open. Every zone's offset is under a
    /// day, so a day's instants lie within a day either side of its UTC midnight. A store reads
    /// only this window and `dayNumber` still decides each session; before, a month's list read
    /// every night the user ever had.
    static func startWindow(firstDay: Int?, lastDay: Int?) -> (from: Double, before: Double) {
        (
            firstDay.map { Double($0 - 1) * 86_400 } ?? -.greatestFiniteMagnitude,
            lastDay.map { Double($0 + 2) * 86_400 } ?? .greatestFiniteMagnitude
        )
    }

    /// Parses a strict `YYYY-MM-DD` that names a real calendar day; returns its day number
    /// (days since 1970-01-01) so ranges can be compared and measured.
    static func parseDay(_ text: String) -> Int? { Timestamp.dayNumber(text) }

    /// Days in a month, leap years included.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The current calendar year in UTC of `date`.
    static func year(_ date: Date) -> Int { components(date, utc).year ?? 2026 }

    /// Parses a client-sent instant (`YYYY-MM-DDTHH:mm:ssZ`, an offset, or fractional seconds),
    /// truncated to whole seconds as the service stores them. Every RFC 3339 date-time is read
    /// (what the OpenAPI document's `date-time` admits); other forms Foundation reads still are.
    static func parseInstant(_ text: String) -> Date? {
        guard let date = parseRFC3339(text) ?? Timestamp.parse(text) else { return nil }
        return Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// An RFC 3339 date-time: `T`/`t`, `Z`/`z` or an offset up to ±23:59 (beyond what Foundation's
    /// ISO 8601 reader takes), any number of fractional digits, a day that exists.
    static func parseRFC3339(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard index < bytes.count, (48...57).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 48)
            }
            return value
        }
        guard let year = number(0..<4), bytes[4] == 45, let month = number(5..<7), bytes[7] == 45, let day = number(8..<10),
            bytes[10] == 84 || bytes[10] == 116, let hour = number(11..<13), bytes[13] == 58, let minute = number(14..<16),
            bytes[16] == 58, let second = number(17..<19),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 60
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == 46 { // '.'
            index += 1
            let first = index
            var scale = 0.1
            while index < bytes.count, (48...57).contains(bytes[index]) {
                fraction += Double(bytes[index] - 48) * scale
                scale /= 10
                index += 1
            }
            guard index > first else { return nil }
        }
        guard index < bytes.count else { return nil }
        var offset = 0
        if bytes[index] == 90 || bytes[index] == 122 { // 'Z' / 'z'
            index += 1
        } else if bytes[index] == 43 || bytes[index] == 45 { // '+' / '-'
            guard let hours = number(index + 1..<index + 3), index + 3 < bytes.count, bytes[index + 3] == 58,
                let minutes = number(index + 4..<index + 6), hours < 24, minutes < 60
            else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == 45 ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = Timestamp.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }
}
