import Foundation
import Storage

/// A SQLite file in WAL mode, as the server keeps its database, migrated and holding one project
/// `p1`; its folder is removed when the fixture goes. Tests that count SQLite's own work on real
/// tables (steps, pages) build on it.
class MigratedSQLiteFile {
    let directory: URL
    let connection: SQLiteConnection

    init(name: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        connection = try SQLiteConnection(path: directory.appendingPathComponent("db.sqlite").path)
        _ = try connection.scalar("PRAGMA journal_mode = WAL")
        _ = try Migrator(directory: Migrator.locateDirectory(configured: nil)).migrate(connection)
        try connection.run("INSERT INTO projects (id, name, created_at) VALUES ('p1', ?, '2026-01-01T00:00:00Z')", name)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }
}
