import Dispatch
import Foundation
import Synchronization
import Testing

@testable import Storage

private func freshDatabase(currentTurn: (@Sendable () -> WriteTurn?)? = nil) throws -> SQLiteDatabase {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("group-commit-\(UUID().uuidString)/db.sqlite").path
    let database = try SQLiteDatabase(path: path, currentTurn: currentTurn)
    try database.withWriterBlocking { try $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL, payload BLOB)") }
    return database
}

private struct Refused: Error {}

/// Collects completion results from the writer queue.
private final class Results: Sendable {
    let errors = Mutex<[Int: String]>([:])
    let done = DispatchGroup()
}

/// Runs `body` on a thread of its own: these tests block on semaphores, which must never happen on
/// the cooperative pool the other suites share (two threads on this machine).
private func onOwnThread(_ body: @escaping @Sendable () throws -> Void) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// The calling thread, as a number that compares on Linux and Darwin alike.
private func currentThreadID() -> UInt {
    #if canImport(Glibc)
    UInt(pthread_self())
    #else
    UInt(bitPattern: pthread_self())
    #endif
}

/// A serial queue that takes turns the way an event loop does: tasks that prefer it run their jobs
/// on it in order, and work handed to its turn's `atEnd` runs after what is queued before it.
private final class TurnQueue: TaskExecutor, @unchecked Sendable { // immutable after init
    let queue = DispatchQueue(label: "group-commit-tests.turns")
    private let key = DispatchSpecificKey<Bool>()
    private let othersMayWrite: Bool

    init(othersMayWrite: Bool = true) {
        self.othersMayWrite = othersMayWrite
        queue.setSpecific(key: key, value: true)
    }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// The turn under way when the caller runs on the queue.
    var turn: WriteTurn? {
        guard isCurrent else { return nil }
        return WriteTurn(owner: ObjectIdentifier(self), othersMayWrite: othersMayWrite, atEnd: { [queue] work in queue.async(execute: work) })
    }

    /// Starts `count` tasks that prefer the queue from inside one of its blocks, so that all of
    /// them are queued before the first runs: they make up one turn.
    func startTogether<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) async throws -> T) async -> [Task<T, any Error>] {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: (0..<count).map { index in Task(executorPreference: self) { try await body(index) } }) }
        }
    }
}

@Suite("Group commit")
struct GroupCommitTests {
    @Test("the change count moves with every write that changed a page, before its writer hears back; not with reads or empty writes")
    func changeCount() async throws {
        let database = try freshDatabase()
        let start = try #require(database.localChangeCount)
        try await database.read { _ = try $0.query("SELECT * FROM t") }
        #expect(database.localChangeCount == start)
        try await database.write { try $0.run("INSERT INTO t (name) VALUES ('a')") }
        #expect(database.localChangeCount == start + 1)
        let countInCompletion = Mutex<Int?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            database.enqueueWrite(
                { try $0.run("INSERT INTO t (name) VALUES ('b')") },
                completion: { _ in
                    countInCompletion.withLock { $0 = database.localChangeCount }
                    continuation.resume()
                })
        }
        #expect(countInCompletion.withLock { $0 } == start + 2, "moved before the writer's caller heard of the commit")
        await #expect(throws: Refused.self) {
            try await database.write { connection in
                try connection.run("INSERT INTO t (name) VALUES ('rolled back')")
                throw Refused()
            }
        }
        try await database.write {
            _ = try $0.query("SELECT * FROM t"); _ = try $0.run("UPDATE t SET name = 'x' WHERE id < 0")
        }
        #expect(database.localChangeCount == start + 2, "a rolled-back write and a write that changed no row leave it")
        try await database.write { try $0.execute("CREATE TABLE u (id INTEGER PRIMARY KEY)") }
        #expect(database.localChangeCount == start + 3, "schema changes count")
        try database.withWriterBlocking { _ = try $0.query("SELECT 1") }
        #expect(try #require(database.localChangeCount) > start + 3, "a block on the writer outside a transaction counts whatever it did")
    }

    /// Holds the writer on a write that waits, so that everything queued meanwhile is provably
    /// pending at once; returns the release.
    private func holdWriter(_ database: any Database) -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        database.enqueueWrite(
            { _ in
                started.signal()
                release.wait()
            }, completion: { _ in })
        started.wait()
        return release
    }

    @Test("writes queued while the writer is busy commit in one transaction, and a failing one rolls back alone")
    func batching() async throws {
        try await onOwnThread {
            let database = try freshDatabase()
            let release = holdWriter(database)
            let before = database.groupCommitCounts
            let results = Results()
            for index in 0..<50 {
                results.done.enter()
                database.enqueueWrite(
                    { connection in
                        try connection.run("INSERT INTO t (id, name) VALUES (?, ?)", index, "row \(index)")
                        if index % 5 == 0 { throw Refused() } // its insert must vanish, the others stay
                    },
                    completion: { error in
                        if let error { results.errors.withLock { $0[index] = String(describing: error) } }
                        results.done.leave()
                    })
            }
            release.signal()
            results.done.wait()
            let after = database.groupCommitCounts
            // The held write was counted when it started; all fifty then share one transaction.
            #expect(after.transactions - before.transactions == 1)
            #expect(after.writes - before.writes == 50)
            // What the metrics read, through the protocol, is the same count.
            let committed = (database as any Database).committedWrites
            #expect(committed?.writes == after.writes && committed?.transactions == after.transactions)
            let ids = try database.withWriterBlocking { try $0.query("SELECT id FROM t ORDER BY id").compactMap { $0.values.first?.int } }
            #expect(ids == (0..<50).filter { $0 % 5 != 0 })
            #expect(results.errors.withLock { Set($0.keys) } == Set((0..<50).filter { $0 % 5 == 0 }))
        }
    }

    @Test("a caller hears back only after the commit: what it wrote is visible to another connection")
    func acknowledgedAfterCommit() async throws {
        let database = try freshDatabase()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await database.write { try $0.run("INSERT INTO t (id, name) VALUES (?, ?)", index, "n") }
                    // A fresh connection sees only committed data.
                    let other = try SQLiteConnection(path: database.path)
                    return try other.scalar("SELECT count(*) FROM t WHERE id = ?", index).int ?? 0
                }
            }
            for try await seen in group { #expect(seen == 1) }
        }
    }

    @Test("a batched write may open its own nested transaction; an error inside it rolls back only that part")
    func nested() async throws {
        try await onOwnThread {
            let database = try freshDatabase()
            let release = holdWriter(database)
            let results = Results()
            results.done.enter()
            database.enqueueWrite(
                { connection in
                    try connection.run("INSERT INTO t (id, name) VALUES (1, 'outer')")
                    _ = try? connection.transaction { () throws -> Void in // the inner failure is the point of the test
                        try connection.run("INSERT INTO t (id, name) VALUES (2, 'inner')")
                        throw Refused()
                    }
                },
                completion: { error in
                    if let error { results.errors.withLock { $0[1] = String(describing: error) } }
                    results.done.leave()
                })
            results.done.enter()
            database.enqueueWrite(
                { try $0.run("INSERT INTO t (id, name) VALUES (3, 'other')") },
                completion: { error in
                    if let error { results.errors.withLock { $0[3] = String(describing: error) } }
                    results.done.leave()
                })
            release.signal()
            results.done.wait()
            #expect(results.errors.withLock { $0.isEmpty })
            let ids = try database.withWriterBlocking { try $0.query("SELECT id FROM t ORDER BY id").compactMap { $0.values.first?.int } }
            #expect(ids == [1, 3])
        }
    }

    @Test("a constraint failure in one write of a batch fails that caller only")
    func constraintInBatch() async throws {
        try await onOwnThread {
            let database = try freshDatabase()
            let release = holdWriter(database)
            let results = Results()
            for (slot, id) in [7, 7, 8].enumerated() {
                results.done.enter()
                database.enqueueWrite(
                    { try $0.run("INSERT INTO t (id, name) VALUES (?, 'x')", id) },
                    completion: { error in
                        if let error { results.errors.withLock { $0[slot] = String(describing: error) } }
                        results.done.leave()
                    })
            }
            release.signal()
            results.done.wait()
            #expect(results.errors.withLock { Array($0.keys) } == [1])
            let ids = try database.withWriterBlocking { try $0.query("SELECT id FROM t ORDER BY id").compactMap { $0.values.first?.int } }
            #expect(ids == [7, 8])
        }
    }

    @Test("the log is checkpointed in the background once it passes a thousand pages, and then starts over")
    func backgroundCheckpoint() async throws {
        let database = try freshDatabase()
        #expect(database.checkpointsRun == 0)
        let payload = Data(repeating: 0xAB, count: 8_000) // two pages a row
        for batch in 0..<6 {
            try await database.write { connection in
                for index in 0..<100 { try connection.run("INSERT INTO t (id, name, payload) VALUES (?, 'p', ?)", batch * 100 + index, payload) }
            }
        }
        await database.checkpointDrained()
        #expect(database.checkpointsRun >= 1)
        // The background pass did the copying, not the writer's turn: at least the thousand frames
        // that started it were in the log when it ran.
        #expect(database.checkpointFrames.background >= Int(Checkpointer.threshold))
        // The writer finishes the checkpoint after its next transaction; the one after restarts the log.
        // Callers resume at COMMIT, before the writer's between-transactions turn: wait for that turn
        // (a block queued on the writer runs after it) before reading the counter.
        try await database.write { try $0.run("INSERT INTO t (id, name) VALUES (1000, 'a')") }
        try database.withWriterBlocking { _ in }
        #expect(database.checkpointsRun >= 2)
        try await database.write { try $0.run("INSERT INTO t (id, name) VALUES (1001, 'b')") }
        let probe = try SQLiteConnection(path: database.path)
        let frames = try probe.query("PRAGMA wal_checkpoint(PASSIVE)").first?.values[1].int ?? -1
        // 1,200+ frames were written in all; depending on when the background pass finished, the
        // log started over after the fifth batch or after the write above, never not at all.
        #expect((0..<Int(Checkpointer.threshold)).contains(frames), "the log holds \(frames) frames; it should have started over")
        let count = try await database.read { try $0.scalar("SELECT count(*) FROM t").int }
        #expect(count == 602)
    }

    @Test("a file made with larger pages keeps them, and its checkpoint bounds stay the same in bytes")
    func largerPages() async throws {
        #expect(Checkpointer.Bounds().threshold == Checkpointer.threshold)
        #expect(Checkpointer.Bounds().maximumDeferredLog == Checkpointer.maximumDeferredLog)
        let sixteen = Checkpointer.Bounds(pageSize: 16_384)
        #expect(sixteen.threshold == 250 && sixteen.writerShare == 16 && sixteen.writerDeferral == 256 && sixteen.maximumDeferredLog == 8_192)
        #expect(!Checkpointer.writerDefers(left: 300, log: 1_000))
        #expect(Checkpointer.writerDefers(left: 300, log: 1_000, bounds: sixteen), "300 frames of 16 KiB are past the 4 MB left to the writer")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("page-size-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("db.sqlite").path
        let database = try SQLiteDatabase(path: path, pageSize: 16_384)
        try database.withWriterBlocking { try $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB)") }
        #expect(try SQLiteConnection(path: path).scalar("PRAGMA page_size").int == 16_384)
        #expect(database.checkpointBounds.threshold == 250)
        // 5 MB: past 250 frames of 16 KiB, far short of the 1,000 a 4 KiB file waits for.
        let payload = Data(repeating: 0xAB, count: 15_000)
        for batch in 0..<4 {
            try await database.write { connection in
                for index in 0..<80 { try connection.run("INSERT INTO t (id, payload) VALUES (?, ?)", batch * 80 + index, payload) }
            }
        }
        await database.checkpointDrained()
        #expect(database.checkpointsRun >= 1)
        #expect(database.checkpointFrames.background >= 250)

        // Opened again, and asked for other pages: a file that exists keeps its own.
        let again = try SQLiteDatabase(path: path, pageSize: 4_096)
        #expect(try await again.read { try $0.scalar("PRAGMA page_size").int } == 16_384)
        #expect(again.checkpointBounds.threshold == 250)
        let small = try freshDatabase()
        #expect(try await small.read { try $0.scalar("PRAGMA page_size").int } == 4_096)
        #expect(small.checkpointBounds.threshold == Checkpointer.threshold)
    }

    @Test("the writer leaves a large remainder to another background round, and copies it once the background caught up")
    func deferredWriterTurn() async throws {
        #expect(Checkpointer.writerDefers(left: Checkpointer.writerDeferral + 1, log: 5_000))
        #expect(!Checkpointer.writerDefers(left: Checkpointer.writerDeferral, log: 5_000), "a small remainder is the writer's")
        #expect(!Checkpointer.writerDefers(left: 30_000, log: Checkpointer.maximumDeferredLog), "past the bound the writer copies it all")

        let database = try freshDatabase()
        try await database.write { try $0.run("INSERT INTO t (id, name) VALUES (0, 'first')") }
        // A reader's snapshot stops every checkpoint at its frame, as a disk slower than a burst
        // of writes would: the background rounds leave almost the whole log over.
        let reader = try SQLiteConnection(path: database.path)
        try reader.execute("BEGIN")
        #expect(try reader.scalar("SELECT count(*) FROM t").int == 1)
        let payload = Data(repeating: 0xCD, count: 8_000) // two pages a row
        for batch in 0..<14 {
            try await database.write { connection in
                for index in 0..<100 { try connection.run("INSERT INTO t (id, name, payload) VALUES (?, 'p', ?)", 1 + batch * 100 + index, payload) }
            }
        }
        await database.checkpointDrained()
        try await database.write { try $0.run("INSERT INTO t (id, name) VALUES (5000, 'a')") }
        try database.withWriterBlocking { _ in }
        #expect(database.deferredWriterCheckpoints >= 1, "the writer copied a remainder of thousands of frames itself")
        #expect(database.checkpointWriterMilliseconds.total == 0)

        // Once nothing holds the background back, its round copies the log, and the writer's
        // turn after it has almost nothing left: the log starts over.
        try reader.execute("COMMIT")
        var frames = -1, attempts = 0
        while attempts < 20 {
            await database.checkpointDrained()
            let id = 6000 + attempts
            try await database.write { try $0.run("INSERT INTO t (id, name) VALUES (?, 'b')", id) }
            attempts += 1
            try database.withWriterBlocking { _ in }
            frames = try reader.query("PRAGMA wal_checkpoint(PASSIVE)").first?.values[1].int ?? -1
            if (0..<Int(Checkpointer.threshold)).contains(frames) { break }
        }
        #expect((0..<Int(Checkpointer.threshold)).contains(frames), "the log holds \(frames) frames; it should have started over")
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM t").int } == 1 + 1_400 + 1 + attempts)
    }

    @Test("a write to an idle writer runs on the caller's thread, committed before it returns; a busy writer queues it")
    func inlineWhenIdle() async throws {
        let database = try freshDatabase()
        // No suspension point between here and the body when the write runs inline.
        let caller = currentThreadID()
        let ranOn = try await database.write { connection -> UInt in
            try connection.run("INSERT INTO t (id, name) VALUES (1, 'inline')")
            return currentThreadID()
        }
        #expect(ranOn == caller)
        // Visible to a fresh connection at once: it was committed, not merely queued.
        let probe = try SQLiteConnection(path: database.path)
        let stored = try probe.scalar("SELECT name FROM t WHERE id = 1").string
        #expect(stored == "inline")

        try await onOwnThread {
            let release = holdWriter(database)
            let threads = Mutex<(caller: UInt, body: UInt)>((0, 0))
            let done = DispatchSemaphore(value: 0)
            Task {
                defer { done.signal() }
                let caller = currentThreadID()
                let body = try await database.write { connection -> UInt in
                    try connection.run("INSERT INTO t (id, name) VALUES (2, 'queued')")
                    return currentThreadID()
                }
                threads.withLock { $0 = (caller, body) }
            }
            while database.queuedWrites == 0 { Thread.sleep(forTimeInterval: 0.001) } // until the Task's write waits
            release.signal()
            done.wait()
            let seen = threads.withLock { $0 }
            #expect(seen.body != 0 && seen.body != seen.caller, "a write behind a busy writer runs on the writer queue")
        }
        let queued = try probe.scalar("SELECT name FROM t WHERE id = 2").string
        #expect(queued == "queued")
    }

    @Test("blocking writer work waits for a running batch instead of sharing the connection")
    func exclusiveWaitsForBatch() async throws {
        try await onOwnThread {
            let database = try freshDatabase()
            let release = holdWriter(database)
            let order = Mutex<[String]>([])
            let exclusive = Thread {
                _ = try? database.withWriterBlocking { _ in order.withLock { $0.append("exclusive") } }
            }
            exclusive.start()
            while database.exclusiveWaitCount == 0 { Thread.sleep(forTimeInterval: 0.001) } // it found the writer held
            order.withLock { $0.append("released") }
            release.signal()
            while order.withLock({ $0.count }) < 2 { Thread.sleep(forTimeInterval: 0.001) }
            #expect(order.withLock { $0 } == ["released", "exclusive"])
        }
    }

    @Test("the writes of one turn commit together when it ends, on the turn's own thread; one failing rolls back alone")
    func turnWritesShareTransaction() async throws {
        let turns = TurnQueue()
        let database = try freshDatabase(currentTurn: { turns.turn })
        let probe = try SQLiteConnection(path: database.path)
        let before = database.groupCommitCounts
        let tasks = await turns.startTogether(8) { index -> Bool in
            try await database.write { connection -> Bool in
                try connection.run("INSERT INTO t (id, name) VALUES (?, ?)", index, "row \(index)")
                if index == 3 { throw Refused() }
                return turns.isCurrent
            }
        }
        var ranOnTurnQueue: [Bool] = []
        for (index, task) in tasks.enumerated() {
            do {
                ranOnTurnQueue.append(try await task.value)
                // Answered only after the commit: another connection sees the row.
                #expect(try probe.scalar("SELECT count(*) FROM t WHERE id = ?", index).int == 1)
            } catch {
                #expect(index == 3 && error is Refused)
            }
        }
        #expect(ranOnTurnQueue == Array(repeating: true, count: 7))
        let after = database.groupCommitCounts
        #expect(after.transactions - before.transactions == 1)
        #expect(after.writes - before.writes == 8)
        let ids = try probe.query("SELECT id FROM t ORDER BY id").compactMap { $0.values.first?.int }
        #expect(ids == [0, 1, 2, 4, 5, 6, 7])
    }

    @Test("a write made when nothing else of its turn is left to run commits at once, in a transaction of its own")
    func loneTurnWriteRunsAtOnce() async throws {
        let turns = TurnQueue(othersMayWrite: false)
        let database = try freshDatabase(currentTurn: { turns.turn })
        let before = database.groupCommitCounts
        let tasks = await turns.startTogether(3) { index in
            try await database.write { try $0.run("INSERT INTO t (id, name) VALUES (?, 'alone')", index) }
        }
        for task in tasks { _ = try await task.value }
        let after = database.groupCommitCounts
        #expect(after.transactions - before.transactions == 3)
        #expect(after.writes - before.writes == 3)
    }

    @Test("a turn's writes that find the writer busy go with its next batch, on the writer queue")
    func turnWritesBehindBusyWriter() async throws {
        let turns = TurnQueue()
        let database = try freshDatabase(currentTurn: { turns.turn })
        let started = database.groupCommitCounts
        let release = DispatchSemaphore(value: 0)
        try await onOwnThread {
            let holding = DispatchSemaphore(value: 0)
            database.enqueueWrite(
                { _ in
                    holding.signal(); release.wait()
                }, completion: { _ in })
            holding.wait()
        }
        let tasks = await turns.startTogether(4) { index -> Bool in
            try await database.write { connection -> Bool in
                try connection.run("INSERT INTO t (id, name) VALUES (?, 'behind')", index)
                return turns.isCurrent
            }
        }
        try await onOwnThread {
            while database.queuedWrites < 4 { Thread.sleep(forTimeInterval: 0.001) }
            turns.queue.sync {} // the turn has ended: it found the writer busy and left its writes queued
            #expect(database.queuedWrites == 4)
            release.signal()
        }
        for task in tasks { #expect(try await task.value == false, "ran on the writer queue") }
        let after = database.groupCommitCounts
        #expect(after.transactions - started.transactions == 2, "the held write's, then one for the turn's four")
        #expect(after.writes - started.writes == 5)
    }
}

extension SQLiteDatabase {
    /// `waitForCheckpoint()` off the cooperative pool: a checkpoint's sync can take seconds on a
    /// loaded disk, and a blocked pool thread (there are as many as cores) stalls every other test
    /// in the process meanwhile; two of these once held a 2-core run's async tests for 23 s.
    func checkpointDrained() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "tests.checkpoint-drain").async {
                self.waitForCheckpoint()
                continuation.resume()
            }
        }
    }
}
