import Foundation
import Storage
import Testing

/// `writeQueued` is for writes too long to run on the caller's thread (a bundle import asked for
/// by an event loop): it must never run inline, where `write` does when the writer is idle.
@Suite("Queued writes")
struct QueuedWriteTests {
    /// The calling thread, as a number that compares on Linux and Darwin alike.
    private static func threadID() -> UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    @Test("with the writer idle, `write` runs on the caller's thread and `writeQueued` on the writer's; both commit")
    func neverInline() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("queued-write-\(UUID().uuidString)/db.sqlite").path
        let database = try SQLiteDatabase(path: path)
        try database.withWriterBlocking { try $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        // No suspension happens before an inline write's body runs, so the thread is still the caller's.
        let caller = Self.threadID()
        let inline = try await database.write { connection -> UInt in
            try connection.run("INSERT INTO t (id) VALUES (1)")
            return Self.threadID()
        }
        #expect(inline == caller)
        let queuedCaller = Self.threadID()
        let queued = try await database.writeQueued { connection -> UInt in
            try connection.run("INSERT INTO t (id) VALUES (2)")
            return Self.threadID()
        }
        #expect(queued != queuedCaller)
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM t").int } == 2)
        // A failing body rolls back and its error reaches the caller.
        await #expect(throws: SQLiteError.self) {
            try await database.writeQueued { try $0.run("INSERT INTO t (id) VALUES (2)") }
        }
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM t").int } == 2)
    }
}
