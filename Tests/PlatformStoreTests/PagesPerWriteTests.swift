import EmulatorCore
import Foundation
import Storage
import Testing

@testable import WarpLinkEmulator
@testable import WarrantyLifeEmulator

/// What an SDK write costs at its commit is mostly the pages it changed: each is written into the
/// write-ahead log and copied again by a checkpoint. The writes of one loop turn share a
/// transaction, so the rows they add should share pages too. Counted with SQLite's own count of
/// pages written (deterministic, no timing), for transactions of six writes after 3,000 rows.
@Suite("Pages an SDK write transaction changes")
struct PagesPerWriteTests {
    /// A migrated SQLite file in WAL mode with one project, removed when the test ends.
    final class Fixture: MigratedSQLiteFile {
        init() throws { try super.init(name: "pages") }

        /// Pages written per transaction of `perTransaction` calls of `write`, over `measured`
        /// transactions that follow `history` such calls.
        func pagesPerTransaction(history: Int = 3_000, measured: Int = 30, perTransaction: Int = 6, write: (Int) throws -> Void) throws -> Double {
            var index = 0
            func transaction() throws {
                try connection.transaction { for _ in 0..<perTransaction { try write(index); index += 1 } }
            }
            for _ in 0..<(history / perTransaction) { try transaction() }
            _ = connection.takePagesWritten()
            for _ in 0..<measured { try transaction() }
            return Double(connection.takePagesWritten()) / Double(measured)
        }
    }

    /// A resolve's click as `WarpLinkRoutes.resolve` records it.
    static func click(id: String, at millis: UInt64) -> ClickRecord {
        ClickRecord(
            id: id, linkID: "link-1", appID: nil, source: .resolve, ip: "127.0.0.1", acceptLanguage: "en-US", language: nil,
            timezone: nil, timezoneOffset: nil, deviceID: nil, fingerprint: nil, userAgent: "WarpLinkSDK/1.1.0", tapID: nil,
            destinationURL: "https://example.com/p", iosURL: "app://p", androidURL: nil, customParams: ["campaign": "spring"],
            clickedAt: Date(timeIntervalSince1970: Double(millis) / 1000), claimedBy: nil, claimedAt: nil)
    }

    @Test("six resolve clicks with the ids the server makes change about four pages, not one index leaf per click")
    func resolveClicks() throws {
        let fixture = try Fixture()
        let store = WarpLinkStore(connection: fixture.connection)
        var generator = IDGenerator()
        let pages = try fixture.pagesPerTransaction { index in
            let millis = 1_800_000_000_000 + UInt64(index / 3) // about three clicks a millisecond
            let inserted = try store.insert(Self.click(id: generator.recordUUID(unixMilliseconds: millis), at: millis), project: "p1")
            #expect(inserted)
        }
        // The table's last leaf, the id index's last leaf, now and then a split and the header page
        // (the file grew). Random ids put each click on its own leaf of the index (9–10 pages), and
        // AUTOINCREMENT's counter row was one page more in every transaction.
        #expect(pages <= 4.5, "\(pages) pages per transaction of six clicks")
    }

    @Test("six voucher lookups by one caller change the table's and its three indexes' last leaves, and no counter row")
    func voucherLookups() throws {
        let fixture = try Fixture()
        let store = WarrantyLifeStore(connection: fixture.connection)
        let pages = try fixture.pagesPerTransaction { _ in
            try store.recordLookup(
                "p1", code: "BENCH", deviceID: "BENCH-DEVICE", userID: "user-1", action: .normalRegistration,
                type: .normalRegistration, now: "2026-06-01T12:00:00Z")
        }
        #expect(pages <= 6.5, "\(pages) pages per transaction of six lookups")
    }

    /// The device's clock for its `index`th event, a second after the one before.
    static func eventAt(_ index: Int) -> String {
        String(format: "2026-06-01 %02d:%02d:%02d.000", index / 3_600, index / 60 % 60, index % 60)
    }

    @Test("six sensor events with the ids the server makes change the last leaves of the table and its three indexes, not one key leaf per event")
    func sensorEvents() throws {
        let fixture = try Fixture()
        let store = WarrantyLifeStore(connection: fixture.connection)
        var generator = IDGenerator()
        let pages = try fixture.pagesPerTransaction { index in
            let id = String(generator.ascendingNumber(in: 10_000_000...99_999_999))
            _ = try store.insertSensorEvent(
                "p1", id: id, itemID: "item-1", eventAt: Self.eventAt(index), type: 1111,
                body: ["sensorEventType": 1111, "volumeSetting": 8], now: "2026-06-01T12:00:00Z")
        }
        // 7.3 pages; random ids put each event on its own leaf of the (project, id) key: 12.2.
        #expect(pages <= 8, "\(pages) pages per transaction of six sensor events")
    }
}
