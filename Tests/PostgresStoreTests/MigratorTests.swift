import Foundation
import PostgresStore
import Storage
import TestPostgres
import Testing

/// The PostgreSQL migrations and their migrator: parity with SQLite's, the same schema, the same
/// checksum rules, and exactly-once application when two instances start together.
@Suite("PostgreSQL migrations")
struct MigratorTests {
    private static let sqliteFolder = TestPostgres.repository.appendingPathComponent("Migrations")
    private static let postgresFolder = Migrator.postgresDirectory(inside: sqliteFolder)

    private static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("pg-migrations-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: url.appendingPathComponent("postgres"), withIntermediateDirectories: true)
        return url
    }

    @Test("every SQLite migration has a PostgreSQL one with the same id, and vice versa")
    func parity() throws {
        try Migrator.checkParity(sqlite: Self.sqliteFolder, postgres: Self.postgresFolder)
        #expect(try Migration.files(in: Self.postgresFolder).count == (try Migrator(directory: Self.sqliteFolder)).migrations.count)
    }

    @Test("a migration's checksum, computed once for both databases, is what PostgreSQL's sha256 recorded before")
    func checksumsAgree() throws {
        let migrations = try Migration.files(in: Migrator.postgresDirectory(inside: Self.sqliteFolder))
        #expect(!migrations.isEmpty)
        let recorded = try TestPostgres.withConnection { connection throws -> [String] in
            // SHA-256 of the SQL's UTF-8 bytes in hex as PostgreSQL computes it: what databases migrated
            // before the checksum moved into `Migration` recorded.
            try migrations.map { try connection.queryOne("SELECT encode(sha256($1), 'hex') AS digest", [.bytes(Data($0.sql.utf8))])?.string("digest") ?? "" }
        }
        #expect(recorded == migrations.map(\.checksum))
    }

    @Test("a migration present for one backend only fails the parity check, either way round")
    func parityFailsOnAMissingFile() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["0001_core.sql", "0002_more.sql"] { try Data("SELECT 1;".utf8).write(to: folder.appendingPathComponent(name)) }
        try Data("SELECT 1;".utf8).write(to: folder.appendingPathComponent("postgres/0001_core.sql"))
        try Data("SELECT 1;".utf8).write(to: folder.appendingPathComponent("postgres/0003_extra.sql"))
        #expect(throws: MigrationError.unmatched(onlySQLite: ["0002_more"], onlyPostgres: ["0003_extra"])) {
            try Migrator.checkParity(sqlite: folder, postgres: folder.appendingPathComponent("postgres"))
        }
        // The SQLite migrator ignores the postgres/ sub-folder.
        #expect(try Migrator(directory: folder).migrations.map(\.id) == ["0001_core", "0002_more"])
    }

    @Test("both backends' migrations build the same tables, columns (type, NOT NULL, default) and indexes")
    func schemaEquivalence() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        let sqlite = try SQLiteConnection(path: file)
        try Migrator(directory: Self.sqliteFolder).migrate(sqlite)
        // One line per column: name, PostgreSQL type, NOT NULL (SQLite's primary keys count: PostgreSQL's are), default or not.
        let types = ["INTEGER": "bigint", "REAL": "double precision", "TEXT": "text", "BLOB": "bytea"]
        var sqliteTables: [String: [String]] = [:]
        for table in try sqlite.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").compactMap({ $0.string("name") }) {
            sqliteTables[table] = try sqlite.query("PRAGMA table_info(\"\(table)\")").map { column in
                let declared = column.string("type") ?? ""
                let notNull = column["notnull"].int == 1 || (column["pk"].int ?? 0) > 0
                return "\(column.string("name") ?? "") \(types[declared] ?? declared) \(notNull ? "not null" : "null") \(column["dflt_value"].isNull ? "-" : "default")"
            }.sorted()
        }
        let sqliteIndexes = Set(try sqlite.query("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%'").compactMap { $0.string("name") })
        try TestPostgres.withConnection { connection in
            try Migrator(directory: Self.postgresFolder).migrate(connection)
            var postgresTables: [String: [String]] = [:]
            for row in try connection.query(
                """
                SELECT table_name, column_name, data_type, is_nullable, column_default IS NOT NULL AS has_default
                FROM information_schema.columns WHERE table_schema = 'public'
                """) where row.string("column_name") != "rowid"
            { // PostgreSQL's stand-in for SQLite's implicit rowid
                let line =
                    "\(row.string("column_name")!) \(row.string("data_type")!) \(row.string("is_nullable") == "NO" ? "not null" : "null") \(row.int("has_default") == 1 ? "default" : "-")"
                postgresTables[row.string("table_name")!, default: []].append(line)
            }
            #expect(sqliteTables.count > 40)
            #expect(
                Set(sqliteTables.keys).symmetricDifference(postgresTables.keys).isEmpty,
                "tables only in SQLite: \(Set(sqliteTables.keys).subtracting(postgresTables.keys).sorted()); only in PostgreSQL: \(Set(postgresTables.keys).subtracting(sqliteTables.keys).sorted())"
            )
            for (table, columns) in sqliteTables {
                #expect(postgresTables[table]?.sorted() == columns, "\(table): SQLite \(columns) vs PostgreSQL \(postgresTables[table]?.sorted() ?? [])")
            }
            // Named indexes (not those PostgreSQL makes for primary keys and UNIQUE constraints).
            let postgresIndexes = Set(
                try connection.query(
                    """
                    SELECT indexname FROM pg_indexes i WHERE schemaname = 'public'
                    AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)
                    """
                ).compactMap { $0.string("indexname") })
            #expect(sqliteIndexes.count > 30)
            #expect(
                sqliteIndexes == postgresIndexes,
                "only in SQLite: \(sqliteIndexes.subtracting(postgresIndexes).sorted()); only in PostgreSQL: \(postgresIndexes.subtracting(sqliteIndexes).sorted())")
        }
    }

    @Test("migrate applies everything once, records checksums, and is then up to date")
    func migrate() throws {
        try TestPostgres.withConnection { connection in
            let migrator = try Migrator(directory: Self.postgresFolder)
            #expect(try migrator.pending(connection) == migrator.migrations.map(\.id))
            #expect(try migrator.migrate(connection) == migrator.migrations.map(\.id))
            #expect(try migrator.migrate(connection) == [])
            #expect(try migrator.pending(connection) == [])
            // The checksums are SHA-256 of the file bytes, as the SQLite migrator records them.
            let sqlite = try Migrator(directory: Self.sqliteFolder)
            let first = try #require(try connection.queryOne("SELECT checksum FROM schema_migrations WHERE id = '0001_core'")?.string("checksum"))
            #expect(first == SHA256Digest.hex(Data(migrator.migrations[0].sql.utf8)))
            #expect(first != sqlite.migrations[0].checksum) // different files, different sums
        }
    }

    @Test("an applied migration whose file changed refuses, applying nothing")
    func changedFileRefuses() throws {
        try TestPostgres.withConnection { connection in
            let original = try Migration(id: "0001_a", sql: "CREATE TABLE a (x BIGINT);")
            try Migrator(migrations: [original]).migrate(connection)
            let edited = try Migration(id: "0001_a", sql: "CREATE TABLE a (x BIGINT, y BIGINT);")
            let next = try Migration(id: "0002_b", sql: "CREATE TABLE b (x BIGINT);")
            do {
                try Migrator(migrations: [edited, next]).migrate(connection)
                Issue.record("a changed applied migration must refuse")
            } catch let error as MigrationError {
                guard case .checksumMismatch(let id, _, _) = error else { Issue.record("\(error)"); return }
                #expect(id == "0001_a")
            }
            #expect(try connection.queryOne("SELECT to_regclass('b') IS NULL AS absent")?.int("absent") == 1)
        }
    }

    @Test("a failing migration applies none of its statements and is not recorded")
    func failedMigrationAppliesNothing() throws {
        try TestPostgres.withConnection { connection in
            let good = try Migration(id: "0001_good", sql: "CREATE TABLE good (x BIGINT);")
            let bad = try Migration(id: "0002_bad", sql: "CREATE TABLE half (x BIGINT); INSERT INTO nowhere VALUES (1);")
            do {
                try Migrator(migrations: [good, bad]).migrate(connection)
                Issue.record("the bad migration must fail")
            } catch let error as MigrationError {
                guard case .failed(let id, let message) = error else { Issue.record("\(error)"); return }
                #expect(id == "0002_bad")
                #expect(message.contains("nowhere"))
            }
            #expect(try connection.queryOne("SELECT to_regclass('half') IS NULL AS absent")?.int("absent") == 1)
            #expect(try connection.query("SELECT id FROM schema_migrations ORDER BY id").compactMap { $0.string("id") } == ["0001_good"])
        }
    }

    @Test("the migrator waits while another instance holds the migration lock")
    func waitsForTheLock() throws {
        try TestPostgres.withDatabase { location, _ in
            let holder = try PostgresConnection(location: location)
            try holder.executeScript("BEGIN")
            try holder.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Migrator.lockKey)])
            let migrator = Migrator(migrations: [try Migration(id: "0001_a", sql: "CREATE TABLE a (x BIGINT);")])
            let handoff = Handoff(connection: try PostgresConnection(location: location))
            let results = ConcurrentResults()
            let finished = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                results.add(Result { try migrator.migrate(handoff.connection) })
                finished.signal()
            }
            // The server's lock table is the event: the migrator's backend appears there, waiting.
            var waiting = false
            for _ in 0..<500 where !waiting {
                waiting = try holder.queryOne("SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")?.int("n") == 1
                if !waiting { usleep(10_000) }
            }
            #expect(waiting, "the migrator never waited for the advisory lock")
            #expect(results.all.isEmpty)
            #expect(try holder.queryOne("SELECT to_regclass('a') IS NULL AS absent")?.int("absent") == 1)
            try holder.executeScript("COMMIT")
            finished.wait()
            #expect(try results.all.first?.get() == ["0001_a"])
        }
    }

    @Test("two instances migrating at once apply each migration exactly once")
    func concurrent() throws {
        try TestPostgres.withDatabase { location, _ in
            let migrator = try Migrator(directory: Self.postgresFolder)
            let results = ConcurrentResults()
            let group = DispatchGroup()
            for _ in 0..<2 {
                // Each "instance" connects first, so both are ready before either starts.
                let handoff = Handoff(connection: try PostgresConnection(location: location))
                DispatchQueue.global().async(group: group) {
                    results.add(Result { try migrator.migrate(handoff.connection) })
                }
            }
            group.wait()
            let applied = try results.all.map { try $0.get() }
            #expect(applied.count == 2)
            #expect(applied.flatMap { $0 }.sorted() == migrator.migrations.map(\.id))
            let check = try PostgresConnection(location: location)
            #expect(try check.queryOne("SELECT count(*) AS n, count(DISTINCT id) AS d FROM schema_migrations")?.int("n") == Int64(migrator.migrations.count))
        }
    }
}

/// A connection handed to exactly one worker thread, which alone uses it from then on.
private struct Handoff: @unchecked Sendable {
    let connection: PostgresConnection
}

/// Results gathered from concurrent workers.
private final class ConcurrentResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<[String], any Error>] = []

    func add(_ result: Result<[String], any Error>) { lock.withLock { results.append(result) } }
    var all: [Result<[String], any Error>] { lock.withLock { results } }
}
