import Foundation
import PostgresStore
import Storage
import TestPostgres
import Testing

/// SQLite SQL as the stores write it, translated for PostgreSQL, checked as text and by running
/// it on the real server (with the PostgreSQL migrations applied where it reads store tables).
@Suite("SQL dialect")
struct DialectTests {
    private func postgres(_ sql: String) throws -> String { try SQLDialect.postgres.translate(sql) }

    @Test("SQLite's dialect is the SQL as written")
    func sqliteIsIdentity() throws {
        let sql = "INSERT OR IGNORE INTO t (a) VALUES (?) -- ?"
        #expect(try SQLDialect.sqlite.translate(sql) == sql)
    }

    @Test("placeholders are numbered, never inside strings, quoted names or comments")
    func placeholders() throws {
        #expect(
            try postgres("SELECT * FROM t WHERE a = ? AND b = '?' AND \"c?\" = ? -- ?\n/* ? */ AND d = ?")
                == "SELECT * FROM t WHERE a = $1 AND b = '?' AND \"c?\" = $2 -- ?\n/* ? */ AND d = $3")
        #expect(try postgres("SELECT 'it''s ?', ?") == "SELECT 'it''s ?', $1")
        // Numbered ones keep their number; a bare one follows the highest so far, as in SQLite.
        #expect(try postgres("VALUES (?1, ?2, ?5, ?3), (?)") == "VALUES ($1, $2, $5, $3), ($6)")
    }

    @Test("INSERT OR IGNORE becomes ON CONFLICT DO NOTHING, before RETURNING and per statement")
    func insertOrIgnore() throws {
        #expect(try postgres("INSERT OR IGNORE INTO t (a) VALUES (?)") == "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING")
        #expect(try postgres("insert or ignore into t (a) values (?), (?)\n") == "insert into t (a) values ($1), ($2) ON CONFLICT DO NOTHING\n")
        #expect(try postgres("INSERT OR IGNORE INTO t (a) VALUES (?) RETURNING a") == "INSERT INTO t (a) VALUES ($1) ON CONFLICT DO NOTHING RETURNING a")
        #expect(
            try postgres("INSERT OR IGNORE INTO t (a) VALUES (';'); INSERT INTO t (a) VALUES (2)")
                == "INSERT INTO t (a) VALUES (';') ON CONFLICT DO NOTHING; INSERT INTO t (a) VALUES (2)")
    }

    @Test("null-safe IS, typed IS NULL, IFNULL, scalar MIN/MAX, LIKE, BEGIN IMMEDIATE")
    func functions() throws {
        #expect(try postgres("WHERE app_id IS ? AND b IS NOT ? AND c IS NULL") == "WHERE app_id IS NOT DISTINCT FROM $1 AND b IS DISTINCT FROM $2 AND c IS NULL")
        #expect(try postgres("AND (? IS NULL OR user_id = ?)") == "AND ($1::text IS NULL OR user_id = $2)")
        #expect(try postgres("SELECT IFNULL(a, 0), ifnull(b, ?)") == "SELECT COALESCE(a, 0), COALESCE(b, $1)")
        #expect(
            try postgres("SET e = MIN(e, ?), f = MAX(f, g(1, 2)), n = MAX(id), m = min((a, b))") == "SET e = LEAST(e, $1), f = GREATEST(f, g(1, 2)), n = MAX(id), m = min((a, b))")
        #expect(try postgres("WHERE name LIKE ? AND x NOT LIKE 'a%'") == "WHERE name ILIKE $1 AND x NOT ILIKE 'a%'")
        #expect(try postgres("BEGIN IMMEDIATE") == "BEGIN")
        #expect(try postgres("SELECT datetime, changes FROM t") == "SELECT datetime, changes FROM t")
    }

    @Test(
        "constructs with no mechanical translation are refused by name",
        arguments: [
            ("SELECT * FROM journal WHERE path GLOB ?", "GLOB"),
            ("SELECT last_insert_rowid()", "LAST_INSERT_ROWID"), ("SELECT strftime('%s', 'now')", "STRFTIME"),
            ("INSERT OR REPLACE INTO t VALUES (1)", "INSERT OR REPLACE"), ("REPLACE INTO t VALUES (1)", "REPLACE INTO"),
            ("PRAGMA table_info(t)", "PRAGMA"), ("SELECT name FROM sqlite_master", "SQLITE_MASTER"),
            ("SELECT group_concat(a) FROM t", "GROUP_CONCAT"), ("SELECT julianday('now')", "JULIANDAY"),
            ("SELECT datetime('now')", "DATETIME"), ("ATTACH DATABASE 'x' AS y", "ATTACH"),
        ])
    func refused(_ sql: String, _ construct: String) {
        #expect(throws: SQLDialectError.self) { try postgres(sql) }
        do { _ = try postgres(sql) } catch let error as SQLDialectError { #expect(error.construct == construct) } catch { Issue.record("\(error)") }
    }

    @Test("the stores' statements, translated, run on PostgreSQL as they do on SQLite")
    func storeStatements() throws {
        try TestPostgres.withConnection { connection in
            let root = TestPostgres.repository.appendingPathComponent("Migrations")
            try Migrator(directory: Migrator.postgresDirectory(inside: root)).migrate(connection)
            func run(_ sql: String, _ values: [PostgresValue]) throws -> PostgresResult { try connection.execute(try postgres(sql), values) }
            _ = try run("INSERT INTO projects (id, name, created_at) VALUES (?, ?, ?)", [.text("p"), .text("P"), .text("2026-01-01")])
            // Asleep's chunk insert: a second identical upload is ignored.
            let chunk = "INSERT OR IGNORE INTO asleep_chunks (session_id, project_id, seq_num, size, sha256, received_at) VALUES (?, ?, ?, ?, ?, ?)"
            let values: [PostgresValue] = [.text("s"), .text("p"), .integer(0), .integer(10), .text("abc"), .double(1.5)]
            #expect(try run(chunk, values).affectedRows == 1)
            #expect(try run(chunk, values).affectedRows == 0)
            // Telematics' filtered listing with an optional user, NULL and not.
            _ = try run(
                "INSERT INTO telematics_batches (project_id, batch_id, user_id, sample_count, event_count, attention_event_count, received_at) VALUES (?, ?, ?, 0, 0, 0, ?)",
                [.text("p"), .text("b1"), .integer(7), .double(1)])
            let listing = "SELECT * FROM telematics_batches WHERE project_id = ? AND (? IS NULL OR user_id = ?) ORDER BY received_at, batch_id"
            #expect(try run(listing, [.text("p"), .null, .null]).rows.count == 1)
            #expect(try run(listing, [.text("p"), .integer(8), .integer(8)]).rows.isEmpty)
            #expect(try run(listing, [.text("p"), .integer(7), .integer(7)]).rows.count == 1)
            // Numbered placeholders, reused, as the multi-row sample insert writes them.
            _ = try run(
                "INSERT OR IGNORE INTO telematics_samples (project_id, user_id, ts_ms, latitude, longitude, batch_id) VALUES (?1, ?2, ?4, ?5, ?6, ?3), (?1, ?2, ?7, ?8, ?9, ?3)",
                [.text("p"), .integer(7), .text("b1"), .integer(1), .double(1), .double(2), .integer(2), .double(3), .double(4)])
            #expect(try connection.queryOne("SELECT count(*) AS n FROM telematics_samples")?.int("n") == 2)
            // WarpLink's null-safe app match and case-insensitive device id.
            _ = try run(
                "INSERT INTO warplink_installs (project_id, id, device_id, outcome, link_id, created_at) VALUES (?, ?, ?, 'new', 'l', 1)",
                [.text("p"), .text("i1"), .text("DEV-A")])
            let install = "SELECT * FROM warplink_installs WHERE project_id = ? AND device_id = ? COLLATE NOCASE AND link_id IS NOT NULL AND app_id IS ?"
            #expect(try run(install, [.text("p"), .text("dev-a"), .null]).rows.count == 1)
            #expect(try run(install, [.text("p"), .text("dev-a"), .text("app")]).rows.isEmpty)
            // WarrantyLife's NOCASE columns: unique and equal regardless of case.
            _ = try run(
                "INSERT INTO wl_users (project_id, id, email, token, created_at) VALUES (?, ?, ?, ?, ?)", [.text("p"), .text("u1"), .text("Ann@X.io"), .text("t"), .text("now")])
            #expect(try run("SELECT id FROM wl_users WHERE project_id = ? AND email = ?", [.text("p"), .text("ann@x.IO")]).rows.count == 1)
            #expect(throws: PostgresError.self) {
                _ = try run(
                    "INSERT INTO wl_users (project_id, id, email, token, created_at) VALUES (?, ?, ?, ?, ?)",
                    [.text("p"), .text("u2"), .text("ANN@x.io"), .text("t"), .text("now")])
            }
            // Telematics' token expiry: scalar MIN, and an upsert through excluded.
            _ = try run(
                "INSERT INTO telematics_token_pairs (project_id, id, user_id, access_token, access_expires, access_ttl_seconds, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [.text("p"), .text("t1"), .integer(7), .text("a"), .double(100), .double(60), .double(1)])
            _ = try run("UPDATE telematics_token_pairs SET access_expires = MIN(access_expires, ?) WHERE project_id = ? AND id = ?", [.double(50), .text("p"), .text("t1")])
            #expect(try connection.queryOne("SELECT access_expires FROM telematics_token_pairs")?.double("access_expires") == 50)
            let upsert = "INSERT INTO telematics_settings (project_id, settings) VALUES (?, ?) ON CONFLICT (project_id) DO UPDATE SET settings = excluded.settings"
            _ = try run(upsert, [.text("p"), .text("{}")])
            _ = try run(upsert, [.text("p"), .text("{\"a\":1}")])
            #expect(try connection.queryOne("SELECT settings FROM telematics_settings")?.string("settings") == "{\"a\":1}")
            // The outbox's AUTOINCREMENT id comes back through RETURNING (the variant for lastInsertRowID).
            let id = try run("INSERT INTO outbox (project_id, platform, kind, payload, created_at, updated_at) VALUES (?, 'x', 'mail', '{}', 'n', 'n') RETURNING id", [.text("p")])
            #expect(id.rows.first?.int("id") == 1)
        }
    }

    @Test("the GLOB variant matches what SQLite's GLOB matches")
    func glob() throws {
        let sqlite = try SQLiteConnection(path: ":memory:")
        let patterns = ["/warplink/*", "a[b", "[a-c]x", "/a?c", "*.json", "/x/[abc]*", "/x/[^abc]", "/p(1)+.$", "[]x]*", "*[", "/a\\b*", "exact"]
        let subjects = [
            "/warplink/v1/links", "/abc", "/a/c", "x.json", "x.jsonp", "/x/b1", "/x/d", "/x/a", "/p(1)+.$", "]yz", "x",
            "a[", "ab", "bx", "a[b", "/a\\bc", "exact", "EXACT", "", "/warplink",
        ]
        try TestPostgres.withConnection { connection in
            for pattern in patterns {
                let regex = SQLDialect.postgresRegex(fromGlob: pattern)
                for subject in subjects {
                    let expected = try sqlite.scalar("SELECT ? GLOB ?", subject, pattern).int == 1
                    let actual = try connection.queryOne("SELECT $1::text ~ $2 AS hit", [.text(subject), .text(regex)])?.int("hit") == 1
                    #expect(actual == expected, "\(subject) GLOB \(pattern) (regex \(regex))")
                }
            }
        }
    }
}
