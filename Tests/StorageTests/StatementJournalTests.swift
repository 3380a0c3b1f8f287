#if os(Linux)
import Foundation
import Testing
@testable import Storage

/// `SQLiteDatabase(statementJournalsInMemory:)`: past 64 KiB SQLite moves a statement or savepoint
/// journal to a temporary file, which the journal's writer did tens of times a second.
///
/// `/proc/self/fd` is the whole process's: a test running alongside in another suite can have a
/// temporary file of its own open at that moment. Others can only add to the count, so the
/// in-memory check takes the least of several rewrites; serialized, this suite's own default
/// rewrite never overlaps it.
@Suite("Statement journals in memory", .serialized)
struct StatementJournalTests {
    /// The temporary files SQLite has open in this process (it unlinks each as it opens it, so
    /// only `/proc/self/fd` still names them).
    private static func openTemporaryFiles() -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) ?? "").contains("etilqs_") }.count
    }

    /// Rewrites a megabyte of rows inside a savepoint of a write transaction, as a group commit
    /// runs each of its writes, and returns how many temporary files were open meanwhile.
    private static func temporaryFilesDuringRewrite(inMemory: Bool) throws -> Int {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statement-journal-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase(path: folder.appendingPathComponent("db.sqlite").path, readerCount: 1, statementJournalsInMemory: inMemory)
        return try database.withWriterBlocking { connection in
            try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
            try connection.execute("BEGIN")
            for id in 0..<1_000 { _ = try connection.run("INSERT INTO t (id, payload) VALUES (?, zeroblob(1000))", bindings: [id]) }
            try connection.execute("COMMIT")
            try connection.execute("BEGIN IMMEDIATE")
            try connection.execute("SAVEPOINT batch_write")
            _ = try connection.run("UPDATE t SET payload = zeroblob(1001)", bindings: [])
            let open = openTemporaryFiles()
            try connection.execute("RELEASE batch_write")
            try connection.execute("COMMIT")
            #expect(try connection.scalar("SELECT sum(length(payload)) FROM t").int == 1_001_000)
            return open
        }
    }

    @Test("in memory, a savepoint that changed a megabyte opened no temporary file")
    func inMemory() throws {
        let counts = try (0..<5).map { _ in try Self.temporaryFilesDuringRewrite(inMemory: true) }
        #expect(counts.min() == 0, "temporary files open during each rewrite: \(counts)")
    }

    @Test("by default it spills to one, as SQLite does (the check above can see such a file)")
    func byDefault() throws {
        #expect(try Self.temporaryFilesDuringRewrite(inMemory: false) >= 1)
    }
}
#endif
