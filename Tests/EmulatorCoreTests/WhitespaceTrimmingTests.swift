import EmulatorCore
import Foundation
import Testing

@Suite("Whitespace trimming")
struct WhitespaceTrimmingTests {
    /// Values with every kind of white space Foundation knows at either end, and look-alikes it does not trim.
    static let corpus: [String] = {
        let ends = [
            "", " ", "\t", "\n", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{A0}", "\u{1680}", "\u{2003}", "\u{200B}", "\u{2028}",
            "\u{2029}", "\u{202F}", "\u{3000}", "\u{FEFF}", " \u{301}", "\t\n \u{A0}",
        ]
        let middles = ["", "a", "a b", "é", "e\u{301}", "x\u{A0}y", "👩‍👩‍👧", "\u{301}"]
        return ends.flatMap { left in ends.flatMap { right in middles.map { left + $0 + right } } }
    }()

    @Test("trims exactly what Foundation's whitespaces trims")
    func whitespaces() {
        for value in Self.corpus {
            #expect(value.trimmingWhitespace() == value.trimmingCharacters(in: .whitespaces), "\(value.debugDescription)")
        }
    }

    @Test("trims exactly what Foundation's whitespacesAndNewlines trims")
    func whitespacesAndNewlines() {
        for value in Self.corpus {
            #expect(value.trimmingWhitespaceAndNewlines() == value.trimmingCharacters(in: .whitespacesAndNewlines), "\(value.debugDescription)")
        }
    }

    @Test("substrings trim within their own bounds")
    func substrings() {
        let text = "[ a b ]"
        #expect(text.dropFirst().dropLast().trimmingWhitespace() == "a b")
        #expect("  ".dropFirst().trimmingWhitespace() == "")
    }
}
