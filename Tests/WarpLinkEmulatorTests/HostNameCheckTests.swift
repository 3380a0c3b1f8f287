import Testing

@testable import WarpLinkEmulator

@Suite("WarpLink resolve's domain check by bytes")
struct HostNameCheckTests {
    /// The check as it was before its ASCII path: `Character` properties throughout.
    private static func byCharacter(_ value: String) -> Bool {
        value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
    }

    @Test("every ASCII byte, alone and inside a name, is judged as Character properties judge it")
    func everyASCIIByte() {
        for byte in UInt8(0)..<0x80 {
            let alone = String(decoding: [byte], as: UTF8.self)
            let inside = "links." + alone + "example-1.com"
            #expect(WarpLinkWire.isHostName(alone) == Self.byCharacter(alone), "byte \(byte)")
            #expect(WarpLinkWire.isHostName(inside) == Self.byCharacter(inside), "byte \(byte) in a name")
        }
    }

    @Test(
        "names beyond ASCII keep the Unicode rule",
        arguments: [
            "bücher.example", "例え.jp", "xn--bcher-kva.example", "café-1.fr", "a\u{0301}.example", "smile😀.io", "tab\t.example", "\r\n", "",
        ])
    func unicode(_ value: String) {
        #expect(WarpLinkWire.isHostName(value) == Self.byCharacter(value))
    }

    @Test("the usual names pass and the usual mistakes do not")
    func examples() {
        #expect(WarpLinkWire.isHostName("Links.Example-App.COM"))
        #expect(WarpLinkWire.isHostName("bücher.example"))
        #expect(!WarpLinkWire.isHostName("links.example.com/path"))
        #expect(!WarpLinkWire.isHostName("links example.com"))
        #expect(!WarpLinkWire.isHostName("links_example.com"))
    }
}
