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
final class GroupCommit: @unchecked Sendable { // `connection` is only used on `queue` (drain runs there); the rest is Mutex/Atomic
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
    }

    /// More jobs than this wait for the next transaction, so one commit never holds thousands of
    /// callers (or an unbounded amount of work) behind it.
    static let maxBatch = 256

    private let queue: DispatchQueue
    private let connection: SQLiteConnection
    private let pending = Mutex(Pending())
    private let batches = Atomic<Int>(0)
    private let jobsRun = Atomic<Int>(0)

    @inline(never) // classes with Atomic/Mutex storage are allocated only by their own module (docs/notes)
    init(queue: DispatchQueue, connection: SQLiteConnection) {
        self.queue = queue
        self.connection = connection
    }

    /// Transactions committed and writes run so far (tests, metrics).
    var counts: (batches: Int, jobs: Int) { (batches.load(ordering: .acquiring), jobsRun.load(ordering: .acquiring)) }

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

    private func drain() {
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
