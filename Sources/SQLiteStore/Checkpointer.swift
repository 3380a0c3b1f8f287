import CSQLite
import Dispatch
import Synchronization

/// Moves the expensive part of WAL checkpoints off the writer: SQLite's automatic checkpoint runs
/// inside the commit that crosses 1,000 pages and fsyncs the log and the database file, stalling
/// every write queued behind it (the 100+ ms requests of the benchmarks).
///
/// Here the writer's commit hook only notes the log's size. Past the threshold a passive
/// checkpoint copies the log into the database on its own connection and queue while writes go on.
/// It cannot finish the job alone: under steady writes there is always a newer frame, so the log
/// would never start over (it grew to 200 MB in a benchmark). Once the background pass is done, the
/// writer — between two transactions, when nothing is being appended — runs a second passive
/// checkpoint that only has the few frames written meanwhile to copy, and the next write starts
/// the log from its beginning.
final class Checkpointer: @unchecked Sendable { // `connection` is only used on `queue`; the flags are atomic
    /// Pages in the log after which a background checkpoint is started (SQLite's own default).
    static let threshold: Int32 = 1_000

    private let queue = DispatchQueue(label: "understudy.sqlite.checkpoint")
    private let connection: SQLiteConnection
    private let scheduled = Atomic<Bool>(false)
    private let backgroundDone = Atomic<Bool>(false)
    private let completed = Atomic<Int>(0)

    @inline(never) // classes with Atomic storage are allocated only by their own module (docs/notes)
    init(path: String) throws {
        connection = try SQLiteConnection(path: path)
    }

    /// Checkpoints run so far, background and writer passes together (tests, the shutdown log).
    var checkpointsRun: Int { completed.load(ordering: .acquiring) }

    /// Installs the hook on the writer connection; `self` must outlive it (the `Database` holds both).
    func watch(_ writer: SQLiteConnection) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(writer.rawHandle, { context, _, _, frames in
            guard let context else { return SQLITE_OK }
            if frames >= Checkpointer.threshold { Unmanaged<Checkpointer>.fromOpaque(context).takeUnretainedValue().schedule() }
            return SQLITE_OK
        }, context)
    }

    /// Starts a background passive checkpoint unless one is running or waits for the writer.
    func schedule() {
        guard !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            // A failed checkpoint only leaves the log longer; the next commit schedules another.
            try? connection.checkpoint()
            completed.add(1, ordering: .releasing)
            backgroundDone.store(true, ordering: .releasing)
        }
    }

    /// Whether `writerIsIdle` has a checkpoint to finish.
    var writerTurnIsDue: Bool { backgroundDone.load(ordering: .acquiring) }

    /// Called by the writer between transactions: finishes a checkpoint the background pass
    /// prepared, so that the next write can restart the log.
    func writerIsIdle(_ writer: SQLiteConnection) {
        guard backgroundDone.exchange(false, ordering: .acquiringAndReleasing) else { return }
        try? writer.checkpoint() // as above: a failure leaves the log longer, nothing else
        completed.add(1, ordering: .releasing)
        scheduled.store(false, ordering: .releasing)
    }

    /// Waits for a running background checkpoint (tests, shutdown).
    func drain() { queue.sync {} }
}
