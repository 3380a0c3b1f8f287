import Foundation
import Storage
import Testing

@testable import EmulatorCore

/// The one way stored enums, JSON text, ISO 8601 text and epoch seconds are read from a row.
@Suite("Stored columns")
struct StoredColumnsTests {
    /// A stored enum that only declares the conformances.
    enum Shade: String, SQLColumnDecodable, SQLBindable {
        case light, dark
    }

    private func row(_ values: [String: SQLValue]) -> Row {
        let names = values.keys.sorted()
        return Row(columns: names, values: names.map { values[$0] ?? .null })
    }

    @Test("a String-backed enum reads its raw value from text and binds as it; another value or type is a decoding error")
    func enums() throws {
        #expect(try row(["s": .text("dark")]).decode("s", as: Shade.self) == .dark)
        #expect(Shade.light.sqlValue == .text("light"))
        #expect(throws: RowDecodingError.wrongType(column: "s", expected: "Shade", found: "TEXT")) { try row(["s": .text("grey")]).decode("s", as: Shade.self) }
        #expect(throws: RowDecodingError.wrongType(column: "s", expected: "Shade", found: "INTEGER")) { try row(["s": .integer(1)]).decode("s", as: Shade.self) }
        #expect(try row(["s": .null]).decodeIfPresent("s", as: Shade.self) == nil)
    }

    @Test("JSON, timestamps and epoch seconds: parsed, NULL where allowed, and a decoding error otherwise")
    func shapes() throws {
        let good = row([
            "j": .text("{\"a\":1}"), "t": .text("2026-11-03T00:00:00Z"), "e": .real(1_700_000_000), "n": .null,
        ])
        #expect(try good.json("j") == ["a": 1])
        #expect(try good.jsonObject("j") == ["a": 1])
        #expect(try good.jsonIfPresent("n") == nil)
        #expect(try good.timestamp("t") == Date(timeIntervalSince1970: 1_793_664_000))
        #expect(try good.timestampIfPresent("n") == nil)
        #expect(try good.epochSeconds("e") == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try good.epochSecondsIfPresent("n") == nil)
        let bad = row(["j": .text("{"), "a": .text("[1]"), "t": .text("yesterday")])
        #expect(throws: RowDecodingError.wrongType(column: "j", expected: "JSON", found: "TEXT")) { try bad.json("j") }
        #expect(throws: RowDecodingError.wrongType(column: "a", expected: "JSON object", found: "TEXT")) { try bad.jsonObject("a") }
        #expect(throws: RowDecodingError.wrongType(column: "t", expected: "ISO 8601 timestamp", found: "TEXT")) { try bad.timestamp("t") }
        #expect(throws: RowDecodingError.unexpectedNull("n")) { try good.json("n") }
    }
}
