import EmulatorCore
import Foundation
import Testing

/// The scanner agrees with `JSONValue.parse` on every value it accepts, and accepts the plain shapes.
@Suite("JSON scanner")
struct JSONScannerTests {
    static func scalar(_ text: String) -> JSONScanner.Scalar? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> JSONScanner.Scalar? in
            var scanner = JSONScanner(bytes: buffer)
            guard let value = scanner.scalar() else { return nil }
            scanner.skipWhitespace()
            return scanner.atEnd ? value : nil
        }
    }

    static func skips(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(bytes: buffer)
            guard scanner.skipValue() else { return false }
            scanner.skipWhitespace()
            return scanner.atEnd
        }
    }

    /// The scalar as the reference parser sees it (strings compared by text).
    static func reference(_ text: String) -> JSONValue? { try? JSONValue.parse(Data(text.utf8)) }

    static func same(_ scalar: JSONScanner.Scalar, _ value: JSONValue, text: String) -> Bool {
        switch (scalar, value) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        // Bit patterns, so −0.0 and 0.0 differ and NaN/infinity compare too.
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        case (.string(let range), .string(let b)):
            return String(decoding: Array(text.utf8)[range], as: UTF8.self) == b
        default: return false
        }
    }

    @Test("numbers: the same Int64 or the same double bits as the reference parse, over 5,000 literals")
    func numbersMatchTheReference() {
        var generator = SystemRandomNumberGenerator()
        var literals = [
            "0", "-0", "-0.0", "0.0", "1", "-1", "15", "1.5", "1e5", "1E-5", "2.5e+3", "123456789012345678", "1234567890123456789",
            "9223372036854775807", "9223372036854775808", "-9223372036854775808", "0.1", "0.2", "0.30000000000000004",
            "40.123456789012345", "1e22", "1e23", "1e-22", "1e-23", "9007199254740993", "9007199254740993.0", "1e400", "-1e400",
            "4.9e-324", "2.2250738585072014e-308", "0.000135", "1790000000000", "1790000000000.0", "179.99999999999999",
        ]
        for _ in 0..<5_000 {
            let digits = Int.random(in: 1...20, using: &generator)
            var literal = Bool.random(using: &generator) ? "-" : ""
            literal += String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digits { literal += String(Int.random(in: 0...9, using: &generator)) }
            if Bool.random(using: &generator) {
                let point = Int.random(in: 1...literal.count, using: &generator)
                let body = literal.hasPrefix("-") ? String(literal.dropFirst()) : literal
                let position = min(point, body.count)
                let withPoint = position == body.count ? body + ".0" : String(body.prefix(position)) + "." + body.dropFirst(position)
                literal = (literal.hasPrefix("-") ? "-" : "") + withPoint
            }
            if Int.random(in: 0..<4, using: &generator) == 0 { literal += "e" + String(Int.random(in: -30...30, using: &generator)) }
            literals.append(literal)
        }
        var mismatches: [String] = []
        for literal in literals {
            guard let value = Self.reference(literal) else { mismatches.append(literal + " (reference refuses)"); continue }
            guard let scanned = Self.scalar(literal), Self.same(scanned, value, text: literal) else { mismatches.append(literal); continue }
        }
        #expect(mismatches.isEmpty, "differ from JSONValue.parse: \(mismatches.prefix(10))")
    }

    @Test("invalid numbers and literals are refused, as the reference parse refuses them")
    func invalidScalars() {
        for text in ["01", "-", "1.", ".5", "1e", "1e+", "--1", "+1", "tru", "nul", "falsey", "0x10", "1.5.2", "\"open", "\"tab\there\""] {
            #expect(Self.scalar(text) == nil, "\(text)")
            #expect(Self.reference(text) == nil, "\(text)")
        }
    }

    @Test("strings: plain ASCII is read; escapes, control bytes and UTF-8 are left to the reference parser")
    func strings() {
        #expect(Self.scalar("\"bench-r1\"") == .string(1..<9))
        #expect(Self.scalar("\"\"") == .string(1..<1))
        for text in ["\"a\\nb\"", "\"caf\u{e9}\"", "\"a\\u0041\""] {
            #expect(Self.scalar(text) == nil, "\(text)")
            #expect(Self.reference(text) != nil, "\(text)")
        }
    }

    @Test("skipping values: anything it skips parses; syntax errors and deep nesting are refused")
    func skipping() {
        for text in ["{}", "[]", " { \"a\" : [1, 2.5, {\"b\": null}], \"c\": true } ", "[[[[1]]]]", "{\"x\":\"y\",\"z\":[false]}"] {
            #expect(Self.skips(text), "\(text)")
            #expect(Self.reference(text) != nil, "\(text)")
        }
        for text in ["{", "[1,]", "{\"a\" 1}", "{\"a\":1,}", "[1 2]", "{1:2}", "]", "", "[1]]", "{\"a\":01}"] {
            #expect(!Self.skips(text), "\(text)")
            #expect(Self.reference(text) == nil, "\(text)")
        }
        let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
        #expect(!Self.skips(deep) && Self.reference(deep) != nil, "too deep for the scanner, fine for the reference")
    }
}
