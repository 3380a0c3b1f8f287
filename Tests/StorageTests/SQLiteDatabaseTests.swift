import CSQLite
import Foundation
import Testing

@testable import Storage

private func temporaryPath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-store-\(UUID().uuidString)/db.sqlite").path
}

private struct Boom: Error {}

@Suite("SQLite store")
struct SQLiteDatabaseTests {
    @Test("a file database runs in WAL mode with a -wal file beside it")
    func wal() async throws {
        let path = temporaryPath()
        let database = try SQLiteDatabase(path: path)
        try await database.write { try $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)") }
        try await database.write { try $0.run("INSERT INTO t (name) VALUES (?)", "a") }
        #expect(try database.withWriterBlocking { try $0.scalar("PRAGMA journal_mode").string } == "wal")
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let names = try await database.read { try $0.query("SELECT name FROM t").compactMap { $0.string("name") } }
        #expect(names == ["a"])
    }

    @Test("SQLite keeps no memory statistics: no allocation takes its process-wide mutex")
    func memoryStatisticsOff() async throws {
        let database = try SQLiteDatabase(path: temporaryPath())
        try await database.write { connection in
            try connection.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
            for id in 0..<100 { try connection.run("INSERT INTO t (id, name) VALUES (?, ?)", id, String(repeating: "x", count: 500)) }
        }
        // Counted only while the statistics are on; connections and 50 KB of rows allocated plenty.
        #expect(sqlite3_memory_used() == 0)
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM t").int } == 100)
    }

    @Test("the writer does not zero freed pages: secure_delete is FAST whatever SQLite's build defaults to")
    func secureDeleteFast() async throws {
        let database = try SQLiteDatabase(path: temporaryPath())
        // 2 is FAST; Debian's SQLite defaults to 1 (on), SQLite's own default is 0 (off).
        #expect(try await database.write { try $0.scalar("PRAGMA secure_delete").int } == 2)
    }

    @Test("a write that throws is rolled back whole")
    func rollback() async throws {
        let database = try SQLiteDatabase(path: temporaryPath())
        try await database.write { try $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)") }
        await #expect(throws: Boom.self) {
            try await database.write { connection in
                try connection.run("INSERT INTO t (name) VALUES (?)", "half")
                throw Boom()
            }
        }
        let count = try await database.read { try $0.scalar("SELECT count(*) FROM t").int }
        #expect(count == 0)
    }

    @Test("typed binding round-trips every storage class, including NULL and blobs")
    func binding() async throws {
        let database = try SQLiteDatabase(path: temporaryPath())
        let blob = Data([0, 1, 2, 255])
        let optional: String? = nil
        let row = try await database.write { connection -> Row? in
            try connection.execute("CREATE TABLE v (i INTEGER, r REAL, t TEXT, b BLOB, n TEXT)")
            try connection.run("INSERT INTO v VALUES (?, ?, ?, ?, ?)", 42, 2.5, "it's \"quoted\"; DROP TABLE v", blob, optional)
            return try connection.queryOne("SELECT * FROM v")
        }
        #expect(row?.int("i") == 42 && row?.double("r") == 2.5)
        #expect(row?.string("t") == "it's \"quoted\"; DROP TABLE v")
        #expect(row?.data("b") == blob && row?["n"] == .null)
    }

    @Test("the wrong number of parameters is an error, not a silent NULL")
    func parameterCount() async throws {
        let database = try SQLiteDatabase(path: temporaryPath())
        await #expect(throws: SQLiteError.self) {
            try await database.write { try $0.run("SELECT ?, ?", 1) }
        }
    }

    @Test("unique violations are recognisable")
    func unique() async throws {
        let database = try SQLiteDatabase(path: temporaryPath())
        try await database.write { try $0.execute("CREATE TABLE u (k TEXT PRIMARY KEY)") }
        try await database.write { try $0.run("INSERT INTO u VALUES (?)", "x") }
        do {
            try await database.write { try $0.run("INSERT INTO u VALUES (?)", "x") }
            Issue.record("expected a constraint error")
        } catch let error as SQLiteError {
            #expect(error.isUniqueViolation && error.isConstraintViolation)
        }
    }

    @Test("the migrator applies files in order once, and is idempotent")
    func migrator() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "CREATE TABLE b (id TEXT);".write(to: folder.appendingPathComponent("0002_b.sql"), atomically: true, encoding: .utf8)
        try "CREATE TABLE a (id TEXT);".write(to: folder.appendingPathComponent("0001_a.sql"), atomically: true, encoding: .utf8)
        let database = try SQLiteDatabase(path: temporaryPath())
        let migrator = try Migrator(directory: folder)
        #expect(migrator.migrations.map(\.id) == ["0001_a", "0002_b"])
        #expect(try database.withWriterBlocking { try migrator.migrate($0) } == ["0001_a", "0002_b"])
        #expect(try database.withWriterBlocking { try migrator.migrate($0) } == [])
        #expect(try database.withWriterBlocking { try migrator.pending($0) } == [])
        let recorded = try await database.read { try $0.query("SELECT id, checksum FROM schema_migrations ORDER BY id") }
        #expect(recorded.map { $0.string("id") } == ["0001_a", "0002_b"])
        #expect(recorded.first?.string("checksum") == Migration(id: "0001_a", number: 1, sql: "CREATE TABLE a (id TEXT);").checksum)
    }

    @Test("a migration changed after it was applied stops the migrator before it applies anything")
    func checksum() throws {
        let database = try SQLiteDatabase(path: temporaryPath())
        let original = Migrator(migrations: [Migration(id: "0001_a", number: 1, sql: "CREATE TABLE a (id TEXT);")])
        try database.withWriterBlocking { _ = try original.migrate($0) }
        let edited = Migrator(migrations: [
            Migration(id: "0001_a", number: 1, sql: "CREATE TABLE a (id TEXT, extra TEXT);"),
            Migration(id: "0002_b", number: 2, sql: "CREATE TABLE b (id TEXT);"),
        ])
        #expect {
            try database.withWriterBlocking { _ = try edited.migrate($0) }
        } throws: { error in
            guard case MigrationError.checksumMismatch(let id, _, _) = error else { return false }
            return id == "0001_a"
        }
        #expect(try database.withWriterBlocking { try $0.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'b'").int } == 0)
    }

    @Test("a failing migration leaves nothing half-applied")
    func failingMigration() throws {
        let database = try SQLiteDatabase(path: temporaryPath())
        let broken = Migrator(migrations: [Migration(id: "0001_x", number: 1, sql: "CREATE TABLE x (id TEXT); CREATE TABLE oops (;")])
        #expect(throws: MigrationError.self) { try database.withWriterBlocking { _ = try broken.migrate($0) } }
        #expect(try database.withWriterBlocking { try $0.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'x'").int } == 0)
    }

    @Test("badly named migration files are refused")
    func badName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "SELECT 1;".write(to: folder.appendingPathComponent("initial.sql"), atomically: true, encoding: .utf8)
        #expect(throws: MigrationError.badFileName("initial.sql")) { _ = try Migrator(directory: folder) }
    }

    @Test("the project's own Migrations folder applies cleanly")
    func projectMigrations() throws {
        let migrator = try Migrator(directory: try Migrator.locateDirectory(configured: nil))
        #expect(!migrator.migrations.isEmpty)
        let database = try SQLiteDatabase(path: temporaryPath())
        #expect(try database.withWriterBlocking { try migrator.migrate($0) }.count == migrator.migrations.count)
    }

    @Test("the journal file's migrations build the journal tables column for column as the main schema has them")
    func journalFileSchemaMatchesMainSchema() throws {
        let folder = try Migrator.locateDirectory(configured: nil)
        let main = try SQLiteDatabase(path: temporaryPath())
        let journal = try SQLiteDatabase(path: temporaryPath())
        try main.withWriterBlocking { _ = try Migrator(directory: folder).migrate($0) }
        let applied = try journal.withWriterBlocking { try Migrator(directory: Migrator.journalDirectory(inside: folder)).migrate($0) }
        #expect(!applied.isEmpty)
        func shape(_ database: SQLiteDatabase) throws -> [String] {
            try database.withWriterBlocking { connection in
                var lines: [String] = []
                for table in ["journal", "journal_evictions", "journal_bodies"] {
                    for column in try connection.query("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?) ORDER BY cid", table) {
                        lines.append("\(table) " + column.values.map { $0.string ?? $0.int.map(String.init) ?? "NULL" }.joined(separator: " "))
                    }
                }
                for index in try connection.query("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND tbl_name LIKE 'journal%' AND sql IS NOT NULL ORDER BY name") {
                    lines.append("index " + index.values.compactMap(\.string).joined(separator: " "))
                }
                return lines
            }
        }
        let mainShape = try shape(main)
        #expect(mainShape.count > 20) // both tables and the index were found at all
        #expect(try shape(journal) == mainShape)
    }
}

@Suite("Typed rows")
struct TypedRowTests {
    struct Widget: RowDecodable, Equatable {
        var id: Int
        var name: String
        var weight: Double?

        init(id: Int, name: String, weight: Double?) {
            self.id = id
            self.name = name
            self.weight = weight
        }

        init(row: Row) throws {
            id = try row.decode("id")
            name = try row.decode("name")
            weight = try row.decodeIfPresent("weight")
        }
    }

    private func connection() throws -> any StoreConnection {
        let connection = try SQLiteConnection(path: ":memory:")
        try connection.run("CREATE TABLE widgets (id INTEGER PRIMARY KEY, name TEXT, weight REAL)")
        try connection.run("INSERT INTO widgets (id, name, weight) VALUES (1, 'bolt', 2.5), (2, 'nut', NULL)")
        return connection
    }

    @Test("records decode from rows, NULL becomes nil only where the record allows it")
    func decodes() throws {
        let widgets = try connection().fetchAll(Widget.self, "SELECT id, name, weight FROM widgets ORDER BY id")
        #expect(widgets == [Widget(id: 1, name: "bolt", weight: 2.5), Widget(id: 2, name: "nut", weight: nil)])
    }

    @Test("a missing column, a NULL where a value is required, and a wrong type all throw")
    func schemaDriftThrows() throws {
        let connection = try connection()
        #expect(throws: RowDecodingError.missingColumn("name")) { try connection.fetchAll(Widget.self, "SELECT id, weight FROM widgets") }
        try connection.run("UPDATE widgets SET name = NULL WHERE id = 2")
        #expect(throws: RowDecodingError.unexpectedNull("name")) { try connection.fetchAll(Widget.self, "SELECT id, name, weight FROM widgets") }
        #expect(throws: RowDecodingError.wrongType(column: "id", expected: "Int", found: "TEXT")) {
            try connection.fetchOne(Widget.self, "SELECT 'x' AS id, name, weight FROM widgets WHERE id = 1")
        }
    }

    @Test("a column of integers reads as the rows would decode: reals without a fraction pass, NULL and text throw")
    func integerColumn() throws {
        let connection = try connection()
        #expect(try connection.integers("SELECT id FROM widgets ORDER BY id") == [1, 2])
        #expect(try connection.integers("SELECT id FROM widgets WHERE id > ?", 5) == [])
        #expect(try connection.integers("SELECT 4.0 AS n UNION ALL SELECT 7") == [4, 7])
        #expect(throws: RowDecodingError.unexpectedNull("weight")) { try connection.integers("SELECT weight FROM widgets ORDER BY id DESC") }
        #expect(throws: RowDecodingError.wrongType(column: "name", expected: "Int", found: "TEXT")) { try connection.integers("SELECT name FROM widgets") }
        #expect(throws: RowDecodingError.wrongType(column: "weight", expected: "Int", found: "REAL")) { try connection.integers("SELECT weight FROM widgets WHERE id = 1") }
    }

    @Test("rows handed one by one are the rows a query returns, and a row kept keeps its values while later rows are read")
    func rowByRow() throws {
        let connection = try connection()
        try connection.run("INSERT INTO widgets (id, name, weight) VALUES (3, 'washer', 0.5), (4, NULL, 7)")
        let sql = "SELECT id, name, weight FROM widgets WHERE id >= ? ORDER BY id"
        var kept: [Row] = []
        try connection.forEachRow(sql, bindings: [2]) { kept.append($0) }
        let queried = try connection.query(sql, 2)
        #expect(kept.map(\.values) == queried.map(\.values) && kept.count == 3)
        #expect(kept.first?.values == [.integer(2), .text("nut"), .null] && kept.map(\.columns) == queried.map(\.columns))
        var none = 0
        try connection.forEachRow(sql, bindings: [99]) { _ in none += 1 }
        #expect(none == 0)
        // What `body` throws ends the read and reaches the caller; the statement is usable again after.
        struct Stop: Error {}
        var seen = 0
        #expect(throws: Stop.self) {
            try connection.forEachRow(sql, bindings: [1]) { _ in
                seen += 1; throw Stop()
            }
        }
        #expect(seen == 1)
        #expect(try connection.query(sql, 1).count == 4)
    }

    @Test("values bound without SQLBindable store every storage class; a wrong count throws and binds nothing")
    func valueBinding() throws {
        let connection = try connection()
        let blob = Data([0, 1, 254, 255])
        let changed = try connection.run(
            "INSERT INTO widgets (id, name, weight) VALUES (?, ?, ?), (?, ?, ?)",
            values: [.integer(7), .text("it's"), .real(1.25), .integer(8), .blob(blob), .null])
        #expect(changed == 2)
        let rows = try connection.query("SELECT id, name, weight FROM widgets WHERE id >= 7 ORDER BY id")
        #expect(rows.map(\.values) == [[.integer(7), .text("it's"), .real(1.25)], [.integer(8), .blob(blob), .null]])
        #expect(throws: SQLiteError.self) { try connection.run("INSERT INTO widgets (id, name) VALUES (?, ?)", values: [.integer(9)]) }
        #expect(try connection.integers("SELECT count(*) FROM widgets") == [4])
    }
}
