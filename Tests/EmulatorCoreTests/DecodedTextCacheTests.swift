import EmulatorCore
import Synchronization
import Testing

@Suite("Decoded text cache")
struct DecodedTextCacheTests {
    private final class Calls: Sendable {
        let count = Mutex(0)
    }

    @Test("a text decodes once; a failed decode is not remembered; past the capacity it starts over")
    func decodesOnce() throws {
        let cache = DecodedTextCache<Int>(capacity: 3)
        let calls = Calls()
        let decode: (String) throws -> Int = { text in
            calls.count.withLock { $0 += 1 }
            guard let value = Int(text) else { throw CancellationError() }
            return value
        }
        #expect(try cache.value(for: "7", decode: decode) == 7)
        #expect(try cache.value(for: "7", decode: decode) == 7)
        #expect(calls.count.withLock { $0 } == 1)
        #expect(throws: CancellationError.self) { try cache.value(for: "x", decode: decode) }
        #expect(throws: CancellationError.self) { try cache.value(for: "x", decode: decode) }
        #expect(calls.count.withLock { $0 } == 3 && cache.count == 1)
        for text in ["1", "2", "3"] { _ = try cache.value(for: text, decode: decode) }
        #expect(cache.count == 1, "the fourth distinct text started the cache over")
        #expect(try cache.value(for: "3", decode: decode) == 3 && calls.count.withLock { $0 } == 6)
    }
}
