import Foundation
import Storage
import Testing

@testable import EmulatorCore

/// The checked forms every number and time from outside goes through: each returns nil (or a
/// clamped value) where the plain conversion traps.
@Suite("Checked numeric conversions")
struct CheckedConversionTests {
    static let extremes: [Double] = [
        1e300, -1e300, 9.3e18, -9.3e18, 18_446_744_073_709_551_616, 1e19, .infinity, -.infinity, .nan,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
    ]

    @Test("roundedInt64 and roundedInt: nil beyond Int64, for NaN and ±∞; exact inside")
    func rounding() {
        for value in Self.extremes {
            #expect(value.roundedInt64() == nil, "\(value)")
            #expect(value.roundedInt() == nil, "\(value)")
        }
        #expect(1.5.roundedInt64() == 2 && (-1.5).roundedInt64() == -2 && 1.5.roundedInt64(.down) == 1)
        #expect((-9_223_372_036_854_775_808.0).roundedInt64() == Int64.min)
        #expect(1e-300.roundedInt() == 0)
    }

    @Test("Timestamp.format writes any instant, NaN and ±∞ included, as a year 0001–9999 stamp")
    func formatAnyDate() {
        for seconds in Self.extremes {
            let text = Timestamp.format(Date(timeIntervalSince1970: seconds))
            #expect(text.count == 24 && Timestamp.parse(text) != nil, "\(seconds) → \(text)")
            #expect(Timestamp.formatMicroseconds(Date(timeIntervalSince1970: seconds)).count == 27)
        }
        var writer = JSONWriter()
        for seconds in Self.extremes { writer.timestampMicroseconds(seconds: seconds) }
        writer.timestampMicroseconds(milliseconds: .min)
        #expect(String(decoding: writer.bytes, as: UTF8.self).hasPrefix("\"9999-12-31T23:59:59.999"))
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1e19)) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: -1e19)) == "0001-01-01T00:00:00.000Z")
        #expect(Timestamp.format(Date(timeIntervalSince1970: 1_767_225_600)) == "2026-01-01T00:00:00.000Z")
    }

    @Test("Timestamp.parse reads years 0001–9999 only")
    func parseRange() {
        for text in [
            "0000-01-01T00:00:00Z", "99999-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "1e999",
            "-271821-04-20T00:00:00Z", "0001-01-01T00:00:00+01:00",
        ] {
            #expect(Timestamp.parse(text) == nil, "\(text)")
        }
        for text in ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "2026-01-01T00:00:00.123456789Z"] {
            #expect(Timestamp.parse(text) != nil, "\(text)")
        }
    }

    @Test("epoch conversions: nil outside Timestamp.range, clamped where asked")
    func epoch() {
        #expect(Date(epochMilliseconds: .max) == nil && Date(epochMilliseconds: .min) == nil && Date(epochSeconds: .nan) == nil)
        #expect(Date(epochMilliseconds: 1_767_225_600_000)?.epochMilliseconds == 1_767_225_600_000)
        #expect(Date(timeIntervalSince1970: 1e300).epochMilliseconds == nil)
        #expect(Date(timeIntervalSince1970: 1e300).clampedEpochMilliseconds == 253_402_300_799_999)
        #expect(Date(timeIntervalSince1970: .nan).clampedEpochMilliseconds == 0)
        #expect(Date().adding(seconds: 1e19) == nil && Date().adding(seconds: .nan) == nil)
        #expect(Date().addingClamped(seconds: 1e300) == Timestamp.range.upperBound)
    }

    @Test("the clock: ±100 years of real time, NaN and ±∞ out; its reading is always inside Timestamp.range")
    func clockRange() {
        let real = Date(timeIntervalSince1970: 1_767_225_600)
        for offset in [1e19, -1e19, 1e300, .nan, .infinity, ClockSettings.maximumShiftSeconds + 1] {
            let settings = ClockSettings(mode: .offset, frozenAt: nil, offsetSeconds: offset)
            #expect(settings.rangeProblem(real: real) != nil, "\(offset)")
            #expect(Timestamp.range.contains(settings.now(real: real)), "\(offset)")
        }
        #expect(ClockSettings(mode: .offset, frozenAt: nil, offsetSeconds: -ClockSettings.maximumShiftSeconds).rangeProblem(real: real) == nil)
        #expect(ClockSettings(mode: .frozen, frozenAt: Date(timeIntervalSince1970: 1e300), offsetSeconds: 0).rangeProblem(real: real) != nil)
        #expect(ClockSettings(mode: .frozen, frozenAt: Date(timeIntervalSince1970: .nan), offsetSeconds: 0).rangeProblem(real: real) != nil)
        #expect(ClockSettings(mode: .frozen, frozenAt: real.addingTimeInterval(86_400), offsetSeconds: 0).rangeProblem(real: real) == nil)
    }

    @Test("the fault header: hang=1e300 is refused, not a trap")
    func faultHeader() {
        #expect(FaultEngine.parseHeader("hang=1e300") == nil)
        #expect(FaultEngine.parseHeader("hang=nan") == nil)
        #expect(FaultEngine.parseHeader("hang=2") != nil)
    }

    @Test("JSON numbers: intValue is nil past 9e15 and for Int64.min as a double")
    func jsonInt() {
        #expect(JSONValue.double(1e300).intValue == nil && JSONValue.double(-9.3e18).intValue == nil && JSONValue.double(1.5).intValue == nil)
        #expect(JSONValue.double(42).intValue == 42)
    }

    @Test("stored numbers: a REAL of 1e300 or NaN in an integer column reads as no integer")
    func storedReal() {
        #expect(SQLValue.real(1e300).int == nil && SQLValue.real(-9.3e18).int == nil && SQLValue.real(.nan).int == nil)
        #expect(SQLValue.real(12).int == 12)
    }

    @Test("bundle time cells: years 0001–9999 as ISO text, epoch seconds or epoch milliseconds")
    func bundleTimes() {
        #expect(ProjectBundle.timeProblem(column: "created_at", value: "1e999") != nil)
        #expect(ProjectBundle.timeProblem(column: "created_at", value: "99999-01-01T00:00:00Z") != nil)
        #expect(ProjectBundle.timeProblem(column: "created_at", value: "2026-01-01T00:00:00.000Z") == nil)
        #expect(ProjectBundle.timeProblem(column: "event_at", value: "2026-11-30 10:15:00.250") == nil)
        #expect(ProjectBundle.timeProblem(column: "created_at", value: .double(1e300)) != nil)
        #expect(ProjectBundle.timeProblem(column: "created_at", value: .double(1_796_578_120.78)) == nil)
        #expect(ProjectBundle.timeProblem(column: "ts_ms", value: .int(Int64.max)) != nil)
        #expect(ProjectBundle.timeProblem(column: "ts_ms", value: .int(1_796_321_400_000)) == nil)
        #expect(ProjectBundle.timeProblem(column: "name", value: "1e999") == nil)
    }
}
