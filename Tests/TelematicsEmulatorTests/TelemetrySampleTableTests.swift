import Foundation
import Storage
import Testing

@Suite("Telemetry sample table")
struct TelemetrySampleTableTests {
    /// A fresh SQLite file in a folder of its own, removed at the end.
    final class Scratch {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("samples-\(UUID().uuidString)")
        let connection: SQLiteConnection

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            connection = try SQLiteConnection(path: directory.appendingPathComponent("db.sqlite").path)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    static let columns = "project_id, user_id, ts_ms, latitude, longitude, speed_kmh, course_deg, accuracy_m, altitude_m, speed_limit_kmh, phone_in_use, batch_id"

    /// Every sample, as text, in key order.
    static func samples(_ connection: SQLiteConnection) throws -> [String] {
        try connection.query("SELECT \(columns) FROM telematics_samples ORDER BY project_id, user_id, ts_ms").map { row in
            row.values.map { value in
                if case .text(let text) = value { return text }
                return "\(value)"
            }.joined(separator: "|")
        }
    }

    @Test("samples stored before the table was keyed by (project, user, time) survive its rebuild, and the key holds")
    func rebuildKeepsSamples() throws {
        let scratch = try Scratch()
        let connection = scratch.connection
        let all = try Migrator(directory: Migrator.locateDirectory(configured: nil)).migrations
        let keyed = try #require(all.first { $0.id == "0120_samples_keyed_by_time" })
        // The schema as it was: a rowid table with a UNIQUE index.
        try Migrator(migrations: all.filter { $0.number < keyed.number }).migrate(connection)
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_master WHERE tbl_name = 'telematics_samples' AND type = 'index'").int == 1)
        for project in ["p1", "p2"] {
            try connection.run("INSERT INTO projects (id, name, created_at) VALUES (?, ?, '2026-01-01T00:00:00Z')", project, project)
        }
        let rows: [[any SQLBindable]] = [
            ["p1", 7, 1_700_000_000_200, 52.1, 4.3, 50.5, 90.0, 5.0, 2.0, 50.0, 0, "batch-a"],
            ["p1", 7, 1_700_000_000_000, 52.0, 4.2, SQLValue.null, SQLValue.null, SQLValue.null, SQLValue.null, SQLValue.null, SQLValue.null, SQLValue.null],
            ["p1", 8, 1_700_000_000_000, 51.0, 3.0, 10.0, 180.0, 3.0, 1.0, 30.0, 1, "batch-b"],
            ["p2", 7, 1_700_000_000_000, -33.9, 151.2, 0.0, 0.0, 1.0, 0.0, SQLValue.null, 0, "batch-c"],
        ]
        for row in rows {
            try connection.run("INSERT INTO telematics_samples (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", bindings: row)
        }
        let before = try Self.samples(connection)
        #expect(before.count == 4)

        #expect(try Migrator(migrations: all).migrate(connection).contains(keyed.id))

        #expect(try Self.samples(connection) == before)
        // One b-tree: no rowid, and no separate index holding the key a second time.
        #expect(throws: (any Error).self) { try connection.query("SELECT rowid FROM telematics_samples") }
        #expect(try connection.scalar("SELECT count(*) FROM sqlite_master WHERE tbl_name = 'telematics_samples' AND type = 'index'").int == 0)
        let key = try connection.query("PRAGMA table_info(telematics_samples)").filter { ($0.int("pk") ?? 0) > 0 }
            .sorted { ($0.int("pk") ?? 0) < ($1.int("pk") ?? 0) }.map { $0.string("name") ?? "" }
        #expect(key == ["project_id", "user_id", "ts_ms"])
        // The key still refuses a second sample at the same time for the same user…
        #expect(throws: (any Error).self) {
            try connection.run("INSERT INTO telematics_samples (project_id, user_id, ts_ms, latitude, longitude) VALUES ('p1', 7, 1700000000000, 0, 0)")
        }
        // …and deleting a project still deletes its samples.
        try connection.run("DELETE FROM projects WHERE id = 'p1'")
        #expect(try Self.samples(connection) == before.filter { $0.hasPrefix("p2|") })
    }
}
