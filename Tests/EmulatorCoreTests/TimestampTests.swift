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

    @Test("what the hand parser does not know goes to the format style or is refused")
    func nonCanonical() {
        // Not a leap year: the format style, which reads it leniently as 1 March, decides.
        #expect(Timestamp.parseCanonical("2026-02-29T00:00:00Z") == nil)
        #expect(Timestamp.parse("2026-02-29T00:00:00Z") == (try? Date.ISO8601FormatStyle().parse("2026-02-29T00:00:00Z")))
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
