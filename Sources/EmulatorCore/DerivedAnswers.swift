import Foundation
import Storage
import Synchronization

/// SDK answers derived from stored data (an encoded report, a trip list), and records a route
/// reads on every request (a token's pair and user), kept for as long as the database has not
/// changed: an SDK polling its report or trip list gets the same bytes again without the reads
/// and the encoding behind them.
///
/// The rule is the database's change count (`Database.localChangeCount`), read before the read
/// that an answer is derived from: an answer is reused only under the count it was made under.
/// Every commit that changed data moves the count before its caller hears of it, so nothing stale is
/// ever served: a write that lands between reading the count and reading the data only makes
/// the kept answer look older than it is. Where the count is nil (a database other instances
/// share) nothing is kept. Routes still authenticate, check and answer errors on every request;
/// only the part that depends on nothing but the data and the key is reused.
///
/// Any write makes every kept answer stale, so under a write load this saves nothing and costs a
/// dictionary lookup. Bounded by entries and bytes: when full, stale answers go first, then all.
public final class DerivedAnswers: Sendable {
    private struct Kept: Sendable {
        var changeCount: Int
        var value: any Sendable
        var bytes: Int
    }

    private struct State: Sendable {
        var answers: [String: Kept] = [:]
        var heldBytes = 0
    }

    private let state = Mutex(State())
    private let hits = Atomic<Int>(0)
    private let misses = Atomic<Int>(0)
    /// At most this many answers are kept.
    public let maxEntries: Int
    /// At most this many bytes of answers are kept; a larger answer is not kept at all.
    public let maxBytes: Int

    /// An empty store of answers within the bounds.
    @inline(never) // classes with Atomic/Mutex storage are allocated only by their own module (docs/notes)
    public init(maxEntries: Int = 512, maxBytes: Int = 32 << 20) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
    }

    /// The answer kept for `key` if it was made under `changeCount`; nil otherwise, and always
    /// when `changeCount` is nil.
    public func answer(for key: String, asOf changeCount: Int?) -> Data? { value(for: key, asOf: changeCount, as: Data.self) }

    /// Keeps `bytes` as the answer for `key`, made from data read after `changeCount` was; a
    /// nil count keeps nothing.
    public func keep(_ bytes: Data, for key: String, asOf changeCount: Int?) { keep(bytes, costing: bytes.count, for: key, asOf: changeCount) }

    /// The answer kept for `key` under `changeCount`, or `make()`'s, kept for next time.
    public func answer(for key: String, asOf changeCount: Int?, make: () throws -> Data) rethrows -> Data {
        if let kept = answer(for: key, asOf: changeCount) { return kept }
        let made = try make()
        keep(made, for: key, asOf: changeCount)
        return made
    }

    /// The answer kept for `key` under `changeCount`, or `make()`'s (a read, say), kept for next
    /// time; `make`'s errors are thrown and nothing is kept.
    public func answer(for key: String, asOf changeCount: Int?, make: () async throws -> Data) async rethrows -> Data {
        if let kept = answer(for: key, asOf: changeCount) { return kept }
        let made = try await make()
        keep(made, for: key, asOf: changeCount)
        return made
    }

    /// A value other than bytes (records read to authenticate, say) kept for `key` under
    /// `changeCount`, by the same rule as answers; nil when there is none or it is another type.
    public func value<Value: Sendable>(for key: String, asOf changeCount: Int?, as type: Value.Type) -> Value? {
        guard let changeCount else { return nil }
        let kept = state.withLock { $0.answers[key] }
        guard let kept, kept.changeCount == changeCount, let value = kept.value as? Value else {
            misses.add(1, ordering: .relaxed)
            return nil
        }
        hits.add(1, ordering: .relaxed)
        return value
    }

    /// Keeps `value` for `key` under `changeCount`, counted as `bytes` against the byte bound.
    public func keep<Value: Sendable>(_ value: Value, costing bytes: Int, for key: String, asOf changeCount: Int?) {
        guard let changeCount, bytes <= maxBytes else { return }
        state.withLock { state in
            if let old = state.answers[key] {
                // An answer made under a later count is at least as fresh: never replace it with an older one.
                guard old.changeCount <= changeCount else { return }
                state.heldBytes -= old.bytes
            }
            state.answers[key] = Kept(changeCount: changeCount, value: value, bytes: bytes)
            state.heldBytes += bytes
            guard state.answers.count > maxEntries || state.heldBytes > maxBytes else { return }
            state.answers = state.answers.filter { $0.value.changeCount == changeCount }
            state.heldBytes = state.answers.values.reduce(0) { $0 + $1.bytes }
            if state.answers.count > maxEntries || state.heldBytes > maxBytes {
                state.answers = [key: Kept(changeCount: changeCount, value: value, bytes: bytes)]
                state.heldBytes = bytes
            }
        }
    }

    /// Lookups that found a kept answer and lookups that did not, since the start (tests).
    public var counts: (hits: Int, misses: Int) { (hits.load(ordering: .relaxed), misses.load(ordering: .relaxed)) }

    /// How many answers are kept now, and their bytes.
    public var held: (entries: Int, bytes: Int) { state.withLock { ($0.answers.count, $0.heldBytes) } }
}
