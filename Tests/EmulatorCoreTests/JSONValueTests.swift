import EmulatorCore
import Foundation
import Testing

@Suite("JSONValue reading and writing")
struct JSONValueTests {
    @Test(
        "round trips agree with Foundation's parser",
        arguments: [
            #"{"a":1,"b":[true,false,null],"c":{"d":"e\"\\\/\n\u00e9\ud83d\ude00"},"f":-0.5,"g":1e3,"h":""}"#,
            #"[]"#, #"{}"#, #""text""#, #"12345678901234"#, #"  [1 , 2 ]  "#, #"-0"#, #"3.25"#,
        ])
    func roundTrip(text: String) throws {
        let value = try JSONValue.parse(Data(text.utf8))
        let reparsed = try JSONValue.parse(value.encoded())
        #expect(Self.numbersAsDoubles(reparsed) == Self.numbersAsDoubles(value))
        // What we write, Foundation reads, and it reads the same as what we read.
        let ours = try JSONValue.parse(
            try JSONSerialization.data(withJSONObject: try JSONSerialization.jsonObject(with: value.encoded(), options: .fragmentsAllowed), options: .fragmentsAllowed))
        #expect(Self.numbersAsDoubles(ours) == Self.numbersAsDoubles(value))
    }

    /// 1e3 and 1000 are the same JSON number; compare numbers by value.
    static func numbersAsDoubles(_ value: JSONValue) -> JSONValue {
        switch value {
        case .int(let number): return .double(Double(number))
        case .array(let elements): return .array(elements.map(numbersAsDoubles))
        case .object(let members): return .object(members.mapValues(numbersAsDoubles))
        default: return value
        }
    }

    @Test(
        "malformed documents are refused with an offset",
        arguments: [
            "", "{", "[1,]", "{\"a\" 1}", "{'a':1}", "01", "1.", "-", "\"abc", "\"\u{01}\"", "[1] 2", "tru", "{\"a\":1,}", "\"\\ud800\"", "\"\\x\"",
        ])
    func malformed(text: String) {
        #expect(throws: JSONValue.ParseError.self) { _ = try JSONValue.parse(Data(text.utf8)) }
    }

    @Test(
        "bytes that are not UTF-8 are refused inside strings, with or without escapes, and outside them",
        arguments: [
            [0x22, 0xFF, 0x22], // a lone byte no UTF-8 sequence starts with
            [0x22, 0x61, 0xC3, 0x22], // a sequence cut short by the closing quote
            [0x22, 0xED, 0xA0, 0x80, 0x22], // an encoded surrogate
            [0x22, 0xC0, 0xAF, 0x22], // an overlong '/'
            [0x22, 0x5C, 0x6E, 0xFE, 0x22], // after an escape (the slow path)
            [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D], // a member name
            [0x5B, 0xFF, 0x5D], // outside any string
        ] as [[UInt8]])
    func invalidUTF8(bytes: [UInt8]) {
        #expect(throws: JSONValue.ParseError.self) { _ = try JSONValue.parse(Data(bytes)) }
    }

    @Test("valid multi-byte UTF-8 reads as the same text on both paths")
    func validUTF8() throws {
        #expect(try JSONValue.parse(Data(#""é✓😀""#.utf8)) == "é✓😀")
        #expect(try JSONValue.parse(Data(#""é\n😀""#.utf8)) == "é\n😀")
    }

    @Test("writing is compact, sorted and escapes what JSON requires")
    func writing() {
        let value: JSONValue = ["b": 1, "a": ["x": "q\"uote/\u{0007}"], "c": 2.5, "d": .double(3), "e": .double(.nan)]
        #expect(String(decoding: value.encoded(), as: UTF8.self) == #"{"a":{"x":"q\"uote/\u0007"},"b":1,"c":2.5,"d":3,"e":null}"#)
    }

    @Test("deep nesting is refused rather than overflowing the stack")
    func depth() {
        let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: JSONValue.ParseError.self) { _ = try JSONValue.parse(Data(text.utf8)) }
    }
}

@Suite("Journal redaction")
struct JournalRedactionTests {
    @Test("JSON and form bodies lose their passwords; other bodies pass unchanged")
    func bodies() {
        let json = Journal.bodyText(Data(#"{"user":"a","Password":"hunter2","nested":{"clientSecret":"s"}}"#.utf8), cap: 1000)
        #expect(json?.contains("hunter2") == false && json?.contains("[redacted]") == true && json?.contains("\"s\"") == false)
        let form = Journal.bodyText(Data("identity=a%40b.c&password=hunter2&x=1".utf8), cap: 1000)
        #expect(form == "identity=a%40b.c&password=[redacted]&x=1")
        #expect(Journal.bodyText(Data("plain text".utf8), cap: 1000) == "plain text")
        #expect(Journal.bodyText(Data([0xff, 0x00, 0x01]), cap: 1000) == "base64:/wAB")
        #expect(Journal.bodyText(Data("0123456789".utf8), cap: 4) == "0123")
        #expect(Journal.redact("Bearer wl_test_abcdefgh1234") == "Bearer [redacted …1234]")
    }
}

@Suite("JSONValue printing (from the Telematics writer it replaced)")
struct JSONValuePrintingTests {
    @Test("writes what JSONValue parses back, with escapes, sorted keys and whole numbers as integers")
    func roundTrip() throws {
        let value: JSONValue = ["b": [1, 2.5, -0.001, 1e21, true, nil], "a": "quote \" back\\slash \n tab\t ctl\u{01} é ✓", "c": ["z": 1.0, "y": [:]]]
        let text = String(decoding: value.encoded(), as: UTF8.self)
        #expect(text.hasPrefix(#"{"a":"quote \" back\\slash \n tab\t ctl\u0001 é ✓","b":[1,2.5,-0.001,"#))
        let parsed = try JSONValue.parse(Data(text.utf8))
        #expect(parsed["a"] == value["a"] && parsed["c"]?["z"] == 1 && parsed["b"]?[3]?.doubleValue == 1e21 && parsed["b"]?[5] == .null)
        #expect(String(decoding: JSONValue.double(.nan).encoded(), as: UTF8.self) == "null")
    }
}
