import Foundation
import Testing
@testable import EmulatorCore

@Suite("Journal secret scan")
struct JournalSecretScanTests {
    /// What the scan promises: `password` or `secret` with ASCII letters in any case.
    static func reference(_ bytes: [UInt8]) -> Bool {
        let lowered = bytes.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        for needle in [Array("password".utf8), Array("secret".utf8)] where lowered.count >= needle.count {
            for start in 0...(lowered.count - needle.count) where Array(lowered[start..<start + needle.count]) == needle { return true }
        }
        return false
    }

    @Test("agrees with a plain search on random bodies made of the needles' letters and their neighbours")
    func randomBodies() {
        var random = SplitMix64(state: 21)
        let alphabet = Array("pPsSaAwWoOrRdDeEcCtT0{}\"".utf8) + [0x50 ^ 0x20, 0x70 | 0x80, 0xD0, 0xF3, 0x00, 0x7F]
        var found = 0
        for round in 0..<20_000 {
            let count = Int(random.next() % 24)
            var bytes = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            if round % 5 == 0, count > 8 {
                let word = Array((round % 10 == 0 ? "PassWord" : "sEcReT").utf8)
                let at = Int(random.next() % UInt64(count - word.count))
                bytes.replaceSubrange(at..<at + word.count, with: word)
            }
            let expected = Self.reference(bytes)
            if expected { found += 1 }
            #expect(Journal.mentionsSecret(Data(bytes)) == expected, "\(bytes)")
            #expect(Journal.mentionsSecret(Data([1, 2] + bytes).dropFirst(2)) == expected, "slice \(bytes)")
        }
        #expect(found > 1000)
        #expect(Journal.mentionsSecret(Data("xxsecret".utf8)) && Journal.mentionsSecret(Data("PASSWORD".utf8)))
        #expect(!Journal.mentionsSecret(Data("passwor".utf8)) && !Journal.mentionsSecret(Data("secre".utf8)) && !Journal.mentionsSecret(Data("s\u{e9}cret".utf8)))
    }
}
