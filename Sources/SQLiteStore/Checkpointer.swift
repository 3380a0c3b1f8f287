import CSQLite
import Dispatch
import Synchronization

/// Moves WAL checkpoints off the writer: SQLite's automatic checkpoint runs inside the commit that
/// crosses 1,000 pages, fsyncs the log and the database file, and so stalled every write queued
/// behind it (the 100+ ms requests of the benchmarks). Here the writer's commit hook only notes the
/// log's size; a passive checkpoint then runs on its own connection and queue while writes go on.
final class Checkpointer: @unchecked Sendable { // `connection` is only used on `queue`; `scheduled` is atomic
    /// Pages in the log after which a background checkpoint is started (SQLite's own default).
    static let threshold: Int32 = 1_000
    /// Pages after which the writer itself restarts the log: passive checkpoints could not keep
    /// up (readers always in the way), and an unbounded log would slow every read.
    static let restartThreshold: Int32 = 50_000

    private let queue = DispatchQueue(label: "understudy.sqlite.checkpoint")
    private let connection: SQLiteConnection
    private let scheduled = Atomic<Bool>(false)
    private let completed = Atomic<Int>(0)

    @inline(never) // classes with Atomic storage are allocated only by their own module (docs/notes)
    init(path: String) throws {
        connection = try SQLiteConnection(path: path)
    }

    /// Checkpoints run so far (for tests).
    var checkpointsRun: Int { completed.load(ordering: .acquiring) }

    /// Installs the hook on the writer connection; `self` must outlive it (the `Database` holds both).
    func watch(_ writer: SQLiteConnection) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(writer.rawHandle, { context, handle, _, frames in
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<Checkpointer>.fromOpaque(context).takeUnretainedValue()
            if frames >= Checkpointer.restartThreshold {
                // Called by SQLite on the writer after its commit, outside any transaction.
                _ = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_RESTART, nil, nil)
            } else if frames >= Checkpointer.threshold {
                checkpointer.schedule()
            }
            return SQLITE_OK
        }, context)
    }

    /// Starts a passive checkpoint unless one is running.
    func schedule() {
        guard !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            // A failed checkpoint only leaves the log longer; the next commit schedules another.
            try? connection.checkpoint()
            completed.add(1, ordering: .releasing)
            scheduled.store(false, ordering: .releasing)
        }
    }

    /// Waits for a running checkpoint (tests, shutdown).
    func drain() { queue.sync {} }
}
