import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ISO 8601 formatting and parsing with `Date.ISO8601FormatStyle` (fast; never `ISO8601DateFormatter`).
public enum Timestamp {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    /// The instants this server reads and writes: years 0001 to 9999, the four-digit years ISO 8601
    /// text carries without an agreement. `parse` refuses anything outside; `format` holds it at the
    /// nearer end, so no stored value or clock reading can make formatting trap.
    public static let range = Date(timeIntervalSince1970: -62_135_596_800)...Date(timeIntervalSince1970: 253_402_300_799.999)

    /// `date` held inside `range` (NaN, which no comparison orders, becomes 1970-01-01).
    public static func clamped(_ date: Date) -> Date {
        let seconds = date.timeIntervalSince1970
        if seconds.isNaN { return Date(timeIntervalSince1970: 0) }
        return min(max(date, range.lowerBound), range.upperBound)
    }

    /// `2026-11-03T12:43:29.562Z` (milliseconds, rounded) or without fraction; an instant outside
    /// `range` is written as the nearer end of it.
    ///
    /// The fraction is computed from whole milliseconds rather than left to the format style,
    /// which truncates: a stored `.640` is the double `.63999…` and would print as `.639`.
    public static func format(_ date: Date, fractionalSeconds: Bool = true) -> String {
        // In `range`, milliseconds are below 2.6e14: every conversion below is exact and in bounds.
        let milliseconds = (clamped(date).timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        return utc(seconds: Int(seconds), fraction: fractionalSeconds ? (Int(milliseconds - seconds * 1000), 3) : nil) // checked: clamped above
    }

    /// `YYYY-MM-DDThh:mm:ss[.fff…]Z` from epoch seconds through `gmtime_r`: the format style costs
    /// microseconds per call, and the journal formats a timestamp for every request.
    static func utc(seconds: Int, fraction: (value: Int, digits: Int)?) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var out: [UInt8] = []
        out.reserveCapacity(32)
        // Digits are written in place: a temporary array per field cost six allocations a stamp.
        func append(_ value: Int, width: Int) {
            let end = out.count + width
            out.append(contentsOf: repeatElement(48, count: width))
            var rest = value
            for index in stride(from: end - 1, through: end - width, by: -1) {
                out[index] = UInt8(48 + rest % 10)
                rest /= 10
            }
        }
        append(Int(parts.tm_year) + 1900, width: 4)
        out.append(UInt8(ascii: "-"))
        append(Int(parts.tm_mon) + 1, width: 2)
        out.append(UInt8(ascii: "-"))
        append(Int(parts.tm_mday), width: 2)
        out.append(UInt8(ascii: "T"))
        append(Int(parts.tm_hour), width: 2)
        out.append(UInt8(ascii: ":"))
        append(Int(parts.tm_min), width: 2)
        out.append(UInt8(ascii: ":"))
        append(Int(parts.tm_sec), width: 2)
        if let fraction {
            out.append(UInt8(ascii: "."))
            append(fraction.value, width: fraction.digits)
        }
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `2026-11-03T12:43:29.562522Z`: UTC with exactly six fractional digits.
    public static func formatMicroseconds(_ date: Date) -> String {
        let micros = (clamped(date).timeIntervalSince1970 * 1_000_000).rounded() // below 2.6e17 in `range`
        let seconds = (micros / 1_000_000).rounded(.down)
        return utc(seconds: Int(seconds), fraction: (Int(micros - seconds * 1_000_000), 6)) // checked: clamped above
    }

    /// Parses ISO 8601 with or without fractional seconds, with `Z` or a numeric offset; nil for
    /// anything else and for an instant outside `range`.
    public static func parse(_ text: String) -> Date? {
        guard let date = parseAnyYear(text), range.contains(date) else { return nil }
        return date
    }

    private static func parseAnyYear(_ text: String) -> Date? {
        if let date = parseCanonical(text) { return date }
        // The format style rolls fields over (`T25:00:00Z` is the next day's 01:00): a field out of
        // its range is refused here first.
        guard fieldsInRange(text) else { return nil }
        if let date = try? withFraction.parse(text) { return date }
        if let date = try? withoutFraction.parse(text) { return date }
        // More than three fractional digits: ISO8601FormatStyle may reject; trim to milliseconds.
        if let dot = text.firstIndex(of: ".") {
            var end = text.index(after: dot)
            while end < text.endIndex, text[end].isNumber { end = text.index(after: end) }
            let digits = text[text.index(after: dot)..<end]
            if digits.count > 3 {
                let trimmed = String(text[..<text.index(dot, offsetBy: 4)]) + text[end...]
                return try? withFraction.parse(trimmed)
            }
        }
        return nil
    }

    /// The stamps this server writes itself (`YYYY-MM-DDThh:mm:ssZ`, optionally `.fff`), parsed by
    /// hand: every stored timestamp is read back through `parse`, and the format style costs
    /// microseconds a call. Anything else (offsets, other precisions, out-of-range fields, year
    /// 0000) is nil, and `parse` hands it to the format style.
    public static func parseCanonical(_ text: String) -> Date? {
        var copy = text
        return copy.withUTF8 { bytes -> Date? in
            guard bytes.count == 20 || bytes.count == 24, bytes[bytes.count - 1] == UInt8(ascii: "Z"), bytes[10] == UInt8(ascii: "T"),
                bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"), let (year, month, day) = dayFields(bytes),
                let hour = decimal(bytes, 11, 2), let minute = decimal(bytes, 14, 2), let second = decimal(bytes, 17, 2),
                year >= 1, hour < 24, minute < 60, second < 60
            else { return nil }
            var milliseconds = 0
            if bytes.count == 24 {
                guard bytes[19] == UInt8(ascii: "."), let fraction = decimal(bytes, 20, 3) else { return nil }
                milliseconds = fraction
            }
            let seconds = daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
            return Date(timeIntervalSince1970: Double(seconds) + Double(milliseconds) / 1000)
        }
    }

    /// Days from 1970-01-01 to the real day a `yyyy-MM-dd` text names (leap years included), as
    /// Foundation's Gregorian calendar in UTC counts them; nil for anything else. Counted by hand:
    /// a calendar built per call was most of what checking a date cost. Foundation's calendar is
    /// Julian before October 1582, so earlier days still go through one.
    public static func dayNumber(_ text: String) -> Int? {
        var copy = text // `withUTF8` may make it contiguous
        guard let (year, month, day) = copy.withUTF8({ bytes in bytes.count == 10 ? dayFields(bytes) : nil }) else { return nil }
        guard year < 1583 else { return daysSinceEpoch(year: year, month: month, day: day) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")! // UTC is always a known zone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return nil }
        return Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) // checked: a four-digit year, a few million days at most
    }

    /// Whether the text's date is a real day and its time (`Thh:mm[:ss]`) and offset
    /// (`±hh:mm`) fields are within their ranges, for the texts the format style parses.
    private static func fieldsInRange(_ text: String) -> Bool {
        var copy = text
        return copy.withUTF8 { bytes -> Bool in
            guard dayFields(bytes) != nil else { return false }
            guard bytes.count > 10 else { return true }
            guard bytes.count >= 16, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"), bytes[13] == UInt8(ascii: ":"),
                let hour = decimal(bytes, 11, 2), let minute = decimal(bytes, 14, 2), hour < 24, minute < 60
            else { return false }
            var index = 16
            if bytes.count >= 19, bytes[16] == UInt8(ascii: ":") {
                guard let second = decimal(bytes, 17, 2), second < 60 else { return false }
                index = 19
            }
            while index < bytes.count, bytes[index] == UInt8(ascii: ".") || (48...57).contains(bytes[index]) { index += 1 }
            guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return true }
            // An offset: `±hh:mm` or `±hhmm`, hours below 24 and minutes below 60.
            let colon = index + 3 < bytes.count && bytes[index + 3] == UInt8(ascii: ":")
            guard bytes.count == index + (colon ? 6 : 5), let hours = decimal(bytes, index + 1, 2),
                let minutes = decimal(bytes, index + (colon ? 4 : 3), 2)
            else { return false }
            return hours < 24 && minutes < 60
        }
    }

    /// The real day the first ten bytes name as `yyyy-MM-dd`, nil when they do not.
    private static func dayFields(_ bytes: UnsafeBufferPointer<UInt8>) -> (year: Int, month: Int, day: Int)? {
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = decimal(bytes, 0, 4), let month = decimal(bytes, 5, 2), let day = decimal(bytes, 8, 2), (1...12).contains(month)
        else { return nil }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthLength = month == 2 ? (isLeap ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31
        return (1...monthLength).contains(day) ? (year, month, day) : nil
    }

    /// The ASCII digits `bytes[start..<start + count]` as a number, nil when one is not a digit.
    private static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            let digit = Int(bytes[index]) - 48
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    /// Days from 1970-01-01 to `year-month-day` in the proleptic Gregorian calendar (Howard
    /// Hinnant's algorithm), for fields already checked to name a real day.
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
