import EmulatorCore
import Foundation
import Testing

/// A fixed-seed generator (SplitMix64), so a failure names inputs that reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("JSONWriter prints what JSONValue prints")
struct JSONWriterTests {
    static func written(_ body: (inout JSONWriter) -> Void) -> String {
        var writer = JSONWriter(capacity: 8)
        body(&writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    static func tree(_ value: JSONValue) -> String { String(decoding: value.encoded(), as: UTF8.self) }

    static let doubles: [Double] = [
        0, -0.0, 0.1, 0.2, 1e-7, -1e-7, Double.leastNonzeroMagnitude, 1.5, -2.25, 12.345, 1e14, 999_999_999_999_999, 1e15, 1e16, -1e15, 123_456_789_012_345.6,
        1.0 / 3, 2.0 / 3, 100.0, -7.0, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double.leastNormalMagnitude,
        .nan, .infinity, -.infinity, 4_503_599_627_370_496.5, 9_007_199_254_740_992, 0.000_5, 52.520_008, 13.404_954,
    ]

    @Test("doubles: whole values below 1e15 as integers, the rest in Swift's shortest form, non-finite as null")
    func doubles() {
        var random = SplitMix64(state: 7)
        var values = Self.doubles
        for _ in 0..<2000 {
            values.append(Double(bitPattern: random.next()))
            values.append(Double(Int64.random(in: -1_000_000_000...1_000_000_000, using: &random)) / 1000)
        }
        for value in values {
            #expect(Self.written { $0.double(value) } == Self.tree(.double(value)), "\(value)")
        }
        #expect(Self.written { $0.double(nil as Double?) } == "null")
    }

    @Test("integers over the whole Int64 range")
    func integers() {
        var random = SplitMix64(state: 11)
        var values: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.min + 1, 1_000_000_000_000_000_000]
        for _ in 0..<2000 { values.append(Int64(bitPattern: random.next()) >> Int64.random(in: 0...63, using: &random)) }
        for value in values {
            #expect(Self.written { $0.int(value) } == Self.tree(.int(value)), "\(value)")
        }
        #expect(Self.written { $0.int(nil as Int?) } == "null")
        #expect(Self.written { $0.int(-42 as Int?) } == "-42")
    }

    @Test(
        "strings: escapes, control characters, unicode, empty",
        arguments: [
            "", "plain", "quote \" backslash \\ slash /", "line\nbreak\r\ttab", "\u{0}\u{1}\u{1F}\u{7F}", "é ü 日本語 😀 \u{2028}", "\u{FEFF}bom",
        ])
    func strings(text: String) {
        #expect(Self.written { $0.string(text) } == Self.tree(.string(text)))
        #expect(Self.written { $0.string(nil as String?) } == "null")
    }

    @Test("timestamps of epoch milliseconds match Timestamp.formatMicroseconds, negative and far ones too")
    func timestamps() {
        var random = SplitMix64(state: 3)
        var values: [Int64] = [
            0, 1, -1, 999, -999, 1_000, 86_399_999, 86_400_000, -86_400_000, 951_782_400_000, 1_709_164_800_123,
            253_402_300_799_999, -62_135_596_800_000, 1_790_000_000_640,
        ]
        for _ in 0..<3000 { values.append(Int64.random(in: -62_135_596_800_000...253_402_300_799_999, using: &random)) }
        for ms in values {
            let expected = "\"" + Timestamp.formatMicroseconds(Date(timeIntervalSince1970: Double(ms) / 1000)) + "\""
            #expect(Self.written { $0.timestampMicroseconds(milliseconds: ms) } == expected, "\(ms)")
        }
        for seconds in [0.000_000_4, 1_736_909_429.562_522, -0.5, 1_790_000_000.999_999_7] {
            #expect(Self.written { $0.timestampMicroseconds(seconds: seconds) } == "\"" + Timestamp.formatMicroseconds(Date(timeIntervalSince1970: seconds)) + "\"")
        }
    }

    @Test("objects and arrays: commas only between members, nested and empty ones too")
    func structure() {
        let text = Self.written { writer in
            writer.beginObject()
            writer.key("a"); writer.beginArray(); writer.endArray()
            writer.key("b"); writer.beginObject(); writer.endObject()
            writer.key("c")
            writer.beginArray()
            for value in [true, false] { writer.element(); writer.bool(value) }
            writer.element(); writer.null()
            writer.element(); writer.beginObject(); writer.key("x"); writer.fractionalDouble(2); writer.endObject()
            writer.element(); writer.value(["z": 1, "y": [nil, "s"]])
            writer.endArray()
            writer.key("d"); writer.raw(Array("[1]".utf8))
            writer.endObject()
        }
        #expect(text == #"{"a":[],"b":{},"c":[true,false,null,{"x":2.0},{"y":[null,"s"],"z":1}],"d":[1]}"#)
        let tree: JSONValue = ["c": [true, false, nil, ["x": 2.5], ["z": 1, "y": [nil, "s"]]], "b": [:], "a": [], "d": [1]]
        #expect(
            Self.written { writer in
                writer.beginObject()
                writer.key("a"); writer.beginArray(); writer.endArray()
                writer.key("b"); writer.beginObject(); writer.endObject()
                writer.key("c")
                writer.beginArray()
                for value in [true, false] { writer.element(); writer.bool(value) }
                writer.element(); writer.null()
                writer.element(); writer.beginObject(); writer.key("x"); writer.double(2.5); writer.endObject()
                writer.element(); writer.value(["z": 1, "y": [nil, "s"]])
                writer.endArray()
                writer.key("d"); writer.beginArray(); writer.element(); writer.int(1); writer.endArray()
                writer.endObject()
            } == Self.tree(tree))
    }
}
