import Dispatch
import Synchronization

/// Write transactions waiting for the writer connection, committed together.
///
/// Every request that writes used to pay for its own `BEGIN IMMEDIATE` … `COMMIT` (locks, WAL
/// frames, a thread hop each way). Here writes queue up while the writer is busy, and the writer
/// runs everything queued in one SQLite transaction, each write inside its own savepoint so one
/// failing write rolls back alone. Callers are answered only after the `COMMIT` that holds their
/// write returned, so an acknowledged write is in the log and survives the process being killed.
/// Writes run in the order they were queued.
///
/// A write that finds the writer idle and nothing queued runs on the caller's thread instead
/// (`runInline`): handing it to the writer thread and back cost two wake-ups, about a tenth of a
/// resolve's CPU. Whoever holds `draining` owns the connection, so inline writes, the writer queue
/// and `exclusively` never overlap, and queued work keeps its order. Writes made during one turn
/// of an event loop are staged instead (`stage`) and run together when the turn ends.
final class GroupCommit: @unchecked Sendable { // `connection` is only used by the holder of `draining`; the rest is Mutex/Atomic
    /// One queued write: `perform` runs it on the writer inside the batch's transaction and says
    /// whether it failed; `finish` later learns whether the batch committed.
    struct Job: Sendable {
        let perform: @Sendable (SQLiteConnection) -> Outcome
        let reject: @Sendable (any Error) -> Void
    }

    /// What a job's write did, and how to answer its caller once the batch is settled.
    struct Outcome: Sendable {
        let failed: Bool
        let finish: @Sendable ((any Error)?) -> Void
    }

    private struct Pending: Sendable {
        var jobs: [Job] = []
        var draining = false
        /// Turn takers that will look at the queue when their turn ends.
        var turnsAwaited: Set<ObjectIdentifier> = []
    }

    /// More jobs than this wait for the next transaction, so one commit never holds thousands of
    /// callers (or an unbounded amount of work) behind it.
    static let maxBatch = 256

    private let queue: DispatchQueue
    private let connection: SQLiteConnection
    private let pending = Mutex(Pending())
    private let batches = Atomic<Int>(0)
    private let jobsRun = Atomic<Int>(0)
    /// `exclusively` blocks run: they may change anything, schema included, outside a transaction.
    private let exclusiveRuns = Atomic<Int>(0)
    private let exclusiveWaits = Atomic<Int>(0)

    private let betweenBatches: @Sendable (SQLiteConnection) -> Void
    private let turnIsDue: @Sendable () -> Bool

    /// Commits on `connection`, on `queue` or inline; `betweenBatches` runs on the writer queue
    /// after a transaction, when nothing is being written (the checkpointer's turn), and
    /// `turnIsDue` says whether it has anything to do (an inline write then hands the turn to the
    /// queue rather than run a checkpoint on a request's thread).
    @inline(never) // classes with Atomic/Mutex storage are allocated only by their own module (docs/notes)
    init(
        queue: DispatchQueue, connection: SQLiteConnection,
        betweenBatches: @escaping @Sendable (SQLiteConnection) -> Void = { _ in }, turnIsDue: @escaping @Sendable () -> Bool = { false }
    ) {
        self.queue = queue
        self.connection = connection
        self.betweenBatches = betweenBatches
        self.turnIsDue = turnIsDue
    }

    /// How many `exclusively` blocks have ended (part of what `localChangeCount` reports).
    var exclusiveRunCount: Int { exclusiveRuns.load(ordering: .acquiring) }
    /// Blocking work that found a batch running and waited for it (tests wait for this instead of sleeping).
    var exclusiveWaitCount: Int { exclusiveWaits.load(ordering: .acquiring) }

    /// Transactions committed and writes run so far (tests, metrics).
    var counts: (batches: Int, jobs: Int) { (batches.load(ordering: .acquiring), jobsRun.load(ordering: .acquiring)) }

    /// Writes waiting for the writer (tests).
    var queuedJobs: Int { pending.withLock { $0.jobs.count } }

    /// Queues `job`; the writer picks it up with whatever else is queued.
    func submit(_ job: Job) {
        let start = pending.withLock { state -> Bool in
            state.jobs.append(job)
            if state.draining { return false }
            state.draining = true
            return true
        }
        if start { queue.async { [self] in drain() } }
    }

    /// Queues `job` for the end of the caller's turn, when whatever else the turn writes is queued
    /// with it: then the turn taker runs them all in one transaction (see `endTurn`). A writer
    /// already busy picks the job up sooner, with the rest of the queue.
    func stage(_ job: Job, turn: WriteTurn) {
        let first = pending.withLock { state -> Bool in
            state.jobs.append(job)
            return state.turnsAwaited.insert(turn.owner).inserted
        }
        if first { turn.atEnd { [self] in endTurn(turn.owner) } }
    }

    /// At the end of `owner`'s turn: runs everything queued, in order and in one transaction, right
    /// here when the writer is idle (another loop's staged writes too: handing those to the writer
    /// thread instead measured no better), and leaves it to a writer already draining.
    private func endTurn(_ owner: ObjectIdentifier) {
        enum Next { case nothing, inline([Job]), handOff }
        let next = pending.withLock { state -> Next in
            state.turnsAwaited.remove(owner)
            guard !state.draining, !state.jobs.isEmpty else { return .nothing }
            state.draining = true
            guard state.jobs.count <= Self.maxBatch else { return .handOff }
            defer { state.jobs = [] }
            return .inline(state.jobs)
        }
        switch next {
        case .nothing: return
        case .inline(let batch):
            run(batch)
            release()
        case .handOff:
            queue.async { [self] in drain() }
        }
    }

    /// Runs `job` on the calling thread, in a transaction of its own, when the writer is idle and
    /// nothing is queued; returns false without running it otherwise (the caller then submits it).
    func runInline(_ job: Job) -> Bool {
        guard claim() else { return false }
        run([job])
        release()
        return true
    }

    /// Runs `body` on the connection outside any transaction once the writer is idle, blocking the
    /// caller meanwhile: startup work (migrations) and tests, never a request.
    func exclusively<T>(_ body: (SQLiteConnection) throws -> T) rethrows -> T {
        if !claim() {
            exclusiveWaits.add(1, ordering: .releasing)
            repeat { queue.sync {} } while !claim() // a running drain ends at most one batch later
        }
        defer {
            exclusiveRuns.add(1, ordering: .releasing)
            release()
        }
        return try body(connection)
    }

    private func claim() -> Bool {
        pending.withLock { state in
            guard !state.draining, state.jobs.isEmpty else { return false }
            state.draining = true
            return true
        }
    }

    /// Gives the connection back after inline work, or hands it to the writer queue when writes
    /// were queued meanwhile or the between-batches turn is due.
    private func release() {
        let handOff = pending.withLock { state -> Bool in
            if state.jobs.isEmpty && !turnIsDue() {
                state.draining = false
                return false
            }
            return true
        }
        if handOff { queue.async { [self] in drain() } }
    }

    private func drain() {
        betweenBatches(connection) // the turn an inline write left to the queue, if any
        while true {
            let batch = pending.withLock { state -> [Job] in
                if state.jobs.isEmpty {
                    state.draining = false
                    return []
                }
                let count = min(state.jobs.count, Self.maxBatch)
                let batch = Array(state.jobs.prefix(count))
                state.jobs.removeFirst(count)
                return batch
            }
            if batch.isEmpty { return }
            run(batch)
            betweenBatches(connection)
        }
    }

    private func run(_ batch: [Job]) {
        batches.add(1, ordering: .relaxed)
        jobsRun.add(batch.count, ordering: .relaxed)
        // A lone write needs no savepoint: its failure rolls back the transaction itself.
        let isolated = batch.count > 1
        var settled: [Outcome] = []
        settled.reserveCapacity(batch.count)
        var index = 0
        while index < batch.count {
            if !connection.isInTransaction {
                do { try connection.run("BEGIN IMMEDIATE") } catch {
                    for job in batch[index...] { job.reject(error) }
                    break
                }
            }
            let job = batch[index]
            index += 1
            if isolated {
                do { try connection.run("SAVEPOINT batch_write") } catch {
                    job.reject(error)
                    continue
                }
            }
            let outcome = job.perform(connection)
            guard connection.isInTransaction else {
                // SQLite rolled the whole transaction back (disk full, I/O error): the writes
                // already run in it are gone, so their callers hear the failure; the rest run in a
                // fresh transaction.
                let lost = SQLiteError(code: -1, message: "the write transaction was rolled back by SQLite")
                for earlier in settled { earlier.finish(earlier.failed ? nil : lost) }
                outcome.finish(outcome.failed ? nil : lost)
                settled = []
                continue
            }
            if isolated {
                if outcome.failed { _ = try? connection.run("ROLLBACK TO batch_write") } // the job's own error is the one to report
                _ = try? connection.run("RELEASE batch_write") // cannot fail once ROLLBACK TO ran; a COMMIT error would surface below
            }
            settled.append(outcome)
        }
        guard connection.isInTransaction else { return }
        var commitError: (any Error)?
        do {
            try connection.run(settled.allSatisfy(\.failed) ? "ROLLBACK" : "COMMIT")
        } catch {
            commitError = error
            if connection.isInTransaction { _ = try? connection.run("ROLLBACK") } // the commit's error is the one to report
        }
        for outcome in settled { outcome.finish(outcome.failed ? nil : commitError) }
    }
}
