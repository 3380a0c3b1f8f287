import Synchronization

/// A server-wide allowance for request body bytes held in memory (buffered or decoded), shared
/// by every connection: beyond it new body bytes are refused with a 503 instead of growing memory.
public final class RequestBodyBudget: Sendable {
    /// The most body bytes held at once.
    public let limit: Int
    private let used = Atomic<Int>(0)

    /// Creates a budget of `limit` bytes.
    @inline(never) // see Database.init: classes with Atomic/Mutex storage are allocated in their own module
    public init(limit: Int) {
        self.limit = limit
    }

    /// Bytes held now.
    public var bytesInUse: Int { used.load(ordering: .relaxed) }

    /// Takes `count` more bytes if they fit; false (and nothing taken) when they do not.
    public func reserve(_ count: Int) -> Bool {
        let after = used.add(count, ordering: .relaxed).newValue
        if after <= limit { return true }
        used.subtract(count, ordering: .relaxed)
        return false
    }

    /// Gives back `count` bytes.
    public func release(_ count: Int) {
        used.subtract(count, ordering: .relaxed)
    }
}
