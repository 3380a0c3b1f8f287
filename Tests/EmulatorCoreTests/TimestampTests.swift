import Foundation
import Testing

@testable import EmulatorCore

@Suite("Timestamp parsing and formatting")
struct TimestampParsingTests {
    @Test("the hand parser reads back every stamp the server writes exactly as the format style does")
    func canonicalMatchesFormatStyle() throws {
        var generator = SystemRandomNumberGenerator()
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        for _ in 0..<2_000 {
            // 1900 … 2200, millisecond precision: leap days, month ends and years before 1970 included.
            let milliseconds = Int64.random(in: -2_208_988_800_000...7_258_118_400_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            for text in [Timestamp.format(date), Timestamp.format(date, fractionalSeconds: false)] {
                let fast = try #require(Timestamp.parseCanonical(text), "\(text)")
                let reference = try style.parse(text.contains(".") ? text : text.replacingOccurrences(of: "Z", with: ".000Z"))
                #expect(abs(fast.timeIntervalSince1970 - reference.timeIntervalSince1970) < 0.0005, "\(text)")
            }
        }
    }

    /// The reference the hand count must agree with: the text's shape and the day's existence
    /// checked on strings, the day itself through Foundation's Gregorian calendar in UTC.
    static func dayNumberByCalendar(_ text: String) -> Int? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month)
        else { return nil }
        let isLeap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        guard day >= 1, day <= (month == 2 ? (isLeap ? 29 : 28) : [4, 6, 9, 11].contains(month) ? 30 : 31) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)) else { return nil }
        return Int((date.timeIntervalSince1970 / 86_400).rounded(.down))
    }

    @Test("a yyyy-MM-dd counted by hand names the calendar's day, and an impossible one is nil both ways")
    func handCountedDays() {
        // Every day of years around the leap rules, the epoch and the format's ends.
        var checked = 0
        for year in [1583, 1584, 1600, 1700, 1899, 1900, 1969, 1970, 2000, 2024, 2026, 2100, 2400, 9999] {
            for month in 1...12 {
                for day in 1...31 {
                    let text = String(format: "%04d-%02d-%02d", year, month, day)
                    #expect(Timestamp.dayNumber(text) == Self.dayNumberByCalendar(text), "\(text)")
                    checked += 1
                }
            }
        }
        #expect(checked == 14 * 12 * 31)
        // Before the Gregorian calendar was whole, the calendar's own (Julian) count is the answer.
        for early in ["1582-10-04", "1000-03-01", "0004-02-29", "1582-10-15"] {
            #expect(Timestamp.dayNumber(early) != nil && Timestamp.dayNumber(early) == Self.dayNumberByCalendar(early), "\(early)")
        }
        for malformed in [
            "2026-1-05", "2026-01-5 ", "2026/01/05", "20260-1-05", "2026-00-05", "2026-13-05", "2026-04-31", "2026-02-29",
            "2026-01-00", "2026-01-0x", "２026-01-05", "",
        ] {
            #expect(Timestamp.dayNumber(malformed) == nil && Self.dayNumberByCalendar(malformed) == nil, "\(malformed)")
        }
    }

    @Test("what the hand parser does not know goes to the format style or is refused")
    func nonCanonical() {
        // Not a leap year: the format style would read it leniently as 1 March; it is refused.
        #expect(Timestamp.parseCanonical("2026-02-29T00:00:00Z") == nil)
        #expect((try? Date.ISO8601FormatStyle().parse("2026-02-29T00:00:00Z")) != nil) // why the check is needed
        #expect(Timestamp.parse("2026-02-29T00:00:00Z") == nil)
        // Nor does a field out of its range roll over, with or without an offset or a fraction.
        for text in [
            "2026-01-01T25:00:00Z", "2026-01-01T24:00:00+02:00", "2026-01-01T23:60:00Z", "2026-01-01T23:59:60.5Z",
            "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00-01:60", "2026-04-31T00:00:00.123456Z",
        ] {
            #expect(Timestamp.parse(text) == nil, "\(text)")
        }
        #expect(Timestamp.parse("2026-01-01T23:59:59.123+05:30") != nil && Timestamp.parse("2026-01-01T23:59:59-0800") != nil)
        #expect(Timestamp.parseCanonical("2024-02-29T23:59:59.999Z") != nil)
        #expect(Timestamp.parseCanonical("2026-13-01T00:00:00Z") == nil)
        #expect(Timestamp.parseCanonical("2026-01-01T24:00:00Z") == nil)
        #expect(Timestamp.parseCanonical("2026-01-01 00:00:00Z") == nil)
        #expect(Timestamp.parseCanonical("2026-01-01T00:00:00+02:00") == nil)
        // An offset is the format style's to read.
        #expect(Timestamp.parse("2026-01-01T02:00:00+02:00") == Timestamp.parse("2026-01-01T00:00:00Z"))
        #expect(Timestamp.parse("2026-01-01T00:00:00.123456Z") != nil)
        #expect(Timestamp.parse("yesterday") == nil)
    }

    @Test("formatting rounds to the millisecond and pads every field")
    func formatting() {
        #expect(Timestamp.format(Date(timeIntervalSince1970: 0.6399999)) == "1970-01-01T00:00:00.640Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59.000Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_000_000_000), fractionalSeconds: false) == "2001-09-09T01:46:40Z")
        #expect(Timestamp.formatMicroseconds(Date(timeIntervalSince1970: 1.5)) == "1970-01-01T00:00:01.500000Z")
    }
}
