import Foundation
import Storage

/// A `PostgresConnection` speaking the stores' vocabulary: SQL written for SQLite is translated
/// (once per text), values and rows are converted, and failures are reported as the stores
/// expect them — a lost connection as `StoreUnavailableError` (503, never 500), a constraint
/// violation as the `SQLiteError` code SQLite would have raised, so a store catches one error type
/// whichever backend it runs on.
public final class PostgresStoreConnection: StoreConnection {
    /// The libpq connection underneath.
    public let connection: PostgresConnection
    private var translations: [String: String] = [:]
    private var layouts: [String: ColumnLayout] = [:]

    /// Connects to `location`.
    public init(location: PostgresLocation, connectTimeout: Int = 5) throws {
        connection = try Self.reporting(sql: nil) { try PostgresConnection(location: location, connectTimeout: connectTimeout) }
    }

    /// The stores' view of a connection already open (the `migrate` command's, tests').
    public init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// PostgreSQL's.
    public var dialect: SQLDialect { .postgres }

    /// Whether the connection is usable (false once the server went away).
    public var isConnected: Bool { connection.isConnected }

    /// Reconnects a lost connection; throws `StoreUnavailableError` while the server is still away.
    public func reconnect() throws {
        try Self.reporting(sql: nil) { try connection.reconnect() }
    }

    /// Runs a script written for PostgreSQL (a migration file) as is, in one round trip.
    public func executeScript(_ sql: String) throws {
        try Self.reporting(sql: nil) { try connection.executeScript(sql) }
    }

    /// Runs parameterless statements (translated) in one round trip.
    public func execute(_ sql: String) throws {
        let translated = try translated(sql)
        try Self.reporting(sql: sql) { try connection.executeScript(translated) }
    }

    /// Runs a statement and returns the rows it changed.
    @discardableResult
    public func run(_ sql: String, bindings: [any SQLBindable]) throws -> Int {
        let translated = try translated(sql)
        return try Self.reporting(sql: sql) { try connection.execute(translated, bindings.map(Self.value)).affectedRows }
    }

    /// Runs a query and returns its rows, with one column layout shared per statement.
    public func query(_ sql: String, bindings: [any SQLBindable]) throws -> [Row] {
        let translated = try translated(sql)
        let result = try Self.reporting(sql: sql) { try connection.execute(translated, bindings.map(Self.value)) }
        guard let first = result.rows.first else { return [] }
        let layout: ColumnLayout
        if let known = layouts[sql], known.names == first.columns {
            layout = known
        } else {
            layout = ColumnLayout(first.columns)
            layouts[sql] = layout
        }
        return result.rows.map { Row(layout: layout, values: $0.values.map(Self.value)) }
    }

    /// Runs a statement with values already converted.
    @discardableResult
    public func run(_ sql: String, values: [SQLValue]) throws -> Int {
        let translated = try translated(sql)
        return try Self.reporting(sql: sql) { try connection.execute(translated, values.map(Self.value)).affectedRows }
    }

    /// Hands `body` each row of the query; the result arrives whole from the server anyway, so this
    /// is `query` row by row.
    public func forEachRow(_ sql: String, bindings: [any SQLBindable], _ body: (Row) throws -> Void) throws {
        for row in try query(sql, bindings: bindings) { try body(row) }
    }

    /// The first column of every row as integers.
    public func integers(_ sql: String, bindings: [any SQLBindable]) throws -> [Int] {
        try query(sql, bindings: bindings).map { row in try row.decode(at: 0, as: Int.self) }
    }

    /// A transaction, or a savepoint inside one; `immediate` has no PostgreSQL meaning (row locks
    /// are taken as statements run).
    public func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T {
        try Self.reporting(sql: nil) { try connection.transaction(body) }
    }

    /// A read-only transaction on one snapshot for all its statements, as a SQLite read has.
    public func snapshot<T>(_ body: () throws -> T) throws -> T {
        try Self.reporting(sql: nil) { try connection.transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", body) }
    }

    /// Whether a transaction is open.
    public var isInTransaction: Bool { connection.isInTransaction }

    private func translated(_ sql: String) throws -> String {
        if let known = translations[sql] { return known }
        let translated = try SQLDialect.postgres.translate(sql)
        translations[sql] = translated
        return translated
    }

    static func value(_ binding: any SQLBindable) -> PostgresValue { value(binding.sqlValue) }

    static func value(_ value: SQLValue) -> PostgresValue {
        switch value {
        case .null: return .null
        case .integer(let value): return .integer(value)
        case .real(let value): return .double(value)
        case .text(let value): return .text(value)
        case .blob(let value): return .bytes(value)
        }
    }

    static func value(_ value: PostgresValue) -> SQLValue {
        switch value {
        case .null: return .null
        case .integer(let number): return .integer(number)
        case .double(let number): return .real(number)
        case .text(let text): return .text(text)
        case .bytes(let data): return .blob(data)
        }
    }

    /// Runs `body`, turning a `PostgresError` into what the stores catch. Errors thrown by the
    /// stores' own code inside a transaction body pass through untouched.
    static func reporting<T>(sql: String?, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError {
            throw storeError(error, sql: sql)
        }
    }

    /// The store-level error for a PostgreSQL failure.
    public static func storeError(_ error: PostgresError, sql: String?) -> any Error {
        if error.isConnectionLost { return StoreUnavailableError(reason: error.message) }
        return SQLiteError(code: sqliteCode(forSQLState: error.sqlState), message: sqliteMessage(error), sql: sql)
    }

    /// A constraint failure worded as SQLite words it (`UNIQUE constraint failed: apps.handle`), so
    /// what a user reads about a rejected import does not depend on the backend.
    static func sqliteMessage(_ error: PostgresError) -> String {
        let table = error.table ?? "?"
        switch error.sqlState {
        case "23505": return "UNIQUE constraint failed: " + error.keyColumns.map { "\(table).\($0)" }.joined(separator: ", ")
        case "23502": return "NOT NULL constraint failed: \(table).\(error.column ?? "?")"
        case "23514": return "CHECK constraint failed: \(error.constraint ?? table)"
        case "23503": return "FOREIGN KEY constraint failed"
        default: return error.message
        }
    }

    /// The SQLite extended result code for a SQLSTATE, where SQLite has one: constraints keep
    /// their kind (a unique clash stays a 409), a value of the wrong type is SQLite's datatype
    /// constraint; anything else is a store-level failure (-1).
    static func sqliteCode(forSQLState sqlState: String?) -> Int32 {
        switch sqlState {
        case "23505": return 2067 // SQLITE_CONSTRAINT_UNIQUE
        case "23503": return 787 // SQLITE_CONSTRAINT_FOREIGNKEY
        case "23502": return 1299 // SQLITE_CONSTRAINT_NOTNULL
        case "23514": return 275 // SQLITE_CONSTRAINT_CHECK
        case let state? where state.hasPrefix("23"): return 19 // SQLITE_CONSTRAINT
        case let state? where state.hasPrefix("22"): return 3091 // SQLITE_CONSTRAINT_DATATYPE
        default: return -1
        }
    }
}
