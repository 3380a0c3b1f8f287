import Foundation
import HTTPServer
import Storage
import Testing

@testable import EmulatorCore

@Suite("Journal bodies kept in segment files")
struct JournalBodyFileTests {
    /// A SQLite journal file migrated as the server migrates it, and a body directory beside it.
    private struct Files {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-files-\(UUID().uuidString).sqlite").path
        var directory: String { path + ".bodies" }
        let database: SQLiteDatabase

        init() throws {
            database = try SQLiteDatabase(path: path)
            let migrations = Migrator.journalDirectory(inside: try Migrator.locateDirectory(configured: nil))
            try database.withWriterBlocking { _ = try Migrator(directory: migrations).migrate($0) }
        }

        func journal(_ limits: JournalLimits = JournalLimits(), segmentBytes: Int = 16 << 20) throws -> Journal {
            try Journal(database: database, limits: limits, bodyDirectory: directory, bodySegmentBytes: segmentBytes)
        }

        func scalar(_ sql: String) throws -> Int { try database.withWriterBlocking { try $0.scalar(sql).int ?? -1 } }

        /// The directory's file names, sorted.
        func names() -> [String] { ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted() }

        func remove() {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    private static func exchange(id: Int, project: ProjectID, requestBody: Data, responseBody: Data) -> Journal.Exchange {
        var request = Request(method: .post, target: "/asleep/ai/v1/sessions/s/upload")
        request.body = requestBody
        return Journal.Exchange(
            id: id, time: Date(), projectID: project, platform: "asleep", path: "/asleep/ai/v1/sessions/s/upload",
            route: "/asleep/ai/v1/sessions/{session_id}/upload", request: request, status: 200,
            responseHeaders: HTTPHeaders(), responseBody: responseBody, durationMs: 1, fault: nil)
    }

    /// `count` bytes that are not UTF-8 (as an audio chunk is), different for each `seed`.
    private static func binary(_ seed: Int, count: Int = 30_000) -> Data {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[0] = 0xFF // never valid UTF-8
        bytes[1] = UInt8(truncatingIfNeeded: seed)
        return Data(bytes)
    }

    /// A JSON text of about `count` bytes.
    private static func text(_ seed: Int, count: Int = 20_000) -> Data {
        Data(("{\"seed\":\(seed),\"night\":\"" + String(repeating: "z", count: count) + "\"}").utf8)
    }

    @Test("large bodies are written to a segment file, not into SQLite, and read back whole")
    func largeBodiesRoundTrip() async throws {
        let files = try Files()
        defer { files.remove() }
        let journal = try files.journal()
        let upload = Self.binary(1), answer = Self.text(1), small = Data("{\"small\":\"\(String(repeating: "s", count: 2_000))\"}".utf8)
        await journal.record(Self.exchange(id: 1, project: "prj_a", requestBody: upload, responseBody: answer))
        await journal.record(Self.exchange(id: 2, project: "prj_a", requestBody: small, responseBody: Data("{}".utf8)))
        let page = try await journal.query(project: "prj_a", filter: JournalFilter(limit: 10))
        let first = try #require(page.entries.first { $0.id == 1 }), second = try #require(page.entries.first { $0.id == 2 })
        #expect(first.requestBody == "base64:" + upload.base64EncodedString())
        #expect(first.responseBody == String(decoding: answer, as: UTF8.self))
        #expect(second.requestBody == String(decoding: small, as: UTF8.self))
        // The two large ones lie in the file with an empty column; the 2 KB one stays in SQLite.
        #expect(try files.scalar("SELECT count(*) FROM journal_bodies WHERE file_position IS NOT NULL AND length(body) = 0") == 2)
        #expect(try files.scalar("SELECT count(*) FROM journal_bodies WHERE file_position IS NULL AND length(body) > 2000") == 1)
        #expect(files.names() == ["0.bodies"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: files.directory + "/0.bodies")[.size] as? Int)
        #expect(size == upload.count + answer.count)
        #expect(journal.bodyFileBytes == size)
    }

    @Test("segments no body lies in any more are deleted or kept as spares, and the newest bodies still read back")
    func evictionFreesSegments() async throws {
        let files = try Files()
        defer { files.remove() }
        // 30 KB bodies, two to a 64 KB segment; the byte bound holds about five of them.
        let journal = try files.journal(JournalLimits(maxBytes: 160_000), segmentBytes: 65_536)
        var uploads: [Int: Data] = [:]
        for id in 1...40 {
            uploads[id] = Self.binary(id)
            await journal.record(Self.exchange(id: id, project: "prj_a", requestBody: uploads[id]!, responseBody: Data("{}".utf8)))
            if id % 4 == 0 { try await journal.flush() }
        }
        try await journal.flush()
        let page = try await journal.query(project: "prj_a", filter: JournalFilter(limit: 100))
        #expect(page.entries.count >= 3 && page.entries.count <= 6)
        #expect(page.entries.allSatisfy { $0.requestBody == "base64:" + uploads[$0.id]!.base64EncodedString() })
        // Twenty segments were written: the live ones, and at most two spares, are left.
        let names = files.names()
        #expect(names.filter { $0.hasSuffix(".bodies") }.count <= 4)
        #expect(names.filter { $0.hasSuffix(".spare") }.count <= JournalBodyFile.maxSpares)
        #expect(names.contains("19.bodies"))
        #expect(!names.contains("0.bodies"))
        // A segment is only dropped when no row names a position in it.
        let named = try files.database.withWriterBlocking { connection in
            try connection.query("SELECT DISTINCT file_position / 65536 AS segment FROM journal_bodies WHERE file_position IS NOT NULL")
                .map { "\(try $0.decode("segment", as: Int.self)).bodies" }
        }
        #expect(Set(named).isSubset(of: Set(names)))
    }

    @Test("clearing a project frees its segments, and a new journal deletes segments no row names and goes on after the last")
    func clearAndRestart() async throws {
        let files = try Files()
        defer { files.remove() }
        var journal: Journal? = try files.journal(segmentBytes: 65_536)
        for id in 1...4 { await journal!.record(Self.exchange(id: id, project: "prj_a", requestBody: Self.binary(id), responseBody: Data("{}".utf8))) }
        for id in 5...8 { await journal!.record(Self.exchange(id: id, project: "prj_b", requestBody: Self.binary(id), responseBody: Data("{}".utf8))) }
        try await journal!.flush()
        #expect(files.names() == ["0.bodies", "1.bodies", "2.bodies", "3.bodies"])
        try await journal!.clear(project: "prj_a")
        // prj_a's two segments are unnamed now: kept to be written over.
        #expect(files.names() == ["0.spare", "1.spare", "2.bodies", "3.bodies"])
        journal = nil
        // Bytes a crash left behind (written, never named) and a segment a row names.
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: files.directory + "/9.bodies"))
        let reopened = try files.journal(segmentBytes: 65_536)
        #expect(files.names() == ["0.spare", "1.spare", "2.bodies", "3.bodies"])
        let upload = Self.binary(99)
        await reopened.record(Self.exchange(id: 9, project: "prj_b", requestBody: upload, responseBody: Data("{}".utf8)))
        let page = try await reopened.query(project: "prj_b", filter: JournalFilter(limit: 10))
        #expect(page.entries.count == 5)
        #expect(page.entries.first { $0.id == 9 }?.requestBody == "base64:" + upload.base64EncodedString())
        // The new body went into a spare renamed past every segment there was (9 included).
        #expect(files.names().contains("10.bodies"))
        #expect(files.names().filter { $0.hasSuffix(".spare") }.count == 1)
    }

    @Test("a segment kept as a spare is written over as a later one, and what lay in it no longer reads")
    func spareWrittenOver() throws {
        let files = try Files()
        defer { files.remove() }
        let file = try JournalBodyFile(directory: files.directory, segmentBytes: 65_536, highestPosition: nil)
        let first = Self.binary(1), second = Self.binary(2), third = Self.binary(3)
        let at = try [first, second, third].map { body in try body.withUnsafeBytes { try file.append($0) } }
        #expect(at == [0, 30_000, 65_536])
        #expect(file.read(position: at[0], count: first.count) == first)
        file.delete([0])
        #expect(file.read(position: at[0], count: first.count) == nil)
        // Segment 2 is the spare renamed: written over from its start, its old bytes past the end.
        let fourth = Self.binary(4, count: 40_000)
        #expect(try fourth.withUnsafeBytes { try file.append($0) } == 131_072)
        #expect(file.read(position: 131_072, count: fourth.count) == fourth)
        #expect(file.read(position: at[2], count: third.count) == third)
        #expect(files.names() == ["1.bodies", "2.bodies"])
    }

    @Test("a journal without a body directory keeps every body in SQLite")
    func withoutDirectory() async throws {
        let files = try Files()
        defer { files.remove() }
        let journal = try Journal(database: files.database, limits: JournalLimits())
        await journal.record(Self.exchange(id: 1, project: "prj_a", requestBody: Self.binary(1), responseBody: Data("{}".utf8)))
        try await journal.flush()
        #expect(try files.scalar("SELECT count(*) FROM journal_bodies WHERE file_position IS NULL AND length(body) = 30000") == 1)
        #expect(!FileManager.default.fileExists(atPath: files.directory))
    }
}
