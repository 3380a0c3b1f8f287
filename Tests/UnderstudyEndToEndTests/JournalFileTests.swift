import Foundation
import Storage
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// On SQLite the journal lives in a file of its own next to the database: the requests land
/// there and not in the main file, and deleting or resetting a project clears its entries there.
@Suite("The journal's own SQLite file")
struct JournalFileTests {
    @Test("the journal file is named after the database, never SQLite's own `-journal` name")
    func naming() {
        #expect(UnderstudyServer.journalPath(besides: "data/understudy.sqlite") == "data/understudy.requests.sqlite")
        #expect(UnderstudyServer.journalPath(besides: "/tmp/x/state.db") == "/tmp/x/state.requests.db")
        #expect(UnderstudyServer.journalPath(besides: "/tmp/x/plain") == "/tmp/x/plain.requests")
    }

    @Test("a new journal file has 16 KiB pages, a 30 KB upload's body two of them; the main file keeps SQLite's 4 KiB")
    func journalPageSize() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-journal-pages-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("main.sqlite").path
        try await UnderstudyTestServer.with(configure: { $0.databasePath = database }) { server in
            _ = try await server.makeProject()
            let pageSize = { (path: String) throws -> Int in try SQLiteConnection(path: path).scalar("PRAGMA page_size").int ?? -1 }
            #expect(try pageSize(UnderstudyServer.journalPath(besides: database)) == UnderstudyServer.journalPageSize)
            #expect(UnderstudyServer.journalPageSize == 16_384)
            #expect(try pageSize(database) == 4_096)
        }
    }

    @Test("the journal file's writer keeps statement journals in memory; the main file's does not")
    func journalStatementJournalsInMemory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-journal-temp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("main.sqlite").path
        let tempStore = { (database: SQLiteDatabase) throws -> Int in try database.withWriterBlocking { try $0.scalar("PRAGMA temp_store").int ?? -1 } }
        #expect(try tempStore(UnderstudyServer.openJournalFile(besides: path)) == 2) // MEMORY
        #expect(try tempStore(SQLiteDatabase(path: path, readerCount: 1)) == 0) // SQLite's default
    }

    @Test("a large body goes into the body files beside the journal file and reads back through the control plane; reset frees it")
    func largeBodiesInBodyFiles() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-journal-bodies-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("main.sqlite").path
        let directory = UnderstudyServer.journalBodyDirectory(besides: database)
        #expect(directory == folder.appendingPathComponent("main.requests.bodies").path)
        #expect(UnderstudyServer.journalBodyDirectory(besides: "data/understudy.sqlite") == "data/understudy.requests.bodies")
        try await UnderstudyTestServer.with(configure: { $0.databasePath = database }) { server in
            let project = try await server.makeProject()
            let admin = server.client.admin.project(project.id)
            // Not UTF-8, as an audio chunk is: the journal shows it in base64.
            let chunk = Data((0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 0x80) })
            _ = try await server.client.send(
                ClientRequest(
                    method: "POST", path: "/asleep/ai/v1/sessions/none/upload",
                    headers: [
                        "x-api-key": project.credential("asleep", "apiKey"), "x-user-id": "ada",
                        "Content-Type": "application/octet-stream",
                    ], body: chunk))
            let page = try await admin.waitForRequests(JournalQuery(platform: "asleep"), count: 1)
            #expect(page.requests.first?.requestBody == "base64:" + chunk.base64EncodedString())
            let segments = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(segments == ["0.bodies"])
            // The chunk was the first large body written (the wait's 40 KB answer, which holds it
            // in base64, may follow it, once journalled).
            let stored = try Data(contentsOf: URL(fileURLWithPath: directory + "/0.bodies"))
            #expect(stored.prefix(chunk.count) == chunk)
            // The file is the one segment being appended to: a reset leaves it, its body no longer named.
            _ = try await admin.reset()
            #expect(try await admin.requests(JournalQuery(platform: "asleep")).requests.isEmpty)
        }
    }

    private static func count(_ path: String, _ sql: String, _ project: String) throws -> Int {
        let connection = try SQLiteConnection(path: path)
        return try connection.scalar(sql, project).int ?? -1
    }

    @Test("requests are journalled in the journal file, not the main one; reset and delete clear them there")
    func entriesLiveInTheirOwnFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-journal-file-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("main.sqlite").path
        let journalFile = UnderstudyServer.journalPath(besides: database)
        try await UnderstudyTestServer.with(configure: { $0.databasePath = database }) { server in
            let project = try await server.makeProject()
            let admin = server.client.admin.project(project.id)
            let headers = ["x-api-key": project.credential("asleep", "apiKey")]
            for user in ["one", "two"] {
                _ = try await server.client.send(ClientRequest(method: "GET", path: "/asleep/ai/v1/users/\(user)", headers: headers))
            }
            let page = try await admin.waitForRequests(JournalQuery(platform: "asleep"), count: 2)
            #expect(page.requests.count == 2)
            let inFile = "SELECT count(*) FROM journal WHERE project_id = ? AND platform = 'asleep'"
            #expect(try Self.count(journalFile, inFile, project.id) == 2)
            #expect(try Self.count(database, inFile, project.id) == 0)

            _ = try await admin.reset()
            #expect(try Self.count(journalFile, inFile, project.id) == 0)
            _ = try await server.client.send(ClientRequest(method: "GET", path: "/asleep/ai/v1/users/three", headers: headers))
            #expect(try await admin.waitForRequests(JournalQuery(platform: "asleep"), count: 1).requests.count == 1)
            try await admin.delete()
            #expect(try Self.count(journalFile, inFile, project.id) == 0)
        }
    }
}
