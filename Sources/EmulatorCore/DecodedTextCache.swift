import Synchronization

/// Values decoded from stored JSON text, kept by that text: decoding is a pure function of it,
/// so a row read again on every SDK call skips Foundation's `JSONDecoder` (a twentieth of one
/// platform's hottest lookup). Bounded: past `capacity` distinct texts it starts over, so
/// memory stays flat however many rows a load test makes.
public final class DecodedTextCache<Value: Sendable>: Sendable {
    private let entries = Mutex<[String: Value]>([:])
    private let capacity: Int

    /// A cache of at most `capacity` decoded texts.
    @inline(never) // classes with Mutex storage are allocated only by their own module (docs/notes)
    public init(capacity: Int = 4_096) {
        self.capacity = capacity
    }

    /// The value `text` decodes to: the cached one, or `decode(text)`, remembered when it succeeds.
    public func value(for text: String, decode: (String) throws -> Value) rethrows -> Value {
        if let known = entries.withLock({ $0[text] }) { return known }
        let value = try decode(text)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[text] = value
        }
        return value
    }

    /// Texts held now (tests).
    public var count: Int { entries.withLock { $0.count } }
}
