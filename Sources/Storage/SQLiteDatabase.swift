import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A SQLite database file in WAL mode: one writer connection on its own serial queue, and a small
/// pool of reader connections, each on its own queue.
///
/// WAL lets readers run while the writer writes. Short work runs on the caller's thread: reads on
/// a connection of that thread's own, and a write when the writer is idle (see `write`). Anything
/// that can take long — contended writes, checkpoints, pooled reads — runs on these dedicated
/// queues, never on Swift's cooperative pool or Dispatch's global queues.
public final class SQLiteDatabase: Database {
    private final class Lane: @unchecked Sendable { // `connection` is only used on `queue`
        let queue: DispatchQueue
        let connection: SQLiteConnection
        init(label: String, connection: SQLiteConnection) {
            self.queue = DispatchQueue(label: label)
            self.connection = connection
        }
    }

    /// The database file.
    public let path: String
    /// The database file.
    public var location: String { path }
    /// SQLite's.
    public var dialect: SQLDialect { .sqlite }
    private let writer: Lane
    private let commits: GroupCommit
    private let checkpointer: Checkpointer
    private let readers: [Lane]
    private let nextReader = Atomic<Int>(0)
    private let currentTurn: (@Sendable () -> WriteTurn?)?
    /// Reader connections owned by the threads that asked for them (see `read`).
    private let threadReaders = Mutex<[UInt: ThreadReader]>([:])

    /// A reader connection used only by the thread it was made for.
    private final class ThreadReader: @unchecked Sendable { // confined to its owning thread
        let connection: SQLiteConnection
        init(connection: SQLiteConnection) { self.connection = connection }
    }

    /// The writer connection's page cache, in KiB (SQLite's default is 2,000). A 20 ms batch of
    /// 30 KB journalled uploads, with the eviction of as many older ones (whose overflow pages it
    /// reads to free them), touched more pages than 2 MB hold: SQLite then spilled dirty pages
    /// into the log mid-transaction, a seventh of the journal writer's time, and wrote them again
    /// at commit. The cache grows only as far as a transaction needs.
    static let writerCacheKiB = 16 * 1024

    // Allocated only by this module: cross-module optimization mis-laid-out classes holding
    // Atomic/Mutex storage when another module allocated or accessed them (heap corruption in
    // release builds). This attribute, on every public initializer of such a class, keeps release
    // builds correct with the default optimization settings (docs/notes/release-heap-corruption.md).
    /// Opens (creating it and its folder if needed) the database at `path`; `currentTurn` names
    /// the turn a write is made in, when its caller works in turns (see `WriteTurn`); `pageSize`
    /// is the page size of a file this creates (a file that exists keeps its own);
    /// `statementJournalsInMemory` keeps the writer's statement and savepoint journals in memory
    /// however large they grow (for a database whose writes are bounded, see `docs/architecture.md`).
    @inline(never)
    public init(
        path: String, readerCount: Int = 3, currentTurn: (@Sendable () -> WriteTurn?)? = nil, pageSize: Int? = nil,
        statementJournalsInMemory: Bool = false
    ) throws {
        self.path = path
        self.currentTurn = currentTurn
        let folder = (path as NSString).deletingLastPathComponent
        // A folder that cannot be made surfaces as sqlite3_open's own, clearer error just below.
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let writerConnection = try SQLiteConnection(path: path)
        // Only a file with no page written yet takes it: before WAL mode writes the first one.
        if let pageSize { try writerConnection.execute("PRAGMA page_size = \(pageSize)") }
        // WAL: readers never block the writer; NORMAL sync is durable across app crashes, which is
        // what a test emulator needs, at a fraction of FULL's fsyncs.
        let mode = try writerConnection.scalar("PRAGMA journal_mode = WAL").string ?? ""
        guard mode.lowercased() == "wal" else {
            throw SQLiteError(code: -1, message: "could not switch \(path) to WAL mode (got \(mode))")
        }
        try writerConnection.execute("PRAGMA synchronous = NORMAL")
        try writerConnection.execute("PRAGMA cache_size = -\(Self.writerCacheKiB)")
        // Debian builds SQLite with secure_delete on: every freed page is zeroed and so written to
        // the log. Evicting a journalled 30 KB upload then wrote its eight overflow pages again,
        // a seventh of an upload's CPU. FAST still zeroes what it deletes from pages it writes
        // anyway, and makes every platform's build behave alike.
        try writerConnection.execute("PRAGMA secure_delete = FAST")
        // SQLite moves a statement or savepoint journal to a file in /var/tmp past 64 KiB (its
        // SQLITE_CONFIG_STMTJRNL_SPILL; Debian's 3.40.1 fails the spill with "database or disk is
        // full" at any other setting, so that bound cannot simply be raised).
        if statementJournalsInMemory { try writerConnection.execute("PRAGMA temp_store = MEMORY") }
        writer = Lane(label: "understudy.sqlite.writer", connection: writerConnection)
        let checkpointer = try Checkpointer(path: path)
        checkpointer.watch(writerConnection)
        self.checkpointer = checkpointer
        commits = GroupCommit(
            queue: writer.queue, connection: writerConnection,
            betweenBatches: { checkpointer.writerIsIdle($0) }, turnIsDue: { checkpointer.writerTurnIsDue })
        var readers: [Lane] = []
        for index in 0..<max(1, readerCount) {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA query_only = 1")
            readers.append(Lane(label: "understudy.sqlite.reader.\(index)", connection: connection))
        }
        self.readers = readers
    }

    /// Runs `body` on the writer connection inside a write transaction — shared with the other
    /// writes queued at the same time (group commit), each in its own savepoint — and returns once
    /// that transaction committed. If `body` throws, only its own changes are rolled back.
    ///
    /// When the writer is idle the write runs right here, on the caller's thread (no hop, same
    /// commit-before-return guarantee); only contended writes wait for the writer queue. A write
    /// made in a turn with more work still to run waits for the turn's end and commits with the
    /// turn's other writes, on the caller's thread too (see `WriteTurn`).
    @discardableResult
    public func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        if let turn = currentTurn?(), turn.othersMayWrite {
            return try await withCheckedThrowingContinuation { continuation in
                commits.stage(job(body, settled: { continuation.resume(with: $0) }), turn: turn)
            }
        }
        let inline = InlineResult<T>()
        if commits.runInline(job(body, settled: { inline.value = $0 })) {
            // `run` settles every job it is given (value, error or rejection) before returning.
            guard let value = inline.value else { throw SQLiteError(code: -1, message: "an inline write settled no outcome") }
            return try value.get()
        }
        return try await withCheckedThrowingContinuation { continuation in
            submit(body) { continuation.resume(with: $0) }
        }
    }

    /// Where an inline write's outcome lands: set and read on the same thread, inside `runInline`.
    private final class InlineResult<T: Sendable>: @unchecked Sendable {
        var value: Result<T, any Error>?
    }

    /// Queues `body` as a write and returns at once; `completion` runs on the writer queue when
    /// its transaction committed or rolled back. Writes queued this way (or by `write`) run in the
    /// order queued, which lets a caller make "everything queued before this point" visible before
    /// reading.
    public func enqueueWrite(
        _ body: @escaping @Sendable (any StoreConnection) throws -> Void,
        completion: @escaping @Sendable ((any Error)?) -> Void
    ) {
        submit(body) { result in
            if case .failure(let error) = result { completion(error) } else { completion(nil) }
        }
    }

    /// Hands `body` to the group commit; `settled` hears its value once the transaction holding
    /// it committed, or its own error, or the commit's.
    private func submit<T: Sendable>(
        _ body: @escaping @Sendable (any StoreConnection) throws -> T,
        settled: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        commits.submit(job(body, settled: settled))
    }

    private func job<T: Sendable>(
        _ body: @escaping @Sendable (any StoreConnection) throws -> T,
        settled: @escaping @Sendable (Result<T, any Error>) -> Void
    ) -> GroupCommit.Job {
        GroupCommit.Job(
            perform: { connection in
                do {
                    let value = try body(connection)
                    return GroupCommit.Outcome(failed: false) { commitError in settled(commitError.map { .failure($0) } ?? .success(value)) }
                } catch {
                    return GroupCommit.Outcome(failed: true) { _ in settled(.failure(error)) }
                }
            }, reject: { settled(.failure($0)) })
    }

    /// Writes and transactions of the group commit (see `Database.committedWrites`).
    public var committedWrites: (writes: Int, transactions: Int)? {
        let counts = groupCommitCounts
        return (counts.writes, counts.transactions)
    }

    /// Transactions committed and writes run through them so far (tests; the ratio is the batching).
    public var groupCommitCounts: (transactions: Int, writes: Int) {
        let counts = commits.counts
        return (counts.batches, counts.jobs)
    }

    /// Writes waiting for the writer queue (tests).
    var queuedWrites: Int { commits.queuedJobs }

    /// Blocking writer work that waited for a running batch (tests).
    var exclusiveWaitCount: Int { commits.exclusiveWaitCount }

    /// Background WAL checkpoints run so far (tests).
    public var checkpointsRun: Int { checkpointer.checkpointsRun }

    /// Milliseconds the writer spent finishing checkpoints, in all and the longest turn (the shutdown log).
    public var checkpointWriterMilliseconds: (total: Double, longest: Double) {
        let turns = checkpointer.writerTurns
        return (Double(turns.totalNanoseconds) / 1e6, Double(turns.longestNanoseconds) / 1e6)
    }

    /// Log frames checkpoints copied into the database file, by background passes and by the
    /// writer's turns (tests, the shutdown log).
    public var checkpointFrames: (background: Int, writer: Int) { checkpointer.framesCopied }
    /// Writer checkpoint turns left to another background round because a burst outran the disk.
    public var deferredWriterCheckpoints: Int { checkpointer.deferredWriterTurns }

    /// Returns once a background checkpoint already started has finished (tests).
    func waitForCheckpoint() { checkpointer.drain() }

    /// The checkpoint bounds of this file's page size (tests).
    var checkpointBounds: Checkpointer.Bounds { checkpointer.bounds }

    /// Runs `body` on a reader connection (a consistent snapshot for the duration of `body`),
    /// on the calling thread, with a reader connection that belongs to that thread.
    ///
    /// Reads run inline because, in WAL mode, a read never waits for the writer and typically
    /// takes microseconds: hopping to a reader queue and back cost two thread wake-ups per read,
    /// the largest part of a platform request in profiles. Each thread that reads gets one
    /// connection (the server's event loops and a few pool threads), made on first use.
    @discardableResult
    public func read<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        let connection = try threadReader()
        return try connection.transaction(immediate: false) { try body(connection) }
    }

    private func threadReader() throws -> SQLiteConnection {
        #if canImport(Glibc)
        let thread = UInt(pthread_self())
        #else
        let thread = UInt(bitPattern: pthread_self()) // a pointer on Darwin
        #endif
        if let existing = threadReaders.withLock({ $0[thread] }) { return existing.connection }
        let connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA query_only = 1")
        threadReaders.withLock { $0[thread] = ThreadReader(connection: connection) }
        return connection
    }

    /// Runs `body` on one of the pooled reader connections, on that connection's own queue: for
    /// long reads (exports, large journal pages) that should not occupy the caller's thread.
    @discardableResult
    public func readOnPool<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T {
        let lane = readers[nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % readers.count]
        return try await withCheckedThrowingContinuation { continuation in
            lane.queue.async {
                continuation.resume(with: Result { try lane.connection.transaction(immediate: false) { try body(lane.connection) } })
            }
        }
    }

    /// A SQLite file belongs to this instance alone.
    public var isShared: Bool { false }

    /// Commits that wrote to the log, plus blocks run on the writer outside a transaction:
    /// every write goes through this process's one writer, and a transaction that changed no
    /// page (a background worker's claim that found nothing due) leaves the count where it was.
    public var localChangeCount: Int? { checkpointer.commitCount + commits.exclusiveRunCount }

    /// Nil: this server numbers its own requests.
    public func nextSharedRequestID() -> Int? { nil }

    /// Nothing is announced on a database no other instance shares.
    public func observeAnnouncements(_ handler: @escaping @Sendable (String) -> Void) {}

    /// Size in bytes of the database file plus its `-wal` file (0 for what does not exist).
    public func storedBytes() -> Int {
        [path, path + "-wal"].reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)??.intValue ?? 0)
        }
    }

    /// Runs `body` on the writer connection without an implicit transaction, blocking the caller.
    /// For startup work (migrations) and tests, never from a request handler.
    public func withWriterBlocking<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try commits.exclusively { try body($0) }
    }
}
