import Dispatch
import Foundation
import Storage

/// Waits and long polls: parked on `JournalSignal`, woken by `record` or a shared table's watcher.
extension Journal {
    /// Waits until at least `count` entries match, or `timeout` passes. Returns what matched.
    ///
    /// The wait parks between queries and is woken by `record` (on this instance) or by the
    /// shared table's watcher (entries other instances wrote); an idle wait costs no CPU.
    public func wait(project: ProjectID?, filter: JournalFilter, count: Int, timeout: Double) async throws
        -> (entries: [JournalEntry], evicted: Int, satisfied: Bool)
    {
        // Callers bound the timeout (60 s for the routes); an hour caps what a library caller asks.
        let nanoseconds = timeout.isFinite ? (min(max(timeout, 0), 3_600) * 1e9).roundedInt() ?? 0 : 0
        let deadline = DispatchTime.now() + .nanoseconds(nanoseconds)
        var wide = filter
        wide.limit = max(count, filter.limit ?? count)
        while true {
            // Read before the query: anything recorded while it runs makes the wait below return at once.
            let seen = signal.generation
            let last = try await query(project: project, filter: wide)
            if last.entries.count >= count { return (last.entries, last.evicted, true) }
            let watcher: (@Sendable () -> Void)? = database.isShared ? { @Sendable [self] in watchSharedTable() } : nil
            guard await signal.wait(after: seen, project: project, deadline: deadline, startWatcher: watcher) == .announced else {
                return (last.entries, last.evicted, false)
            }
        }
    }

    /// Makes every wait (and long poll) answer now with what it has, so a shutdown is not held
    /// up by an open dashboard.
    public func endWaits() { signal.end() }

    /// Waits parked now (read by the metrics).
    public var parkedWaits: Int { signal.parked }

    /// How often the watcher of a shared table looks for other instances' entries.
    static let sharedWatchInterval: Duration = .milliseconds(20)

    /// Ids below the newest that the shared table's watcher still counts: an instance commits its
    /// entries in batches after reserving their ids, so a lower id can appear after a higher one.
    static let sharedWatchWindow = 1_024

    /// On a database other instances share, their entries do not pass through `record` here: one
    /// task per instance reads the table every `sharedWatchInterval` while any wait is parked and
    /// wakes them all when it changed (one query per interval however many wait; each wait polling
    /// cost 100 waits ~6,000 transactions/s), and ends when none is left. What it reads is the
    /// newest id and how many entries lie within `sharedWatchWindow` ids of it, since ids are
    /// reserved before their batch commits: another instance's entry can land below one already seen.
    func watchSharedTable() {
        Task { [self] in
            var seen: (floor: Int, newest: Int, count: Int)?
            repeat {
                if let read = try? await readSharedTable(after: seen) {
                    if seen == nil || seen?.newest != read.newest || seen?.count != read.count { signal.announceAll() }
                    seen = (read.floor, read.newest, read.countAboveFloor)
                }
                try? await Task.sleep(for: Self.sharedWatchInterval)
            } while !signal.releaseWatcherIfIdle()
        }
    }

    /// The newest id, and the entries above the last read's floor (`count`) and above the next
    /// read's (`countAboveFloor`, the window moved up behind the newest id): a count is only
    /// compared with one over the same ids.
    func readSharedTable(after seen: (floor: Int, newest: Int, count: Int)?) async throws
        -> (floor: Int, newest: Int, count: Int, countAboveFloor: Int)
    {
        let window = Self.sharedWatchWindow
        return try await database.readOnPool { connection in
            let floor = try seen?.floor ?? max((connection.scalar("SELECT coalesce(max(id), 0) FROM journal").int ?? 0) - window, 0)
            let next = max((seen?.newest ?? 0) - window, floor)
            let row = try connection.queryOne(
                """
                SELECT coalesce(max(id), 0) AS newest, count(*) AS n, coalesce(sum(CASE WHEN id > ? THEN 1 ELSE 0 END), 0) AS above
                FROM journal WHERE id > ?
                """, next, floor)
            guard let row else { return (floor, seen?.newest ?? 0, 0, 0) }
            return (next, try row.decode("newest"), try row.decode("n"), try row.decode("above"))
        }
    }
}
