import Foundation
import HTTPServer
import Storage
import Synchronization

/// The request journal: appended off the hot path in batches, bounded by count and bytes with
/// eviction counted per project, and queryable (with a wait) by tests.
public final class Journal: Sendable {
    struct Pending: Sendable {
        var entries: [Exchange] = []
        var flushScheduled = false
        /// Bodies (and a fixed share for the rest) of exchanges recorded and not yet committed.
        var backlogBytes = 0
        /// What the exchanges in `entries` counted against `backlogBytes`, given back once their batch commits.
        var entriesFootprint = 0
        /// The bodies of `entries` counted so far, by the address and length of their bytes: many
        /// answers can share one buffer (a cached 43 KB trip list), which is in memory once.
        var countedBodies: Set<BodyBuffer> = []
        /// Recorders waiting for the backlog to fall under its bound.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    let database: any Database
    let limits: JournalLimits
    let nextIDValue: Atomic<Int>
    let pending = Mutex(Pending())
    let totals = Mutex<(count: Int, bytes: Int)>((0, 0))
    private let flushQueue = DispatchQueue(label: "understudy.journal.flush")
    /// Wakes the waits a recorded exchange may satisfy.
    let signal = JournalSignal()
    let evictions = Atomic<Int>(0)
    let backlogWaits = Atomic<Int>(0)
    /// Large bodies stored once; nil on a database other instances share, whose writers would
    /// number bodies alike (each entry there keeps its own copy).
    let bodies: JournalBodies?
    /// What the table holds, for eviction without reading it. Not kept on a database other
    /// instances share, whose table holds their entries too (eviction reads the table there).
    let ledger: Mutex<JournalLedger>
    let keepsLedger: Bool

    /// Entries and stored bytes the journal holds now, as its eviction bounds count them (read by the metrics).
    public var storedTotals: (entries: Int, bytes: Int) { totals.withLock { ($0.count, $0.bytes) } }
    /// Bytes of the journal's body segment files, spares included (0 without them; read by the metrics).
    public var bodyFileBytes: Int { bodies?.file?.fileBytes() ?? 0 }
    /// Entries evicted since the process started (a counter for the metrics; the per-project counts are in the database).
    public var evictedSinceStart: Int { evictions.load(ordering: .relaxed) }
    /// Requests since the process started that waited for the journal's writer to catch up
    /// (`JournalLimits.backlogBytes`): a counter for the metrics, so slow answers can be told apart.
    public var backlogWaitsSinceStart: Int { backlogWaits.load(ordering: .relaxed) }

    /// Creates the journal, continuing ids after what the database holds. With a `bodyDirectory`
    /// (a journal in a SQLite file of its own), large bodies are kept in segment files there
    /// (`JournalBodyFile`, in segments of `bodySegmentBytes`), and segments no stored body lies in
    /// any more are deleted now.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(database: any Database, limits: JournalLimits, bodyDirectory: String? = nil, bodySegmentBytes: Int = 16 << 20) throws {
        self.database = database
        self.limits = limits
        let (maxID, count, bytes, maxBodyID, maxPosition) = try database.withWriterBlocking { connection -> (Int, Int, Int, Int, Int?) in
            let row = try connection.queryOne(
                """
                SELECT coalesce(max(id), 0) AS max_id, count(*) AS n,
                    coalesce(sum(stored_bytes), 0) + (SELECT coalesce(sum(stored_bytes), 0) FROM journal_bodies) AS bytes,
                    (SELECT coalesce(max(id), 0) FROM journal_bodies) AS max_body_id,
                    (SELECT max(file_position) FROM journal_bodies) AS max_position
                FROM journal
                """)
            // Aggregates with coalesce: one row, never NULL (but the last).
            guard let row else { return (0, 0, 0, 0, nil) }
            return (
                try row.decode("max_id"), try row.decode("n"), try row.decode("bytes"), try row.decode("max_body_id"),
                try row.decodeIfPresent("max_position")
            )
        }
        nextIDValue = Atomic(maxID + 1)
        let file = try bodyDirectory.flatMap { directory in
            database.isShared || !limits.enabled
                ? nil : try JournalBodyFile(directory: directory, segmentBytes: bodySegmentBytes, highestPosition: maxPosition)
        }
        if let file {
            // Left by a crash between a body's write and its row's commit, or by evictions whose
            // files were still to be deleted when the last run ended.
            file.delete(try database.withWriterBlocking { try file.unnamedSegments(connection: $0) })
        }
        bodies = database.isShared ? nil : JournalBodies(nextID: maxBodyID + 1, file: file)
        // What an earlier run wrote is not listed: eviction reads the table until it is gone.
        keepsLedger = !database.isShared
        ledger = Mutex(JournalLedger(unlistedThrough: database.isShared ? .max : count > 0 ? maxID : nil))
        totals.withLock { $0 = (count, bytes) }
    }

    /// How long recorded exchanges wait to be written together. Readers never wait for it: a
    /// query (and so every wait and long poll) flushes first. Longer batches cost the log less:
    /// every transaction rewrites the table's last leaf and index pages whole, so batches of ~30
    /// entries (2 ms at 15k requests/s) wrote 2.4 KB of log per entry, each synced again by
    /// the checkpoint.
    static let gatherDelay = DispatchTimeInterval.milliseconds(20)

    /// Entries a flush converts, or inserts, between two `sched_yield()`s. A flush is a burst of
    /// milliseconds of CPU on one thread, and Linux lets it run on until its slice ends: a loop or
    /// a client woken on the same core meanwhile waited behind it (a request's 1–3 ms at one
    /// connection, every gather interval). Yielding lets it run; the flush goes on next.
    static let entriesPerYield = 16

    /// The platform name of what the proxy answered itself (a CONNECT, a forwarded request).
    public static let proxyPlatform = "proxy"
    /// The platform name of control-plane calls, a platform's own control routes included.
    public static let controlPlanePlatform = "admin"

    /// Reserves the id of a request about to be answered.
    public func reserveID() -> Int { nextIDValue.wrappingAdd(1, ordering: .relaxed).oldValue }

    /// Reserves a request id that no other instance sharing the database will use (one database
    /// round trip there); this instance's own counter when the database is not shared, or while
    /// it cannot be reached (the request then fails with 503, and its journal write with it).
    public func reserveRequestID() async -> Int {
        guard database.isShared, let shared = try? await database.nextSharedRequestID() else { return reserveID() }
        return shared
    }

    /// Whether recording is on.
    public var isEnabled: Bool { limits.enabled }

    /// Queues an exchange; it is written within `gatherDelay`, and before any query runs.
    ///
    /// Returns at once unless more than `JournalLimits.backlogBytes` of recorded exchanges wait to
    /// be committed: then it returns once the writer caught up, so a request answered faster than
    /// the journal can write (a 43 KB trip list at full speed) slows to the journal's pace instead
    /// of piling exchanges up in memory (that backlog grew the process by 100 MB every 3 s).
    public func record(_ entry: Exchange) async {
        guard limits.enabled else { return }
        let (schedule, overBound) = pending.withLock { state -> (Bool, Bool) in
            let footprint = Self.footprint(entry, counted: &state.countedBodies)
            state.entries.append(entry)
            state.backlogBytes += footprint
            state.entriesFootprint += footprint
            let overBound = state.backlogBytes > limits.backlogBytes
            if state.flushScheduled { return (false, overBound) }
            state.flushScheduled = true
            return (true, overBound)
        }
        // Woken waits query, and a query flushes first: they see this entry without waiting for the batch.
        signal.announce(project: entry.projectID)
        if schedule {
            // A delay gathers the requests of a burst into one transaction. The timer's
            // block hands the batch to the writer itself, without a task and a continuation
            // (two more thread wake-ups per batch). Nobody waits for this batch: a failed write
            // loses its entries, and the next flush reports nothing about it.
            flushQueue.asyncAfter(deadline: .now() + Self.gatherDelay) { [self] in
                let (batch, footprint) = takeBatch()
                enqueue(batch, footprint: footprint) { _ in }
            }
        }
        guard overBound else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waits = pending.withLock { state -> Bool in
                guard state.backlogBytes > limits.backlogBytes else { return false }
                state.waiters.append(continuation)
                return true
            }
            if waits { backlogWaits.add(1, ordering: .relaxed) } else { continuation.resume() }
        }
    }

    /// Where a body's bytes are: the same buffer, however many exchanges hold it.
    struct BodyBuffer: Hashable, Sendable {
        var address: UInt
        var count: Int
    }

    /// What an exchange counts against the backlog bound: 1 KB for its row, and its bodies, each
    /// body of `JournalBodies.minimumBytes` or more only once per batch however many exchanges
    /// share its buffer. Counting a shared 43 KB trip list in full for every answer made trips at
    /// 16 connections wait on the bound (112 waits in a 3 s run) for memory they did not hold.
    /// The exchanges keep their bodies alive until the batch is taken, so no buffer counted in
    /// `counted` can be freed and its address reused meanwhile.
    static func footprint(_ exchange: Exchange, counted: inout Set<BodyBuffer>) -> Int {
        func bytes(_ body: Data) -> Int {
            guard body.count >= JournalBodies.minimumBytes else { return body.count }
            let address = body.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
            return counted.insert(BodyBuffer(address: address, count: body.count)).inserted ? body.count : 0
        }
        return 1024 + bytes(exchange.request.body) + bytes(exchange.responseBody)
    }

    /// Gives back what a committed (or failed) batch counted against the backlog, and lets the
    /// waiting recorders go once it is under its bound again.
    private func release(_ footprint: Int) {
        let waiters = pending.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.backlogBytes -= footprint
            guard state.backlogBytes <= limits.backlogBytes else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Takes everything recorded so far as entries, and lets the next record schedule a flush.
    /// Runs on `flushQueue`, which hands batches to the writer in the order they were taken.
    private func takeBatch() -> (entries: [StoredEntry], footprint: Int) {
        let (exchanges, footprint) = pending.withLock { state -> ([Exchange], Int) in
            let taken = (state.entries, state.entriesFootprint)
            state.entries = []
            state.entriesFootprint = 0
            state.countedBodies.removeAll(keepingCapacity: true)
            state.flushScheduled = false
            return taken
        }
        let cap = limits.bodyCaptureBytes
        var entries: [StoredEntry] = []
        entries.reserveCapacity(exchanges.count)
        for (index, exchange) in exchanges.enumerated() {
            if index > 0, index % Self.entriesPerYield == 0 { sched_yield() }
            entries.append(Self.stored(exchange, cap: cap, bodies: bodies))
        }
        return (entries, footprint)
    }

    /// Writes everything queued so far, and returns only once every entry recorded before the
    /// call is committed: batches are handed to the writer queue in the order they were taken,
    /// so even an empty flush waits for a batch another flush took a moment earlier.
    ///
    /// Turning exchanges into entries (header maps, redaction, body text) runs on the journal's
    /// own serial queue, not inside the write: the writer, which every SDK write waits for, only
    /// inserts. Batches reach that queue in the order taken (dispatched under the lock), and it
    /// hands them to the writer in the same order.
    public func flush() async throws {
        let failure: (any Error)? = await withCheckedContinuation { continuation in
            // Taken on the queue: whatever was recorded before this call is either in a batch
            // the queue already handed to the writer, or in this one.
            flushQueue.async { [self] in
                let (batch, footprint) = takeBatch()
                enqueue(batch, footprint: footprint) { continuation.resume(returning: $0) }
            }
        }
        if let failure { throw failure }
    }

    /// Inserts `batch` (evicting past the bounds) in the writer's next transaction, then gives
    /// back its `footprint` against the backlog bound.
    private func enqueue(_ batch: [StoredEntry], footprint: Int, completion: @escaping @Sendable ((any Error)?) -> Void) {
        let unnamedSegments = Mutex<[Int]>([])
        database.enqueueWrite(
            { [self] connection in
                guard !batch.isEmpty else { return }
                do {
                    try insert(batch, connection: connection)
                    let unnamed = try bodies?.unnamedSegments(connection: connection) ?? []
                    unnamedSegments.withLock { $0 = unnamed }
                } catch {
                    // Rolled back with the job: bodies it inserted are gone again, and the ledger
                    // may list entries the table no longer holds.
                    bodies?.forgetAll()
                    startLedgerOver()
                    throw error
                }
            },
            completion: { [self] error in
                // A failed commit lost the bodies of every job in it (and brought back the rows that
                // named the unnamed segments).
                if error != nil {
                    bodies?.forgetAll()
                    startLedgerOver()
                } else {
                    bodies?.file?.delete(unnamedSegments.withLock { $0 })
                }
                release(footprint)
                completion(error)
            })
    }

    /// Deletes a project's entries (and its eviction count).
    public func clear(project: ProjectID) async throws {
        try await flush()
        let removed: (Int, Int)
        let unnamedSegments = Mutex<[Int]>([])
        do {
            removed = try await database.write { [self] connection -> (Int, Int) in
                let row = try connection.queryOne("SELECT count(*) AS n, coalesce(sum(stored_bytes), 0) AS bytes FROM journal WHERE project_id = ?", project)
                let named = try JournalBodies.named(where: "project_id = ?", [project], connection: connection)
                try connection.run("DELETE FROM journal WHERE project_id = ?", project)
                try connection.run("DELETE FROM journal_evictions WHERE project_id = ?", project)
                let freed = try JournalBodies.collect(named, connection: connection, cache: bodies)
                let unnamed = try bodies?.unnamedSegments(connection: connection) ?? []
                unnamedSegments.withLock { $0 = unnamed }
                ledger.withLock { $0.remove(project: project) }
                guard let row else { return (0, freed) }
                return (try row.decode("n"), try row.decode("bytes") + freed)
            }
        } catch {
            startLedgerOver()
            throw error
        }
        bodies?.file?.delete(unnamedSegments.withLock { $0 })
        totals.withLock {
            $0.count -= removed.0; $0.bytes -= removed.1
        }
    }

    /// Has the ledger forget what it listed: after a failed write, the table may hold less (or,
    /// after a failed clear, more) than it says. Every id reserved so far may be in the table.
    func startLedgerOver() {
        let reserved = nextIDValue.load(ordering: .relaxed)
        ledger.withLock { $0.startOver(reservedThrough: reserved) }
    }

}
