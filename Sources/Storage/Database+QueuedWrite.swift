extension Database {
    /// Runs `body` as `write` does (a transaction, returning after its commit), but always on the
    /// writer's own queue, never on the caller's thread: for a write that takes long — a bundle
    /// import inserts hundreds of thousands of rows — and must not hold the event loop that asked
    /// for it. `write` runs inline when the writer is idle, which saves ordinary writes two
    /// thread wake-ups and would have held the loop for the whole import.
    public func writeQueued<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        let outcome = QueuedWriteOutcome<T>()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            enqueueWrite(
                { connection in outcome.value = try body(connection) },
                completion: { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                })
        }
        guard let value = outcome.value else { throw SQLiteError(code: -1, message: "a queued write settled no value") }
        return value
    }
}

/// Where a queued write's value waits for its commit. Set by the write on the writer's queue and
/// read after `completion` ran there too, which the continuation's resumption orders after it.
private final class QueuedWriteOutcome<T: Sendable>: @unchecked Sendable {
    var value: T?
}
