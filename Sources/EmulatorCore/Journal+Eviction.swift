import Storage

extension Journal {
    /// The ledger disagreed with the table: the `DELETE` it planned was rolled back.
    private struct LedgerMismatch: Error {}

    /// Deletes the oldest entries so that at least `count` entries and `bytes` stored bytes go,
    /// and counts per project what went. Callers ask for a hundredth of the bounds more than the
    /// excess, so eviction runs once per hundreds of requests instead of on every batch.
    ///
    /// From the ledger when it lists the whole table: one `DELETE`, checked against the ledger's
    /// count (a disagreement rolls it back, starts the ledger over and reads the table instead).
    func evict(count: Int, bytes: Int, connection: any StoreConnection) throws -> (count: Int, bytes: Int) {
        if let plan = ledger.withLock({ $0.plan(count: count, bytes: bytes) }) {
            var freed = 0
            do {
                try connection.transaction(immediate: false) {
                    guard try connection.run("DELETE FROM journal WHERE id <= ?", plan.cutoff) == plan.count else { throw LedgerMismatch() }
                    for (project, evicted) in plan.perProject.sorted(by: { $0.key < $1.key }) {
                        try Self.countEvicted(evicted, project: project, connection: connection)
                    }
                    freed = try JournalBodies.collect(plan.bodies, connection: connection, cache: bodies)
                }
                ledger.withLock { $0.remove(plan) }
                return (plan.count, plan.bytes + freed)
            } catch is LedgerMismatch {
                startLedgerOver()
            }
        }
        return try evictReadingTable(count: count, bytes: bytes, connection: connection)
    }

    /// Eviction that finds what to delete in the table itself: where the ledger does not list
    /// every row (what an earlier run wrote, a shared database).
    private func evictReadingTable(count: Int, bytes: Int, connection: any StoreConnection) throws -> (count: Int, bytes: Int) {
        var cutoff = 0
        if count > 0 {
            cutoff = try connection.scalar("SELECT id FROM journal ORDER BY id LIMIT 1 OFFSET ?", count - 1).int ?? 0
        }
        if bytes > 0 {
            // Oldest first, a page at a time, until enough bytes are covered: a window over the
            // whole table cost a scan of every entry per eviction. A shared body is expected back
            // with the first entry that names it, as the ledger expects it.
            var covered = 0, byBytes = 0, seenBodies: Set<Int> = []
            scan: while covered < bytes {
                let page = try connection.query(
                    """
                    SELECT journal.id, journal.stored_bytes, request_body_ref, response_body_ref,
                        coalesce(request_body.stored_bytes, 0) AS request_body_bytes, coalesce(response_body.stored_bytes, 0) AS response_body_bytes
                    FROM journal
                    LEFT JOIN journal_bodies AS request_body ON request_body.id = journal.request_body_ref
                    LEFT JOIN journal_bodies AS response_body ON response_body.id = journal.response_body_ref
                    WHERE journal.id > ? ORDER BY journal.id LIMIT 500
                    """, byBytes)
                if page.isEmpty { break }
                for row in page {
                    byBytes = try row.decode("id")
                    covered += try row.decode("stored_bytes", as: Int.self)
                    if let ref = try row.decodeIfPresent("request_body_ref", as: Int.self), seenBodies.insert(ref).inserted {
                        covered += try row.decode("request_body_bytes", as: Int.self)
                    }
                    if let ref = try row.decodeIfPresent("response_body_ref", as: Int.self), seenBodies.insert(ref).inserted {
                        covered += try row.decode("response_body_bytes", as: Int.self)
                    }
                    if covered >= bytes { break scan }
                }
            }
            cutoff = max(cutoff, byBytes)
        }
        guard cutoff > 0 else { return (0, 0) }
        var removedCount = 0, removedBytes = 0
        for row in try connection.query(
            """
            SELECT coalesce(project_id, '') AS project, count(*) AS n, coalesce(sum(stored_bytes), 0) AS bytes
            FROM journal WHERE id <= ? GROUP BY project_id
            """, cutoff)
        {
            let evicted: Int = try row.decode("n")
            removedCount += evicted
            removedBytes += try row.decode("bytes", as: Int.self)
            try Self.countEvicted(evicted, project: try row.decode("project"), connection: connection)
        }
        let named = try JournalBodies.named(where: "id <= ?", [cutoff], connection: connection)
        try connection.run("DELETE FROM journal WHERE id <= ?", cutoff)
        removedBytes += try JournalBodies.collect(named, connection: connection, cache: bodies)
        ledger.withLock { $0.tableEvicted(through: cutoff) }
        return (removedCount, removedBytes)
    }

    /// Adds `evicted` to a project's eviction count ("" for requests with no project).
    private static func countEvicted(_ evicted: Int, project: String, connection: any StoreConnection) throws {
        try connection.run(
            """
            INSERT INTO journal_evictions (project_id, evicted) VALUES (?, ?)
            ON CONFLICT (project_id) DO UPDATE SET evicted = journal_evictions.evicted + excluded.evicted
            """, project, evicted)
    }
}
