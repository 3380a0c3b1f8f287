import Foundation
import Storage

/// The PostgreSQL name of a migration file: the same type as SQLite's (`Migration`).
public typealias PostgresMigration = Migration
/// The PostgreSQL name of a migration failure: the same type as SQLite's (`MigrationError`).
public typealias PostgresMigrationError = MigrationError

/// Applies `Migrations/postgres/NNNN_name.sql` in order, as the SQLite `Migrator` does: each in
/// its own transaction, recorded in `schema_migrations` with its SHA-256; a changed applied file
/// refuses; a failing one applies nothing. Every step holds a transaction-scoped advisory lock, so
/// instances starting together apply each migration exactly once.
public struct PostgresMigrator: Sendable {
    /// The migrations, in order.
    public let migrations: [Migration]
    /// The advisory lock key every Understudy instance takes while migrating ("UNDRSTDY" in ASCII).
    public static let lockKey: Int64 = 0x554E_4452_5354_4459

    /// A migrator over explicit migrations (tests).
    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.number < $1.number }
    }

    /// A migrator over the `.sql` files in `directory` (the `postgres` folder itself).
    public init(directory: URL) throws {
        self.init(migrations: try Migration.files(in: directory))
    }

    /// The PostgreSQL folder inside a migrations folder: `Migrations/postgres`.
    public static func directory(inside migrations: URL) -> URL { migrations.appendingPathComponent("postgres") }

    /// Throws `.unmatched` unless both folders hold exactly the same migration ids.
    public static func checkParity(sqlite: URL, postgres: URL) throws { try Migration.checkParity(sqlite: sqlite, postgres: postgres) }

    /// Applies pending migrations and returns the ids this call applied (not those another
    /// instance applied meanwhile). Throws before applying anything if an applied file changed.
    @discardableResult
    public func migrate(_ connection: PostgresConnection) throws -> [String] {
        var checksums: [String: String] = [:]
        for migration in migrations { checksums[migration.id] = migration.checksum }
        try connection.transaction {
            try lock(connection)
            try connection.executeScript(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    id TEXT PRIMARY KEY,
                    checksum TEXT NOT NULL,
                    applied_at TEXT NOT NULL
                )
                """)
            try verify(applied(connection), checksums)
        }
        var done: [String] = []
        for migration in migrations {
            let checksum = checksums[migration.id]!
            let appliedHere: Bool
            do {
                appliedHere = try connection.transaction {
                    try lock(connection)
                    // Another instance may have applied it while this one waited for the lock.
                    let applied = try applied(connection)
                    try verify(applied, checksums)
                    guard applied[migration.id] == nil else { return false }
                    try connection.executeScript(migration.sql)
                    try connection.execute(
                        "INSERT INTO schema_migrations (id, checksum, applied_at) VALUES ($1, $2, $3)",
                        [.text(migration.id), .text(checksum), .text(Date().formatted(.iso8601))])
                    return true
                }
            } catch let error as PostgresError where !error.isConnectionLost {
                throw MigrationError.failed(id: migration.id, message: error.message)
            }
            if appliedHere { done.append(migration.id) }
        }
        return done
    }

    /// Ids of migrations not yet applied.
    public func pending(_ connection: PostgresConnection) throws -> [String] {
        let exists = try connection.queryOne("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")?.int("present") ?? 0
        guard exists == 1 else { return migrations.map(\.id) }
        let applied = try applied(connection)
        return migrations.map(\.id).filter { applied[$0] == nil }
    }

    /// SHA-256 of the SQL's UTF-8 bytes in hex as PostgreSQL computes it: what databases migrated
    /// before the checksum moved into `Migration` recorded, so it must equal `Migration.checksum`.
    public static func checksum(_ sql: String, on connection: PostgresConnection) throws -> String {
        try connection.queryOne("SELECT encode(sha256($1), 'hex') AS digest", [.bytes(Data(sql.utf8))])?.string("digest") ?? ""
    }

    private func lock(_ connection: PostgresConnection) throws {
        try connection.execute("SELECT pg_advisory_xact_lock($1)", [.integer(Self.lockKey)])
    }

    private func applied(_ connection: PostgresConnection) throws -> [String: String] {
        var applied: [String: String] = [:]
        for row in try connection.query("SELECT id, checksum FROM schema_migrations") {
            if let id = row.string("id"), let checksum = row.string("checksum") { applied[id] = checksum }
        }
        return applied
    }

    private func verify(_ applied: [String: String], _ checksums: [String: String]) throws {
        for migration in migrations {
            if let recorded = applied[migration.id], let file = checksums[migration.id], recorded != file {
                throw MigrationError.checksumMismatch(id: migration.id, applied: recorded, file: file)
            }
        }
    }
}
