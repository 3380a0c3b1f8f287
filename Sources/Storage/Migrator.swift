import Foundation

/// One SQL migration file, `NNNN_name.sql`, for either database: the SQLite files in
/// `Migrations/` and the PostgreSQL ones in `Migrations/postgres/` share ids, numbering, checksum
/// and errors, and one `Migrator` applies either over the store protocol.
public struct Migration: Sendable, Equatable {
    /// The file name without `.sql`, e.g. `0001_core`; recorded once applied.
    public let id: String
    /// The leading number, which orders migrations.
    public let number: Int
    /// The file's SQL.
    public let sql: String
    /// SHA-256 of the SQL, to detect a file edited after it was applied.
    public let checksum: String

    /// Creates a migration from its file name and contents.
    public init(id: String, number: Int, sql: String) {
        self.id = id
        self.number = number
        self.sql = sql
        self.checksum = SHA256Digest.hex(Data(sql.utf8))
    }

    /// A migration from its id (`NNNN_name`) and SQL; throws `.badFileName` when the id is not `NNNN_name`.
    public init(id: String, sql: String) throws(MigrationError) {
        guard let underscore = id.firstIndex(of: "_"), underscore > id.startIndex, id[..<underscore].allSatisfy(\.isASCII),
            id[..<underscore].allSatisfy(\.isNumber), let number = Int(id[..<underscore])
        else {
            throw .badFileName(id + ".sql")
        }
        self.init(id: id, number: number, sql: sql)
    }

    /// The `.sql` files of `directory`, in order; sub-folders (another backend's files, the
    /// journal's) are not read. Throws on a missing folder, a bad name or a shared number.
    public static func files(in directory: URL) throws -> [Migration] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MigrationError.folderNotFound([directory.path])
        }
        var seen = Set<Int>()
        var migrations: [Migration] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".sql") {
            let url = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let migration = try Migration(id: String(name.dropLast(4)), sql: try String(contentsOf: url, encoding: .utf8))
            guard seen.insert(migration.number).inserted else { throw MigrationError.duplicateNumber(migration.number) }
            migrations.append(migration)
        }
        return migrations.sorted { $0.number < $1.number }
    }

    /// Throws `.unmatched` unless both folders hold exactly the same migration ids (every schema
    /// change is written for both databases).
    public static func checkParity(sqlite: URL, postgres: URL) throws {
        let sqliteIDs = Set(try files(in: sqlite).map(\.id))
        let postgresIDs = Set(try files(in: postgres).map(\.id))
        guard sqliteIDs == postgresIDs else {
            throw MigrationError.unmatched(
                onlySQLite: sqliteIDs.subtracting(postgresIDs).sorted(), onlyPostgres: postgresIDs.subtracting(sqliteIDs).sorted())
        }
    }
}

/// Why migrating failed.
public enum MigrationError: Error, CustomStringConvertible, Equatable {
    /// No migrations folder was found.
    case folderNotFound([String])
    /// A file in the folder is not named `NNNN_name.sql`.
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
        case .folderNotFound(let tried) where tried.count == 1: return "no migrations folder at \(tried[0])"
        case .folderNotFound(let tried):
            return "no Migrations folder found (tried: \(tried.joined(separator: ", "))); pass --migrations PATH or set UNDERSTUDY_MIGRATIONS"
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

/// Applies migration files in order over any store connection — SQLite's `Migrations/`, the
/// journal's `Migrations/journal/`, PostgreSQL's `Migrations/postgres/` — each in its own
/// transaction, recording its id and checksum in `schema_migrations`. A changed applied file
/// refuses before anything is applied; a failing one applies nothing. Every step holds the
/// migration lock (PostgreSQL's transaction-scoped advisory lock; SQLite's write transaction is
/// already exclusive), so instances starting together on one database apply each file once.
public struct Migrator: Sendable {
    /// The migrations found, in order.
    public let migrations: [Migration]
    /// The advisory lock key every Understudy instance takes while migrating ("UNDRSTDY" in ASCII).
    public static let lockKey: Int64 = 0x554E_4452_5354_4459

    /// A migrator over explicit migrations (tests).
    public init(migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.number < $1.number }
    }

    /// A migrator over the `.sql` files in `directory`.
    public init(directory: URL) throws {
        self.init(migrations: try Migration.files(in: directory))
    }

    /// The migrations of the request journal's own SQLite file, inside the main folder.
    public static func journalDirectory(inside migrations: URL) -> URL { migrations.appendingPathComponent("journal") }

    /// The PostgreSQL folder inside a migrations folder: `Migrations/postgres`.
    public static func postgresDirectory(inside migrations: URL) -> URL { migrations.appendingPathComponent("postgres") }

    /// Throws `.unmatched` unless both folders hold exactly the same migration ids.
    public static func checkParity(sqlite: URL, postgres: URL) throws { try Migration.checkParity(sqlite: sqlite, postgres: postgres) }

    /// Finds the migrations folder: `configured` if given, else `Migrations/` in the working
    /// directory, else the folder baked in at build time (this package's `Migrations/`).
    public static func locateDirectory(configured: String?) throws -> URL {
        var candidates: [String] = []
        if let configured, !configured.isEmpty { candidates.append(configured) }
        candidates.append(FileManager.default.currentDirectoryPath + "/Migrations")
        // Sources/Storage/Migrator.swift → package root.
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent("Migrations").path)
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                return URL(fileURLWithPath: candidate)
            }
            if configured != nil && candidate == configured { break } // an explicit path that is missing is an error
        }
        throw MigrationError.folderNotFound(candidates)
    }

    /// Applies pending migrations and returns the ids this call applied (not those another
    /// instance applied meanwhile). Throws before applying anything if an applied file changed.
    @discardableResult
    public func migrate(_ connection: any StoreConnection) throws -> [String] {
        try connection.transaction {
            try connection.lock(key: Self.lockKey)
            try connection.executeScript(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    id TEXT PRIMARY KEY,
                    checksum TEXT NOT NULL,
                    applied_at TEXT NOT NULL
                )
                """)
            try verify(applied(connection))
        }
        var done: [String] = []
        for migration in migrations {
            let appliedHere: Bool
            do {
                appliedHere = try connection.transaction {
                    try connection.lock(key: Self.lockKey)
                    // Another instance may have applied it while this one waited for the lock.
                    let applied = try applied(connection)
                    try verify(applied)
                    guard applied[migration.id] == nil else { return false }
                    try connection.executeScript(migration.sql)
                    try connection.run(
                        "INSERT INTO schema_migrations (id, checksum, applied_at) VALUES (?, ?, ?)",
                        migration.id, migration.checksum, Date().formatted(.iso8601))
                    return true
                }
            } catch let error as SQLiteError { // both backends report a failed statement as one (a lost connection is not)
                throw MigrationError.failed(id: migration.id, message: error.message)
            }
            if appliedHere { done.append(migration.id) }
        }
        return done
    }

    /// Ids of migrations not yet applied.
    public func pending(_ connection: any StoreConnection) throws -> [String] {
        let exists: String
        switch connection.dialect {
        case .sqlite: exists = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        case .postgres: exists = "SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename = 'schema_migrations' AND schemaname = current_schema()"
        }
        guard try connection.scalar(exists).int ?? 0 > 0 else { return migrations.map(\.id) }
        let applied = try applied(connection)
        return migrations.map(\.id).filter { applied[$0] == nil }
    }

    private func applied(_ connection: any StoreConnection) throws -> [String: String] {
        var applied: [String: String] = [:]
        for row in try connection.query("SELECT id, checksum FROM schema_migrations") {
            applied[try row.decode("id", as: String.self)] = try row.decode("checksum", as: String.self)
        }
        return applied
    }

    private func verify(_ applied: [String: String]) throws {
        for migration in migrations {
            if let recorded = applied[migration.id], recorded != migration.checksum {
                throw MigrationError.checksumMismatch(id: migration.id, applied: recorded, file: migration.checksum)
            }
        }
    }
}
