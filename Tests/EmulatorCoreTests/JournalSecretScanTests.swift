import Foundation
import HTTPServer
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
        // Long bodies: the word-at-a-time skip, needles across word boundaries and at the very end.
        var long = 0
        for round in 0..<3_000 {
            let count = 8 + Int(random.next() % 300)
            var bytes = (0..<count).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] | (round % 3 == 0 ? 0 : 0x40) }
            if round % 2 == 0 {
                let word = Array((round % 4 == 0 ? "PASSWORD" : "secret").utf8)
                let at = round % 8 == 0 ? count - word.count : Int(random.next() % UInt64(count - word.count + 1))
                if at >= 0 { bytes.replaceSubrange(at..<at + word.count, with: word) }
            }
            let expected = Self.reference(bytes)
            if expected { long += 1 }
            #expect(Journal.mentionsSecret(Data(bytes)) == expected, "\(bytes)")
        }
        #expect(long > 1000 && long < 2900)
        #expect(Journal.mentionsSecret(Data("xxsecret".utf8)) && Journal.mentionsSecret(Data("PASSWORD".utf8)))
        #expect(!Journal.mentionsSecret(Data("passwor".utf8)) && !Journal.mentionsSecret(Data("secre".utf8)) && !Journal.mentionsSecret(Data("s\u{e9}cret".utf8)))
    }
}

@Suite("Journal header maps")
struct JournalHeaderObjectTests {
    @Test("redaction matches the character-wise reference: schemes in any case, short and empty secrets, non-ASCII, CR LF")
    func redactionMatchesReference() {
        var random = SplitMix64(state: 41)
        let pieces = [
            "Bearer", "bEaReR", "BASIC", "token", "Tokens", "tok", "to\u{212A}en", "\u{212A}ey", " ", "  ", "a", "Z9", "_-.",
            "wl_test_abcdefgh1234", "é", "e\u{301}", "\r\n", "\r", "\n", "✓", "\t",
        ]
        for _ in 0..<5_000 {
            let value = (0..<Int(random.next() % 6)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
            #expect(Journal.redact(value) == Journal.redactByCharacter(value), "\(value.debugDescription)")
        }
        #expect(Journal.redact("") == "[redacted …]")
        #expect(Journal.redact("BASIC abc") == "BASIC [redacted …abc]")
    }

    /// What the journal stored before the maps were written straight from the fields: a
    /// dictionary by lowercase name (repeats joined, or the last kept), encoded as a `JSONValue`.
    static func reference(_ headers: HTTPHeaders, redacting: Bool, joiningRepeats: Bool) -> (json: String, bytes: Int) {
        var map: [String: String] = [:]
        for field in headers {
            let secret = redacting && ["authorization", "x-api-key", "cookie"].contains(field.lowercasedName)
            let value = secret ? Journal.redact(field.value) : field.value
            if joiningRepeats, let existing = map[field.lowercasedName] { map[field.lowercasedName] = existing + ", " + value } else { map[field.lowercasedName] = value }
        }
        let json = String(decoding: JSONValue.object(map.mapValues(JSONValue.string)).encoded(), as: UTF8.self)
        return (json, map.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count })
    }

    @Test("matches a dictionary encoded as JSON on random headers: repeats, letter case, escapes, secrets")
    func randomHeaders() {
        var random = SplitMix64(state: 15)
        let names = ["Accept", "accept", "X-Trace", "Authorization", "x-api-key", "Cookie", "Content-Type", "a", "Z-Last", "x-é"]
        let values = ["1", "text/html", "Bearer wl_test_abcdefgh1234", "quote \" and \\ back", "tab\there", "line\nbreak", "ünïcode ✓", "", "\u{01}"]
        var repeated = 0
        for _ in 0..<3_000 {
            var headers = HTTPHeaders()
            for _ in 0..<Int(random.next() % 9) {
                headers.add(names[Int(random.next() % UInt64(names.count))], values[Int(random.next() % UInt64(values.count))])
            }
            if Set(headers.map(\.lowercasedName)).count < headers.count { repeated += 1 }
            for (redacting, joining) in [(true, true), (false, false)] {
                let fast = Journal.headerObject(headers, redacting: redacting, joiningRepeats: joining)
                let expected = Self.reference(headers, redacting: redacting, joiningRepeats: joining)
                #expect(fast.json == expected.json, "\(Array(headers))")
                #expect(fast.bytes == expected.bytes)
            }
        }
        #expect(repeated > 500) // the repeats path was exercised
    }
}
