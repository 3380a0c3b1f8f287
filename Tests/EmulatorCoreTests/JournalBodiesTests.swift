import Foundation
import HTTPServer
import Storage
import Testing

@testable import EmulatorCore

@Suite("Journal shared bodies")
struct JournalBodiesTests {
    /// A journal on a fresh SQLite file migrated as the server migrates its journal file.
    private static func journal(_ limits: JournalLimits = JournalLimits()) throws -> (Journal, SQLiteDatabase, cleanup: () -> Void) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-bodies-\(UUID().uuidString).sqlite").path
        let database = try SQLiteDatabase(path: path)
        let migrations = Migrator.journalDirectory(inside: try Migrator.locateDirectory(configured: nil))
        try database.withWriterBlocking { _ = try Migrator(directory: migrations).migrate($0) }
        return (
            try Journal(database: database, limits: limits), database,
            {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        )
    }

    private static func exchange(id: Int, project: ProjectID, requestBody: Data = Data(), responseBody: Data) -> Journal.Exchange {
        var request = Request(method: .post, target: "/telematics/api/v1/trips")
        request.body = requestBody
        return Journal.Exchange(
            id: id, time: Date(), projectID: project, platform: "telematics", path: "/telematics/api/v1/trips",
            route: "/telematics/api/v1/trips", request: request, status: 200, responseHeaders: HTTPHeaders(),
            responseBody: responseBody, durationMs: 1, fault: nil)
    }

    /// A JSON body of about `bytes` bytes, different for each `seed`.
    private static func body(_ seed: Int, bytes: Int = 4_000) -> Data {
        Data(("{\"seed\":\(seed),\"trips\":\"" + String(repeating: "x", count: bytes) + "\"}").utf8)
    }

    private static func scalar(_ database: SQLiteDatabase, _ sql: String) throws -> Int {
        try database.withWriterBlocking { try $0.scalar(sql).int ?? -1 }
    }

    @Test("a large body answered again and again is stored once, and every entry reads it back whole")
    func repeatedBodyStoredOnce() async throws {
        let (journal, database, cleanup) = try Self.journal()
        defer { cleanup() }
        let trips = Self.body(1), upload = Self.body(2, bytes: 30_000)
        for id in 1...20 { await journal.record(Self.exchange(id: id, project: "prj_a", requestBody: upload, responseBody: trips)) }
        await journal.record(Self.exchange(id: 21, project: "prj_a", responseBody: Data("{\"small\":true}".utf8)))
        let page = try await journal.query(project: "prj_a", filter: JournalFilter(limit: 100))
        #expect(page.entries.count == 21)
        #expect(page.entries.dropFirst().allSatisfy { $0.responseBody == String(decoding: trips, as: UTF8.self) })
        #expect(page.entries.dropFirst().allSatisfy { $0.requestBody == String(decoding: upload, as: UTF8.self) })
        #expect(page.entries.first?.responseBody == "{\"small\":true}")
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal_bodies") == 2)
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal WHERE response_body IS NULL AND response_body_ref IS NOT NULL") == 20)
        // A body under the sharing threshold stays in its entry.
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal WHERE id = 21 AND response_body IS NOT NULL AND response_body_ref IS NULL") == 1)
        // The byte bound counts each shared body once, as it is stored.
        #expect(journal.storedTotals.bytes >= trips.count + upload.count)
        #expect(journal.storedTotals.bytes < 2 * (trips.count + upload.count))
    }

    @Test("a byte bound counts a shared body once: entries naming it are not evicted for its size")
    func byteBoundCountsSharedBodyOnce() async throws {
        // 40 entries naming one 30 KB body: 1.2 MB counted in full, about 40 KB counted once.
        let (journal, database, cleanup) = try Self.journal(JournalLimits(maxBytes: 200_000))
        defer { cleanup() }
        let upload = Self.body(3, bytes: 30_000)
        for id in 1...40 { await journal.record(Self.exchange(id: id, project: "prj_a", requestBody: upload, responseBody: Data("{}".utf8))) }
        try await journal.flush()
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal") == 40)
        #expect(journal.evictedSinceStart == 0)
        // Bodies that differ are each counted: the bound holds the newest few of them.
        for id in 41...60 { await journal.record(Self.exchange(id: id, project: "prj_a", requestBody: Self.body(id, bytes: 30_000), responseBody: Data("{}".utf8))) }
        try await journal.flush()
        #expect(journal.storedTotals.bytes <= 200_000)
        // Down to 99% of the bound, each entry expected to free its own body: six of them stay,
        // not none (evicting by the entries' own bytes alone went through all of them).
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal") == 6)

        // A journal opened on the same file evicts rows it did not write by reading the table,
        // and expects each body back with the first entry that names it there too.
        let reopened = try Journal(database: database, limits: JournalLimits(maxBytes: 200_000))
        for id in 61...64 { await reopened.record(Self.exchange(id: id, project: "prj_a", requestBody: Self.body(id, bytes: 30_000), responseBody: Data("{}".utf8))) }
        try await reopened.flush()
        #expect(reopened.storedTotals.bytes <= 200_000)
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal") == 6)
        #expect(try Self.scalar(database, "SELECT min(id) FROM journal") == 59)
    }

    @Test("the counted bytes stay what the tables hold, through evictions and clears, as a reopened journal counts them")
    func countedBytesMatchTables() async throws {
        let (journal, database, cleanup) = try Self.journal(JournalLimits(maxEntries: 12))
        defer { cleanup() }
        let shared = Self.body(5, bytes: 8_000)
        for id in 1...30 {
            let response = id % 3 == 0 ? Self.body(id, bytes: 2_000) : id % 3 == 1 ? shared : Data("{\"n\":\(id)}".utf8)
            await journal.record(Self.exchange(id: id, project: id % 2 == 0 ? "prj_a" : "prj_b", responseBody: response))
            if id % 7 == 0 { try await journal.flush() }
        }
        try await journal.flush()
        try await journal.clear(project: "prj_a")
        let held = try Self.scalar(database, "SELECT (SELECT coalesce(sum(stored_bytes), 0) FROM journal) + (SELECT coalesce(sum(stored_bytes), 0) FROM journal_bodies)")
        #expect(journal.storedTotals.bytes == held)
        #expect(try Journal(database: database, limits: JournalLimits(maxEntries: 12)).storedTotals.bytes == held)
        // No body outlives the entries that named it.
        #expect(
            try Self.scalar(
                database,
                """
                SELECT count(*) FROM journal_bodies WHERE id NOT IN (SELECT request_body_ref FROM journal WHERE request_body_ref IS NOT NULL)
                    AND id NOT IN (SELECT response_body_ref FROM journal WHERE response_body_ref IS NOT NULL)
                """) == 0)
    }

    @Test("a body goes with the last entry that names it, by eviction and by clearing a project")
    func bodiesCollected() async throws {
        let (journal, database, cleanup) = try Self.journal(JournalLimits(maxEntries: 10))
        defer { cleanup() }
        let shared = Self.body(7)
        // 1–5: prj_a, all naming `shared`; 6–9 prj_b naming it too, and 10 with a body of its own.
        for id in 1...5 { await journal.record(Self.exchange(id: id, project: "prj_a", responseBody: shared)) }
        for id in 6...9 { await journal.record(Self.exchange(id: id, project: "prj_b", responseBody: shared)) }
        await journal.record(Self.exchange(id: 10, project: "prj_b", responseBody: Self.body(8)))
        try await journal.flush()
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal_bodies") == 2)

        // Clearing prj_a leaves `shared`: prj_b's entries still name it.
        try await journal.clear(project: "prj_a")
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal_bodies") == 2)
        let kept = try await journal.query(project: "prj_b", filter: JournalFilter())
        #expect(kept.entries.count == 5)
        #expect(kept.entries.last?.responseBody == String(decoding: shared, as: UTF8.self))

        // Ten entries of fresh bodies push the total to 15: down to 9 the oldest go, 6–11, and
        // `shared` with the last of them.
        for id in 11...20 { await journal.record(Self.exchange(id: id, project: "prj_b", responseBody: Self.body(id))) }
        try await journal.flush()
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal WHERE response_body_ref = 1") == 0)
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal_bodies WHERE id = 1") == 0)
        #expect(
            try Self.scalar(database, "SELECT count(*) FROM journal_bodies")
                == (try Self.scalar(
                    database,
                    """
                    SELECT count(DISTINCT response_body_ref) FROM journal
                    """)))

        // The same bytes arriving again after their body went are stored anew, not named by a dead id.
        await journal.record(Self.exchange(id: 21, project: "prj_b", responseBody: shared))
        let again = try await journal.query(project: "prj_b", filter: JournalFilter(limit: 1))
        #expect(again.entries.first?.responseBody == String(decoding: shared, as: UTF8.self))

        try await journal.clear(project: "prj_b")
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal_bodies") == 0)
    }

    @Test("a body that is not UTF-8 is stored as its bytes and reads back as base64, as an older base64 text does")
    func binaryStoredRaw() async throws {
        let (journal, database, cleanup) = try Self.journal()
        defer { cleanup() }
        let upload = Data((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 0x80) }), small = Data([0xff, 0x00, 0x01])
        await journal.record(Self.exchange(id: 1, project: "prj_a", requestBody: upload, responseBody: small))
        await journal.record(Self.exchange(id: 2, project: "prj_a", responseBody: Data("{\"ok\":true}".utf8)))
        let page = try await journal.query(project: "prj_a", filter: JournalFilter(limit: 10))
        let binary = try #require(page.entries.last)
        #expect(binary.requestBody == "base64:" + upload.base64EncodedString())
        #expect(binary.responseBody == "base64:/wAB")
        #expect(page.entries.first?.responseBody == "{\"ok\":true}")
        // Raw bytes in the database: a BLOB of the body's own size, no third more for base64.
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal_bodies WHERE typeof(body) = 'blob' AND length(body) = 30000") == 1)
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal WHERE id = 1 AND typeof(response_body) = 'blob' AND length(response_body) = 3") == 1)
        #expect(try Self.scalar(database, "SELECT count(*) FROM journal WHERE id = 2 AND typeof(response_body) = 'text'") == 1)
        #expect(try Self.scalar(database, "SELECT stored_bytes FROM journal WHERE id = 1") < 30_000 + 3 + 2_000)
        // An entry written before raw storage holds its base64 text: it reads as it always did.
        try database.withWriterBlocking { connection in
            _ = try connection.run(
                """
                INSERT INTO journal (id, project_id, time, platform, method, path, query, status, duration_ms, request_headers, request_body, response_headers)
                VALUES (3, 'prj_a', '2026-01-01T00:00:00.000Z', 'testing', 'POST', '/x', '', 200, 1, '{}', 'base64:/wAB', '{}')
                """)
        }
        let old = try await journal.query(project: "prj_a", filter: JournalFilter(limit: 1))
        #expect(old.entries.first?.requestBody == "base64:/wAB")
    }

    @Test("bodies with equal hashes but different bytes get bodies of their own")
    func hashCollision() throws {
        let (_, database, cleanup) = try Self.journal()
        defer { cleanup() }
        let bodies = JournalBodies(nextID: 1)
        let first = JournalBodies.Key(hash: 42, bytes: Self.body(1)), second = JournalBodies.Key(hash: 42, bytes: Self.body(2))
        let ids = try database.withWriterBlocking { connection in
            [
                try bodies.id(for: first, body: .text("first"), connection: connection).id, try bodies.id(for: second, body: .text("second"), connection: connection).id,
                try bodies.id(for: second, body: .text("second"), connection: connection).id,
            ]
        }
        #expect(ids == [1, 2, 2])
        #expect(try database.withWriterBlocking { try $0.scalar("SELECT body FROM journal_bodies WHERE id = 2").string } == "second")
    }

    @Test("the hash tells apart bodies that differ in one byte anywhere, and of different lengths")
    func hashSpreads() {
        let base = Self.body(0, bytes: 5_000)
        var seen: Set<UInt64> = [JournalBodies.hash(base)]
        for offset in stride(from: 0, to: base.count, by: 97) {
            var changed = base
            changed[offset] ^= 0x01
            seen.insert(JournalBodies.hash(changed))
        }
        for cut in 1...40 { seen.insert(JournalBodies.hash(base.prefix(base.count - cut))) }
        #expect(seen.count == 1 + (base.count + 96) / 97 + 40)
        #expect(JournalBodies.hash(base) == JournalBodies.hash(Data(base)))
    }

    @Test("the cache keeps at most its bound of bodies")
    func cacheBounded() throws {
        let (_, database, cleanup) = try Self.journal()
        defer { cleanup() }
        let bodies = JournalBodies(nextID: 1, maxEntries: 8, maxBytes: 1 << 30)
        try database.withWriterBlocking { connection in
            for seed in 0..<20 {
                let bytes = Self.body(seed)
                _ = try bodies.id(for: JournalBodies.Key(hash: JournalBodies.hash(bytes), bytes: bytes), body: .text("\(seed)"), connection: connection)
            }
        }
        #expect(bodies.cachedCount == 8)
        // The oldest were forgotten: their bytes are stored again under a new id.
        let first = Self.body(0)
        let id = try database.withWriterBlocking { try bodies.id(for: JournalBodies.Key(hash: JournalBodies.hash(first), bytes: first), body: .text("0"), connection: $0).id }
        #expect(id == 21)
    }
}
