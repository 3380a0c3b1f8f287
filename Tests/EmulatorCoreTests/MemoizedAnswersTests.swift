import EmulatorCore
import Foundation
import Testing

@Suite("Memoized answers")
struct MemoizedAnswersTests {
    @Test("an answer is reused only for an equal input under the same key, and the store stays within its bound")
    func reuseRule() {
        let answers = MemoizedAnswers<[String]>(capacity: 2)
        var made = 0
        func fetch(_ key: String, _ input: [String]) -> String {
            String(
                decoding: answers.answer(for: key, input: input) { input in
                    made += 1
                    return Data((input.joined(separator: ",") + "#\(made)").utf8)
                }, as: UTF8.self)
        }
        #expect(fetch("a", ["x"]) == "x#1")
        #expect(fetch("a", ["x"]) == "x#1" && made == 1, "equal input: reused")
        #expect(fetch("a", ["y"]) == "y#2", "another input under the same key: made again")
        #expect(fetch("a", ["x"]) == "x#3", "only the latest input is kept per key")
        #expect(fetch("b", ["x"]) == "x#4", "keys do not share answers")
        #expect(answers.count == 2)
        #expect(fetch("c", ["z"]) == "z#5")
        #expect(answers.count == 1, "a full store starts over")
        #expect(fetch("c", ["z"]) == "z#5" && made == 5)
    }
}
