import Foundation

/// ISO 8601 formatting and parsing with `Date.ISO8601FormatStyle` (fast; never `ISO8601DateFormatter`).
public enum Timestamp {
    private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
    private static let withoutFraction = Date.ISO8601FormatStyle()

    /// `2026-11-03T12:43:29.562Z` (milliseconds, rounded) or without fraction.
    ///
    /// The fraction is computed from whole milliseconds rather than left to the format style,
    /// which truncates: a stored `.640` is the double `.63999…` and would print as `.639`.
    public static func format(_ date: Date, fractionalSeconds: Bool = true) -> String {
        guard fractionalSeconds else { return withoutFraction.format(date) }
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let seconds = (milliseconds / 1000).rounded(.down)
        let fraction = Int(milliseconds - seconds * 1000)
        let base = withoutFraction.format(Date(timeIntervalSince1970: seconds))
        let digits = String(fraction)
        return base.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// `2026-11-03T12:43:29.562522Z`: UTC with exactly six fractional digits.
    public static func formatMicroseconds(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        let whole = floor(seconds)
        let micros = Int(((seconds - whole) * 1_000_000).rounded())
        let base = withoutFraction.format(Date(timeIntervalSince1970: whole + (micros == 1_000_000 ? 1 : 0)))
        let digits = String(micros == 1_000_000 ? 0 : micros)
        return base.dropLast() + "." + String(repeating: "0", count: 6 - digits.count) + digits + "Z"
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
