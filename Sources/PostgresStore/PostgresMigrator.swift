import Foundation

/// One PostgreSQL migration file, `Migrations/postgres/NNNN_name.sql`.
public struct PostgresMigration: Sendable, Equatable {
    /// The file name without `.sql`, e.g. `0001_core`: the same id as its SQLite counterpart.
    public let id: String
    /// The leading number, which orders migrations.
    public let number: Int
    /// The file's SQL.
    public let sql: String

    /// A migration from its id (`NNNN_name`) and SQL; throws when the id is not `NNNN_name`.
    public init(id: String, sql: String) throws {
        guard let underscore = id.firstIndex(of: "_"), underscore > id.startIndex, id[..<underscore].allSatisfy(\.isASCII),
            id[..<underscore].allSatisfy(\.isNumber), let number = Int(id[..<underscore])
        else {
            throw PostgresMigrationError.badFileName(id + ".sql")
        }
        self.id = id
        self.number = number
        self.sql = sql
    }

    /// The `.sql` files of `directory` (sub-folders ignored), in order; throws on a bad name or a shared number.
    public static func files(in directory: URL) throws -> [PostgresMigration] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw PostgresMigrationError.folderNotFound(directory.path)
        }
        var seen = Set<Int>()
        var migrations: [PostgresMigration] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".sql") {
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let migration = try PostgresMigration(id: String(name.dropLast(4)), sql: try String(contentsOf: url, encoding: .utf8))
            guard seen.insert(migration.number).inserted else { throw PostgresMigrationError.duplicateNumber(migration.number) }
            migrations.append(migration)
        }
        return migrations.sorted { $0.number < $1.number }
    }
}

/// Why migrating a PostgreSQL database failed.
public enum PostgresMigrationError: Error, CustomStringConvertible, Equatable {
    /// The migrations folder does not exist.
    case folderNotFound(String)
    /// A file is not named `NNNN_name.sql`.
    case badFileName(String)
    /// Two files share a number.
    case duplicateNumber(Int)
    /// An applied migration's file changed since it was applied.
    case checksumMismatch(id: String, applied: String, file: String)
    /// A migration's SQL failed; nothing of it was applied.
    case failed(id: String, message: String)
    /// The SQLite and PostgreSQL folders do not hold the same migration ids.
    case unmatched(onlySQLite: [String], onlyPostgres: [String])

    /// A sentence for the operator.
    public var description: String {
        switch self {
        case .folderNotFound(let path): return "no PostgreSQL migrations folder at \(path)"
        case .badFileName(let name): return "migration file \(name) is not named NNNN_name.sql"
        case .duplicateNumber(let number): return "two migration files share the number \(number)"
        case .checksumMismatch(let id, let applied, let file):
            return "migration \(id) was changed after it was applied (applied checksum \(applied.prefix(12))…, file \(file.prefix(12))…); "
                + "restore the file or start from a fresh database"
        case .failed(let id, let message): return "migration \(id) failed: \(message)"
        case .unmatched(let onlySQLite, let onlyPostgres):
            var parts: [String] = []
            if !onlySQLite.isEmpty { parts.append("no PostgreSQL migration for \(onlySQLite.joined(separator: ", "))") }
            if !onlyPostgres.isEmpty { parts.append("no SQLite migration for \(onlyPostgres.joined(separator: ", "))") }
            return parts.joined(separator: "; ")
        }
    }
}

/// Applies `Migrations/postgres/NNNN_name.sql` in order, as the SQLite `Migrator` does: each in
/// its own transaction, recorded in `schema_migrations` with its SHA-256; a changed applied file
/// refuses; a failing one applies nothing. Every step holds a transaction-scoped advisory lock, so
/// instances starting together apply each migration exactly once.
public struct PostgresMigrator: Sendable {
    /// The migrations, in order.
    public let migrations: [PostgresMigration]
    /// The advisory lock key every Understudy instance takes while migrating ("UNDRSTDY" in ASCII).
    public static let lockKey: Int64 = 0x554E_4452_5354_4459

    /// A migrator over explicit migrations (tests).
    public init(migrations: [PostgresMigration]) {
        self.migrations = migrations.sorted { $0.number < $1.number }
    }

    /// A migrator over the `.sql` files in `directory` (the `postgres` folder itself).
    public init(directory: URL) throws {
        self.init(migrations: try PostgresMigration.files(in: directory))
    }

    /// The PostgreSQL folder inside a migrations folder: `Migrations/postgres`.
    public static func directory(inside migrations: URL) -> URL { migrations.appendingPathComponent("postgres") }

    /// Throws `.unmatched` unless both folders hold exactly the same migration ids.
    public static func checkParity(sqlite: URL, postgres: URL) throws {
        let sqliteIDs = Set(try PostgresMigration.files(in: sqlite).map(\.id))
        let postgresIDs = Set(try PostgresMigration.files(in: postgres).map(\.id))
        guard sqliteIDs == postgresIDs else {
            throw PostgresMigrationError.unmatched(
                onlySQLite: sqliteIDs.subtracting(postgresIDs).sorted(),
                onlyPostgres: postgresIDs.subtracting(sqliteIDs).sorted())
        }
    }

    /// Applies pending migrations and returns the ids this call applied (not those another
    /// instance applied meanwhile). Throws before applying anything if an applied file changed.
    @discardableResult
    public func migrate(_ connection: PostgresConnection) throws -> [String] {
        var checksums: [String: String] = [:]
        for migration in migrations { checksums[migration.id] = try Self.checksum(migration.sql, on: connection) }
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
                throw PostgresMigrationError.failed(id: migration.id, message: error.message)
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

    /// SHA-256 of the SQL's UTF-8 bytes in hex, as the SQLite migrator records it.
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
                throw PostgresMigrationError.checksumMismatch(id: migration.id, applied: recorded, file: file)
            }
        }
    }
}
