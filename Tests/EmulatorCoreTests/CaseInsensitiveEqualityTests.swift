import EmulatorCore
import Foundation
import Testing

@Suite("Case-insensitive equality")
struct CaseInsensitiveEqualityTests {
    @Test("answers as Foundation's caseInsensitiveCompare, ASCII or not")
    func matchesFoundation() {
        let words = [
            "", "a", "A", "jane@example.com", "JANE@Example.COM", "jane@example.co", "@", "`", "[", "{", "^", "~", "Z", "z", "_", "-",
            "straße", "STRASSE", "Straße", "ÉCOLE", "école", "e\u{301}cole", "ﬁ", "FI", "İ", "i", "Σ", "ς", "σ", "1a", "1A", "a1",
        ]
        for left in words {
            for right in words {
                #expect(left.equalsIgnoringCase(right) == (left.caseInsensitiveCompare(right) == .orderedSame), "\(left.debugDescription) vs \(right.debugDescription)")
            }
        }
        #expect("Jane@Example.com".equalsIgnoringCase("jane@example.com") && !"jane@example.com".equalsIgnoringCase("jane@example.org"))
    }
}
