import Foundation
import PostgresStore
import Storage
import TestPostgres
import Testing

/// Migration 0300 makes project ids unique ignoring case in the database itself, on both
/// backends, and still applies to a database that already holds ids differing only in case.
@Suite("Project ids unique ignoring case: the migration")
struct ProjectIDCaseMigrationTests {
    private static let sqliteFolder = TestPostgres.repository.appendingPathComponent("Migrations")
    private static let insert = "INSERT INTO projects (id, name, created_at) VALUES ($1, 'p', '2026-01-01T00:00:00.000Z')"

    @Test("SQLite: a second id equal ignoring case is refused by the index itself")
    func sqliteIndex() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        _ = try Migrator(directory: Self.sqliteFolder).migrate(connection)
        try connection.run("INSERT INTO projects (id, name, created_at) VALUES ('demo', 'p', '2026-01-01T00:00:00.000Z')")
        for twin in ["Demo", "DEMO", "dEmO"] {
            let error = #expect(throws: SQLiteError.self) {
                try connection.run("INSERT INTO projects (id, name, created_at) VALUES (?, 'p', '2026-01-01T00:00:00.000Z')", twin)
            }
            #expect(error?.isUniqueViolation == true, "\(twin): \(String(describing: error))")
        }
        try connection.run("INSERT INTO projects (id, name, created_at) VALUES ('demo2', 'p', '2026-01-01T00:00:00.000Z')")
    }

    @Test("SQLite: a database already holding `demo`, `Demo` and `DEMO` migrates; one keeps '' and no new twin gets in")
    func sqliteExistingTwins() throws {
        let connection = try SQLiteConnection(path: ":memory:")
        let all = try Migrator(directory: Self.sqliteFolder).migrations
        _ = try Migrator(migrations: all.filter { $0.number < 300 }).migrate(connection)
        for id in ["demo", "Demo", "DEMO", "other"] {
            try connection.run("INSERT INTO projects (id, name, created_at) VALUES (?, 'p', '2026-01-01T00:00:00.000Z')", id)
        }
        #expect(try Migrator(migrations: all).migrate(connection) == all.filter { $0.number >= 300 }.map(\.id))
        let keys = try connection.query("SELECT id, legacy_case_key FROM projects ORDER BY id").map { "\($0.string("id") ?? "")=\($0.string("legacy_case_key") ?? "")" }
        // The least id in byte order ("DEMO") keeps '', the others are kept apart by their own id.
        #expect(keys == ["DEMO=", "Demo=Demo", "demo=demo", "other="])
        let error = #expect(throws: SQLiteError.self) {
            try connection.run("INSERT INTO projects (id, name, created_at) VALUES ('dEmO', 'p', '2026-01-01T00:00:00.000Z')")
        }
        #expect(error?.isUniqueViolation == true)
    }

    @Test("PostgreSQL: the same index, and the same migration over existing twins")
    func postgres() throws {
        let all = try Migration.files(in: Migrator.postgresDirectory(inside: Self.sqliteFolder))
        try TestPostgres.withConnection { connection in
            _ = try Migrator(migrations: all.filter { $0.number < 300 }).migrate(connection)
            for id in ["demo", "Demo", "DEMO", "other"] { _ = try connection.query(Self.insert, [.text(id)]) }
            #expect(try Migrator(migrations: all).migrate(connection) == all.filter { $0.number >= 300 }.map(\.id))
            let keys = try connection.query("SELECT id, legacy_case_key FROM projects ORDER BY id COLLATE \"C\"").map {
                "\($0.string("id") ?? "")=\($0.string("legacy_case_key") ?? "")"
            }
            #expect(keys == ["DEMO=", "Demo=Demo", "demo=demo", "other="])
            for twin in ["dEmO", "OTHER"] {
                let error = #expect(throws: PostgresError.self) { _ = try connection.query(Self.insert, [.text(twin)]) }
                #expect(error?.sqlState == "23505", "\(twin): \(String(describing: error))")
            }
            _ = try connection.query(Self.insert, [.text("other2")])
        }
    }
}
