import Foundation
import HTTPServer
import Storage
import Testing

@testable import EmulatorCore

@Suite("Journal eviction from the ledger")
struct JournalLedgerTests {
    private static func item(_ id: Int, _ project: ProjectID? = "prj_a", bytes: Int = 100, request: Int? = nil, response: Int? = nil) -> JournalLedger.Item {
        JournalLedger.Item(id: id, project: project, bytes: bytes, requestBodyRef: request, responseBodyRef: response)
    }

    @Test("a plan covers the excess oldest first, and takes every entry up to its cutoff, wherever it was written")
    func planOutOfOrder() {
        var ledger = JournalLedger(unlistedThrough: nil)
        // 3 was answered after 4 and 5 (ids are reserved on arrival, entries written on answer).
        for item in [Self.item(1), Self.item(2, nil, response: 9), Self.item(4), Self.item(5, "prj_b", request: 9), Self.item(3, "prj_b", response: 8), Self.item(6)] {
            ledger.append(item)
        }
        let plan = ledger.plan(count: 3, bytes: 0)
        #expect(plan == JournalLedger.Eviction(cutoff: 4, count: 4, bytes: 400, perProject: ["prj_a": 2, "": 1, "prj_b": 1], bodies: [8, 9]))
        ledger.remove(plan!)
        #expect(ledger.listed.map(\.id) == [5, 6])
        // The byte bound alone: the oldest whose bytes cover it.
        #expect(ledger.plan(count: 0, bytes: 150)?.cutoff == 6)
        #expect(ledger.plan(count: 0, bytes: 0) == nil)
    }

    @Test("while rows may be unlisted, the table decides; an eviction past them hands over to the ledger")
    func unlistedRows() {
        var ledger = JournalLedger(unlistedThrough: 10)
        for id in 11...14 { ledger.append(Self.item(id)) }
        #expect(ledger.plan(count: 2, bytes: 0) == nil)
        ledger.tableEvicted(through: 8)
        #expect(ledger.unlistedThrough == 10)
        ledger.tableEvicted(through: 12)
        #expect(ledger.unlistedThrough == nil)
        #expect(ledger.listed.map(\.id) == [13, 14])
        #expect(ledger.plan(count: 1, bytes: 0)?.cutoff == 13)
        ledger.startOver(reservedThrough: 20)
        #expect(ledger.count == 0)
        #expect(ledger.plan(count: 1, bytes: 0) == nil)
    }

    @Test("clearing a project forgets its entries; long runs of evictions keep the ledger the table's size")
    func removeProjectAndCompact() {
        var ledger = JournalLedger(unlistedThrough: nil)
        for id in 1...20_000 { ledger.append(Self.item(id, id % 2 == 0 ? "prj_a" : "prj_b")) }
        ledger.remove(project: "prj_a")
        #expect(ledger.count == 10_000)
        #expect(ledger.listed.allSatisfy { $0.project == "prj_b" })
        while let plan = ledger.plan(count: 100, bytes: 0), ledger.count > 500 { ledger.remove(plan) }
        #expect(ledger.count == 500)
        #expect(ledger.listed.first?.id == 19_001)
    }

    // MARK: - Against the table

    private static func journal(path: String, _ limits: JournalLimits) throws -> (Journal, SQLiteDatabase) {
        let database = try SQLiteDatabase(path: path)
        let migrations = Migrator.journalDirectory(inside: try Migrator.locateDirectory(configured: nil))
        try database.withWriterBlocking { _ = try Migrator(directory: migrations).migrate($0) }
        return (try Journal(database: database, limits: limits), database)
    }

    private static func scratchPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("journal-ledger-\(UUID().uuidString).sqlite").path
    }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private static func exchange(id: Int, project: ProjectID?, bodyBytes: Int = 10) -> Journal.Exchange {
        Journal.Exchange(
            // A fixed instant: an entry's stored size must not depend on when it was recorded, or
            // the two journals compared below evict by bytes at different entries.
            id: id, time: Date(timeIntervalSince1970: 1_800_000_000.125), projectID: project, platform: "testing", path: "/testing/x", route: "/testing/x",
            request: Request(method: .get, target: "/testing/x"), status: 200, responseHeaders: HTTPHeaders(),
            responseBody: Data(repeating: UInt8(ascii: "a"), count: bodyBytes), durationMs: 1, fault: nil)
    }

    /// The ids the table holds and the evictions it counted per project.
    private static func table(_ database: SQLiteDatabase) throws -> (ids: [Int], evicted: [String: Int]) {
        try database.withWriterBlocking { connection in
            let ids = try connection.integers("SELECT id FROM journal ORDER BY id")
            var evicted: [String: Int] = [:]
            for row in try connection.query("SELECT project_id, evicted FROM journal_evictions") {
                evicted[try row.decode("project_id")] = try row.decode("evicted")
            }
            return (ids, evicted)
        }
    }

    /// Records 1…`last` (each batch flushed as it would be under load), projects taking turns.
    private static func record(_ journal: Journal, _ ids: ClosedRange<Int>, bodyBytes: Int = 10) async throws {
        for chunk in stride(from: ids.lowerBound, through: ids.upperBound, by: 7) {
            for id in chunk...min(chunk + 6, ids.upperBound) {
                await journal.record(Self.exchange(id: id, project: id % 3 == 0 ? nil : "prj_\(id % 3)", bodyBytes: bodyBytes))
            }
            try await journal.flush()
        }
    }

    @Test("the ledger's evictions leave the table and the counts the table's own would leave", arguments: [false, true])
    func sameAsReadingTheTable(byBytes: Bool) async throws {
        let limits = byBytes ? JournalLimits(maxEntries: 100_000, maxBytes: 40 * 700) : JournalLimits(maxEntries: 40)
        let (pathA, pathB) = (Self.scratchPath(), Self.scratchPath())
        defer { Self.remove(pathA); Self.remove(pathB) }
        let (listed, listedDatabase) = try Self.journal(path: pathA, limits)
        let (unlisted, unlistedDatabase) = try Self.journal(path: pathB, limits)
        // The second journal never trusts its ledger: every eviction reads the table.
        unlisted.ledger.withLock { $0.startOver(reservedThrough: .max) }
        try await Self.record(listed, 1...300, bodyBytes: 400)
        try await Self.record(unlisted, 1...300, bodyBytes: 400)
        let (a, b) = (try Self.table(listedDatabase), try Self.table(unlistedDatabase))
        #expect(a.ids == b.ids)
        #expect(a.evicted == b.evicted)
        #expect(a.evicted.values.reduce(0, +) + a.ids.count == 300)
        #expect(listed.storedTotals == unlisted.storedTotals)
        #expect(listed.ledger.withLock { $0.listed.map(\.id) } == a.ids)
        #expect(listed.ledger.withLock { $0.unlistedThrough } == nil)
    }

    @Test("after a restart the earlier run's entries go by reading the table, then the ledger lists everything")
    func restart() async throws {
        let path = Self.scratchPath()
        defer { Self.remove(path) }
        let limits = JournalLimits(maxEntries: 30)
        do {
            let (journal, _) = try Self.journal(path: path, limits)
            try await Self.record(journal, 1...25)
        }
        let (journal, database) = try Self.journal(path: path, limits)
        #expect(journal.ledger.withLock { $0.unlistedThrough } == 25)
        try await Self.record(journal, 26...100)
        let table = try Self.table(database)
        #expect(journal.ledger.withLock { $0.unlistedThrough } == nil)
        #expect(journal.ledger.withLock { $0.listed.map(\.id) } == table.ids)
        #expect(table.ids.count <= 30 && table.ids.last == 100)
        #expect(table.evicted.values.reduce(0, +) + table.ids.count == 100)
    }

    @Test("a ledger that disagrees with the table is caught, its delete rolled back, and the table's count kept")
    func mismatchFallsBack() async throws {
        let path = Self.scratchPath()
        defer { Self.remove(path) }
        let (journal, database) = try Self.journal(path: path, JournalLimits(maxEntries: 20))
        try await Self.record(journal, 1...15)
        // Rows the ledger lists vanish behind its back.
        try database.withWriterBlocking { _ = try $0.run("DELETE FROM journal WHERE id IN (2, 3)") }
        try await Self.record(journal, 16...40)
        let table = try Self.table(database)
        // Every row that went is counted once: the two deleted by hand are not, all others are.
        #expect(table.evicted.values.reduce(0, +) + table.ids.count == 38)
        #expect(table.ids.last == 40)
        #expect(!table.ids.contains(2) && !table.ids.contains(3))
    }

    @Test("clearing a project keeps the ledger in step with the table")
    func clearKeepsStep() async throws {
        let path = Self.scratchPath()
        defer { Self.remove(path) }
        let (journal, database) = try Self.journal(path: path, JournalLimits(maxEntries: 25))
        try await Self.record(journal, 1...30)
        try await journal.clear(project: "prj_1")
        try await Self.record(journal, 31...60)
        let table = try Self.table(database)
        #expect(journal.ledger.withLock { $0.listed.map(\.id) } == table.ids)
        #expect(journal.ledger.withLock { $0.unlistedThrough } == nil)
    }
}
