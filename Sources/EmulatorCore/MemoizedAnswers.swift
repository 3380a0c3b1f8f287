import Foundation
import Synchronization

/// Encoded answers kept by the inputs they were made from: an answer is reused only when the
/// inputs compare equal to the ones it was made from, so nothing needs invalidating — a changed
/// record is a different input. For answers that are a pure function of a record a route reads
/// anyway (a write route, where `DerivedAnswers`' change count moves on every request), when
/// building and encoding the JSON costs more than comparing the record.
///
/// Bounded: at most `capacity` keys; a full store starts over.
public final class MemoizedAnswers<Input: Equatable & Sendable>: Sendable {
    /// At most this many keys are kept.
    public let capacity: Int
    private let entries: Mutex<[String: (input: Input, answer: Data)]>

    /// An empty store of at most `capacity` answers.
    @inline(never) // classes with Mutex storage are allocated only by their own module (see docs/notes)
    public init(capacity: Int = 1024) {
        self.capacity = capacity
        entries = Mutex([:])
    }

    /// The answer kept under `key` if it was made from `input`; otherwise `make(input)`, kept.
    public func answer(for key: String, input: Input, make: (Input) throws -> Data) rethrows -> Data {
        if let kept = entries.withLock({ $0[key] }), kept.input == input { return kept.answer }
        let made = try make(input)
        entries.withLock { all in
            if all.count >= capacity, all[key] == nil { all.removeAll(keepingCapacity: true) }
            all[key] = (input, made)
        }
        return made
    }

    /// How many answers are kept (for tests).
    public var count: Int { entries.withLock { $0.count } }
}
