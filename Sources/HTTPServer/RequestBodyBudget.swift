import Synchronization

/// A server-wide allowance for request body bytes held in memory (buffered or decoded), shared
/// by every connection: beyond it new body bytes are refused with a 503 instead of growing memory.
public final class RequestBodyBudget: Sendable {
    /// The most body bytes held at once.
    public let limit: Int
    private let used = Atomic<Int>(0)

    /// Creates a budget of `limit` bytes.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
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

/// What one connection has taken from a `RequestBodyBudget`, kept equal to what it holds.
struct BodyBudgetCharge {
    private let budget: RequestBodyBudget?
    private var charged = 0

    /// A charge against `budget` (nil: no budget, every update succeeds).
    init(budget: RequestBodyBudget?) { self.budget = budget }

    /// Takes or gives back the difference to `holding` bytes; false (nothing taken) when the
    /// budget has no room for the increase.
    mutating func update(holding: Int) -> Bool {
        guard let budget else { return true }
        if holding > charged {
            guard budget.reserve(holding - charged) else { return false }
        } else if holding < charged {
            budget.release(charged - holding)
        }
        charged = holding
        return true
    }

    /// Gives everything back (the connection closed).
    mutating func releaseAll() {
        budget?.release(charged)
        charged = 0
    }
}
