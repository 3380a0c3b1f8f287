import Dispatch
import Foundation
import HTTPServer
import Storage
import Synchronization
import Testing

@testable import EmulatorCore

@Suite("Journal backlog")
struct JournalBacklogTests {
    /// Set once by the recorder task, read by the test.
    private final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    private static func exchange(id: Int, bodyBytes: Int) -> Journal.Exchange {
        Journal.Exchange(
            id: id, time: Date(), projectID: "prj_backlog", platform: "warplink", path: "/warplink/v1/sdk/validate",
            route: "/warplink/v1/sdk/validate", request: Request(method: .get, target: "/warplink/v1/sdk/validate"),
            status: 200, responseHeaders: HTTPHeaders(), responseBody: Data(repeating: 0x61, count: bodyBytes),
            durationMs: 1, fault: nil)
    }

    private static func exchange(id: Int, responseBody: Data) -> Journal.Exchange {
        var exchange = Self.exchange(id: id, bodyBytes: 0)
        exchange.responseBody = responseBody
        return exchange
    }

    private static func scratchPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-backlog-\(UUID().uuidString).sqlite").path
    }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A journal in a fresh file whose writer is busy until the returned gate is signalled:
    /// nothing the journal queues can commit before that.
    private static func gatedJournal(path: String, backlogBytes: Int) throws -> (Journal, DispatchSemaphore) {
        let database = try SQLiteDatabase(path: path)
        let migrations = Migrator.journalDirectory(inside: try Migrator.locateDirectory(configured: nil))
        try database.withWriterBlocking { _ = try Migrator(directory: migrations).migrate($0) }
        let journal = try Journal(database: database, limits: JournalLimits(backlogBytes: backlogBytes))
        let gate = DispatchSemaphore(value: 0)
        database.enqueueWrite({ _ in gate.wait() }, completion: { _ in })
        return (journal, gate)
    }

    /// Waits until `done` or a recorder waited on the bound (or 10 s went by), whichever first.
    private static func settle(_ journal: Journal, until done: Flag) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !done.isSet, journal.backlogWaitsSinceStart == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test("answers sharing one body buffer count it once against the backlog; a body of their own counts in full")
    func sharedBodiesCountOnce() async throws {
        let path = Self.scratchPath()
        defer { Self.remove(path) }
        let (journal, gate) = try Self.gatedJournal(path: path, backlogBytes: 40_000)

        // Ten answers with one 8,000-byte buffer (a cached answer): 8,000 + 10 × 1 KB, under the bound
        // (and still under it if the 20 ms gathering split them into two or three batches).
        let shared = Data(repeating: 0x62, count: 8_000)
        let sharedDone = Flag()
        let sharedRecorder = Task {
            for id in 1...10 { await journal.record(Self.exchange(id: id, responseBody: shared)) }
            sharedDone.set()
        }
        try await Self.settle(journal, until: sharedDone)
        #expect(sharedDone.isSet)
        #expect(journal.backlogWaitsSinceStart == 0)

        // Three more of the same size, each its own buffer: 18,240 + 3 × 9,024 is past the bound.
        let ownDone = Flag()
        let ownRecorder = Task {
            for id in 11...13 { await journal.record(Self.exchange(id: id, bodyBytes: 8_000)) }
            ownDone.set()
        }
        try await Self.settle(journal, until: ownDone)
        #expect(!ownDone.isSet)
        #expect(journal.backlogWaitsSinceStart == 1)
        gate.signal()
        await sharedRecorder.value
        await ownRecorder.value
        let page = try await journal.query(project: "prj_backlog", filter: JournalFilter())
        #expect(page.entries.count == 13)
    }

    @Test("a recorder returns at once under the backlog bound, waits past it until the writer committed, and nothing is lost")
    func backpressure() async throws {
        let path = Self.scratchPath()
        defer { Self.remove(path) }
        let (journal, gate) = try Self.gatedJournal(path: path, backlogBytes: 4_096)
        await journal.record(Self.exchange(id: 1, bodyBytes: 100)) // 1,124 bytes: under the bound

        let returned = Flag()
        let recorder = Task {
            await journal.record(Self.exchange(id: 2, bodyBytes: 8_000)) // past the bound
            returned.set()
        }
        try await Self.settle(journal, until: returned) // the recorder waits on the bound, or (wrongly) returns
        #expect(!returned.isSet, "the recorder went on while its entry could not be written")
        #expect(journal.backlogWaitsSinceStart == 1)
        gate.signal()
        await recorder.value
        #expect(returned.isSet)
        let page = try await journal.query(project: "prj_backlog", filter: JournalFilter())
        #expect(page.entries.map(\.id) == [2, 1])
        #expect(page.entries.first?.responseBodySize == 8_000)
        // Only the recorder past the bound waited.
        #expect(journal.backlogWaitsSinceStart == 1)
    }
}
