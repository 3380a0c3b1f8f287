import EmulatorCore
import Foundation
import Testing

@Suite("Derived answers")
struct DerivedAnswersTests {
    @Test("an answer is reused only under the change count it was made under, never without one")
    func reuseRule() {
        let answers = DerivedAnswers()
        var made = 0
        func fetch(_ key: String, _ count: Int?) -> Data {
            answers.answer(for: key, asOf: count) {
                made += 1
                return Data("\(key)#\(made)".utf8)
            }
        }
        #expect(fetch("a", 1) == Data("a#1".utf8))
        #expect(fetch("a", 1) == Data("a#1".utf8) && made == 1, "same count: reused")
        #expect(fetch("a", 2) == Data("a#2".utf8) && made == 2, "the data moved: made again")
        #expect(fetch("a", 2) == Data("a#2".utf8) && made == 2)
        #expect(fetch("b", 2) == Data("b#3".utf8), "keys do not share answers")
        #expect(fetch("c", nil) == Data("c#4".utf8) && fetch("c", nil) == Data("c#5".utf8), "no count: never kept")
        #expect(answers.counts.hits == 2 && answers.held.entries == 2)
    }

    @Test("an answer made asynchronously is kept the same way; one that throws is not kept")
    func asynchronousMake() async throws {
        struct Failed: Error {}
        let answers = DerivedAnswers()
        await #expect(throws: Failed.self) { _ = try await answers.answer(for: "k", asOf: 1) { () async throws -> Data in throw Failed() } }
        #expect(answers.held.entries == 0)
        let made = try await answers.answer(for: "k", asOf: 1) { () async throws -> Data in Data("made".utf8) }
        let again = try await answers.answer(for: "k", asOf: 1) { () async throws -> Data in Data("made again".utf8) }
        #expect(made == Data("made".utf8) && again == made)
    }

    @Test("an answer made under an older count never replaces a fresher one")
    func olderNeverReplaces() {
        let answers = DerivedAnswers()
        answers.keep(Data("new".utf8), for: "k", asOf: 5)
        answers.keep(Data("old".utf8), for: "k", asOf: 4)
        #expect(answers.answer(for: "k", asOf: 5) == Data("new".utf8))
        #expect(answers.answer(for: "k", asOf: 4) == nil)
    }

    @Test("bounds: stale answers go first, then all; an answer larger than the byte bound is not kept")
    func bounds() {
        let answers = DerivedAnswers(maxEntries: 3, maxBytes: 100)
        for key in ["a", "b", "c"] { answers.keep(Data(repeating: 1, count: 10), for: key, asOf: 1) }
        answers.keep(Data(repeating: 2, count: 10), for: "d", asOf: 2)
        #expect(answers.held.entries == 1 && answers.answer(for: "d", asOf: 2) != nil, "the three stale answers made room")
        for key in ["e", "f", "g"] { answers.keep(Data(repeating: 3, count: 10), for: key, asOf: 2) }
        #expect(answers.held.entries == 1 && answers.answer(for: "g", asOf: 2) != nil, "all current and over the bound: only the newest stays")
        answers.keep(Data(repeating: 4, count: 101), for: "h", asOf: 2)
        #expect(answers.answer(for: "h", asOf: 2) == nil && answers.held.bytes == 10)
        answers.keep(Data(repeating: 5, count: 95), for: "i", asOf: 2)
        #expect(answers.held.bytes <= 100 && answers.answer(for: "i", asOf: 2) != nil)
    }
}
