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

    /// `2026-11-03T12:43:29.562Z` (milliseconds, rounded) or without fraction.
    ///
    /// The fraction is computed from whole milliseconds rather than left to the format style,
    /// which truncates: a stored `.640` is the double `.63999…` and would print as `.639`.
    public static func format(_ date: Date, fractionalSeconds: Bool = true) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        return utc(seconds: Int(seconds), fraction: fractionalSeconds ? (Int(milliseconds - seconds * 1000), 3) : nil)
    }

    /// `YYYY-MM-DDThh:mm:ss[.fff…]Z` from epoch seconds through `gmtime_r`: the format style costs
    /// microseconds per call, and the journal formats a timestamp for every request.
    static func utc(seconds: Int, fraction: (value: Int, digits: Int)?) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        var out: [UInt8] = []
        out.reserveCapacity(32)
        func append(_ value: Int, width: Int) {
            var digits = [UInt8](repeating: 48, count: width)
            var rest = value
            for index in stride(from: width - 1, through: 0, by: -1) {
                digits[index] = UInt8(48 + rest % 10)
                rest /= 10
            }
            out.append(contentsOf: digits)
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
        let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
        let seconds = (micros / 1_000_000).rounded(.down)
        return utc(seconds: Int(seconds), fraction: (Int(micros - seconds * 1_000_000), 6))
    }

    /// Parses ISO 8601 with or without fractional seconds, with `Z` or a numeric offset.
    public static func parse(_ text: String) -> Date? {
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
}
