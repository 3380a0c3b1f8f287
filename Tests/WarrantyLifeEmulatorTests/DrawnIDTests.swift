import EmulatorCore
import Foundation
import Storage
import Testing

@testable import WarrantyLifeEmulator

@Suite("WarrantyLife drawn ids")
struct DrawnIDTests {
    @Test("an id the table holds already is drawn again until it is free, so a repeat never breaks the insert")
    func redrawsTakenIDs() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("drawn-ids-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("db.sqlite").path)
        _ = try Migrator(directory: Migrator.locateDirectory(configured: nil)).migrate(connection)
        try connection.run("INSERT INTO projects (id, name, created_at) VALUES ('p1', 'ids', '2026-01-01T00:00:00Z'), ('p2', 'other', '2026-01-01T00:00:00Z')")
        let store = WarrantyLifeStore(connection: connection)
        for id in ["100001", "100002"] {
            _ = try store.insertSensorEvent("p1", id: id, itemID: "item", eventAt: nil, type: nil, body: [:], now: "2026-11-30T10:00:00Z")
        }
        var draws = ["100002", "100003", "100004"].makeIterator()
        let fresh = try store.unusedID("p1", in: .sensorEvents, candidate: "100001") { draws.next()! }
        #expect(fresh == "100003", "both taken ids are skipped, the first free draw is kept")
        // Another project's ids do not count, and a free candidate is kept without drawing.
        let kept = try store.unusedID("p2", in: .sensorEvents, candidate: "100001") {
            Issue.record("drew for a free id"); return ""
        }
        #expect(kept == "100001")
        _ = try store.insertSensorEvent("p1", id: fresh, itemID: "item", eventAt: nil, type: nil, body: [:], now: "2026-11-30T10:00:01Z")
        for table in [WarrantyLifeStore.DrawnIDTable.users, .items, .diagnostics, .submissions] {
            #expect(try store.unusedID("p1", in: table, candidate: "5") { "6" } == "5", "\(table) is queried by project and id")
        }
    }
}
