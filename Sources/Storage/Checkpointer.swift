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
/// would never start over (it grew to 200 MB in a benchmark). Once the background passes are done,
/// the writer — between two transactions, when nothing is being appended — runs a last passive
/// checkpoint that only has the few frames written meanwhile to copy, and the next write starts
/// the log from its beginning.
///
/// That last pass is on the writer, so its cost is every write's wait. Each pass syncs the log
/// and the database file, and `fdatasync` writes back every dirty page of the file, not only the
/// pass's own: after a single background pass the writer's turn inherited a second or so of log
/// writes to flush, 100–275 ms on this disk (every queued write stalled behind it). So the
/// background repeats its pass while more than `writerShare` frames are left over: each pass has
/// only what arrived during the previous one to copy, the remainder shrinks by the ratio of write
/// rate to disk rate, and the writer's turn has a few pages to copy.
///
/// The writer's turn does not sync at all: on this machine's disk a sync of even a few pages
/// waited 100–500 ms behind other writeback, and every write waited with it. The price is a
/// window, until the next background pass syncs the database file, in which a power cut (not a
/// crash of the process: the kernel still holds the pages) could leave the file inconsistent,
/// since the log those pages came from is being overwritten. An emulator's database is test
/// state that can be seeded again; a writer stalled for half a second is a failed test.
final class Checkpointer: @unchecked Sendable { // `connection` is only used on `queue`; the flags are atomic
    // The bounds below are in frames of a 4 KiB page, as they were measured; a file with larger
    // pages divides them (`Bounds`), so that each stays the same number of bytes.
    /// Pages in the log after which a background checkpoint is started (SQLite's own default).
    static let threshold: Int32 = 1_000
    /// Frames the background may leave for the writer's pass (about 256 KB to sync).
    static let writerShare = 64
    /// Background passes per checkpoint at most: a write rate above the disk's never converges,
    /// and the writer then copies what is left rather than let the log grow.
    static let maxBackgroundPasses = 6
    /// Uncopied frames (left by the background or appended since) past which the writer's turn
    /// waits for another background round instead of copying them itself (about 4 MB).
    static let writerDeferral = 1_024
    /// The log's size past which the writer copies whatever is left regardless (128 MB): the
    /// bound on the log under a write rate the disk cannot follow.
    static let maximumDeferredLog = 32_768

    /// The frame bounds above for a file of `pageSize`-byte pages.
    struct Bounds {
        let threshold: Int32
        let writerShare: Int
        let writerDeferral: Int
        let maximumDeferredLog: Int

        init(pageSize: Int = 4_096) {
            let scale = max(1, pageSize / 4_096)
            threshold = max(1, Checkpointer.threshold / Int32(scale))
            writerShare = max(1, Checkpointer.writerShare / scale)
            writerDeferral = max(1, Checkpointer.writerDeferral / scale)
            maximumDeferredLog = max(1, Checkpointer.maximumDeferredLog / scale)
        }
    }

    /// This file's bounds, by its page size.
    let bounds: Bounds

    private let queue = DispatchQueue(label: "understudy.sqlite.checkpoint")
    private let connection: SQLiteConnection
    private let scheduled = Atomic<Bool>(false)
    private let backgroundDone = Atomic<Bool>(false)
    private let completed = Atomic<Int>(0)
    private let writerNanoseconds = Atomic<Int>(0)
    private let commitsWithFrames = Atomic<Int>(0)
    private let longestWriterNanoseconds = Atomic<Int>(0)
    private let backgroundFrames = Atomic<Int>(0)
    private let writerFrames = Atomic<Int>(0)
    /// Frames of the current log the background passes copied: the writer's turn copies the rest.
    private let copiedByBackground = Atomic<Int>(0)
    /// The log's size after the writer's last commit (the WAL hook's count).
    private let logFrames = Atomic<Int>(0)
    private let deferredTurns = Atomic<Int>(0)

    @inline(never) // classes with Atomic storage are allocated only by their own module (docs/notes)
    init(path: String) throws {
        connection = try SQLiteConnection(path: path)
        // A connection opens the log only on its first read. Until then SQLite (3.40 here) answers
        // a checkpoint on it with success and -1 frames, having copied nothing: every background
        // pass was a no-op, and the writer's turn copied the whole log while writes waited.
        _ = try connection.scalar("SELECT count(*) FROM sqlite_master")
        bounds = Bounds(pageSize: Int(try connection.scalar("PRAGMA page_size").int ?? 4_096))
    }

    /// Checkpoints run so far, background and writer passes together (tests, the shutdown log).
    var checkpointsRun: Int { completed.load(ordering: .acquiring) }

    /// Time the writer spent in its checkpoint turns, in all and the longest one: every write
    /// queued meanwhile waited that long (the shutdown log).
    var writerTurns: (totalNanoseconds: Int, longestNanoseconds: Int) {
        (writerNanoseconds.load(ordering: .relaxed), longestWriterNanoseconds.load(ordering: .relaxed))
    }

    /// Log frames copied into the database file by the background passes and by the writer's
    /// turns: the writer's share is what its callers waited for (tests, the shutdown log).
    var framesCopied: (background: Int, writer: Int) {
        (backgroundFrames.load(ordering: .relaxed), writerFrames.load(ordering: .relaxed))
    }

    /// Commits on the writer that wrote to the log, so far. SQLite calls the hook only for a
    /// commit that wrote pages — a transaction that changed nothing (a background worker's
    /// claim that found nothing due) writes none — and calls it inside `COMMIT`, before the
    /// writer's callers hear of it.
    var commitCount: Int { commitsWithFrames.load(ordering: .acquiring) }

    /// Installs the hook on the writer connection; `self` must outlive it (the `Database` holds both).
    func watch(_ writer: SQLiteConnection) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_wal_hook(
            writer.rawHandle,
            { context, _, _, frames in
                guard let context else { return SQLITE_OK }
                let checkpointer = Unmanaged<Checkpointer>.fromOpaque(context).takeUnretainedValue()
                checkpointer.commitsWithFrames.add(1, ordering: .releasing)
                checkpointer.logFrames.store(Int(frames), ordering: .relaxed)
                if frames >= checkpointer.bounds.threshold { checkpointer.schedule() }
                return SQLITE_OK
            }, context)
    }

    /// Starts a background passive checkpoint unless one is running or waits for the writer.
    func schedule() {
        guard !scheduled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.async { [self] in
            // A failed checkpoint only leaves the log longer; the next commit schedules another.
            var copied = 0
            for _ in 0..<Self.maxBackgroundPasses {
                guard let progress = try? connection.checkpoint() else { break }
                copied = max(copied, progress.copiedFrames)
                guard progress.logFrames - progress.copiedFrames > bounds.writerShare else { break }
            }
            // What an earlier, deferred round copied of this log is counted already.
            let counted = copiedByBackground.load(ordering: .relaxed)
            backgroundFrames.add(copied >= counted ? copied - counted : copied, ordering: .relaxed) // smaller: a new log
            copiedByBackground.store(copied, ordering: .relaxed)
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
        let log = logFrames.load(ordering: .relaxed)
        if Self.writerDefers(left: log - copiedByBackground.load(ordering: .relaxed), log: log, bounds: bounds) {
            // A burst outran the background (large uploads filling the journal): what it left,
            // and what the writer appended since, took the writer up to 88 ms to copy, and a
            // request answered meanwhile waited on the journal's backlog. Another background
            // round goes on from where this one stopped; the log grows meanwhile, up to
            // `maximumDeferredLog`.
            deferredTurns.add(1, ordering: .relaxed)
            scheduled.store(false, ordering: .releasing)
            schedule()
            return
        }
        let started = DispatchTime.now().uptimeNanoseconds
        // Without syncing: even a few frames' `fdatasync` waited 100–500 ms behind the disk's other
        // writeback here, and every write waited with it. The background passes synced the rest;
        // the next one syncs these pages too (see the type's note on power cuts).
        _ = try? writer.execute("PRAGMA synchronous = OFF")
        // As above: a failure leaves the log longer, nothing else. SQLite counts the frames copied
        // from this log in all, the background's included.
        if let progress = try? writer.checkpoint() {
            writerFrames.add(max(0, progress.copiedFrames - copiedByBackground.load(ordering: .relaxed)), ordering: .relaxed)
        }
        // The next log starts from nothing copied.
        copiedByBackground.store(0, ordering: .relaxed)
        _ = try? writer.execute("PRAGMA synchronous = NORMAL")
        let spent = Int(DispatchTime.now().uptimeNanoseconds - started)
        writerNanoseconds.add(spent, ordering: .relaxed)
        longestWriterNanoseconds.max(spent, ordering: .relaxed)
        completed.add(1, ordering: .releasing)
        scheduled.store(false, ordering: .releasing)
    }

    /// Whether the writer's turn should leave `left` uncopied frames of a `log`-frame log to
    /// another background round: when they are many and the log is still under its bound.
    static func writerDefers(left: Int, log: Int, bounds: Bounds = Bounds()) -> Bool {
        left > bounds.writerDeferral && log < bounds.maximumDeferredLog
    }

    /// Writer turns left to another background round (the shutdown log).
    var deferredWriterTurns: Int { deferredTurns.load(ordering: .relaxed) }

    /// Waits for a running background checkpoint (tests, shutdown).
    func drain() { queue.sync {} }
}
