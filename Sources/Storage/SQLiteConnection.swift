import CSQLite
import Foundation

/// One SQLite connection with a cache of prepared statements.
///
/// Not thread-safe: a connection is confined to one queue by `Database`. Every value reaches SQL
/// through a bound parameter; no statement is built by concatenating values.
public final class SQLiteConnection: StoreConnection {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private var savepointDepth = 0
    /// Result layouts per statement: a prepared statement's columns never change.
    private var layouts: [OpaquePointer: ColumnLayout] = [:]
    /// The file this connection opened.
    public let path: String

    /// Opens (creating if needed) the database at `path` and applies the store's pragmas.
    public init(path: String, readOnly: Bool = false) throws {
        Self.configureSQLite
        self.path = path
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        var db: OpaquePointer?
        let status = sqlite3_open_v2(path, &db, flags, nil)
        guard status == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(db)
            throw SQLiteError(code: status, message: "\(message): \(path)")
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, 5_000)
        try execute("PRAGMA foreign_keys = ON")
    }

    /// Process-wide settings, made once before the first connection opens (SQLite accepts them
    /// only before it initializes). Memory statistics off: with them on, every allocation inside
    /// SQLite took one process-wide mutex, and the event loops' readers and the writers contended
    /// for it on every request (waking and waiting on mutexes were an eighth of a read's samples).
    private static let configureSQLite: Void = {
        // SQLITE_MISUSE only if SQLite was initialized already; it then keeps counting, correctly.
        _ = understudy_sqlite3_disable_memstatus()
    }()

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    // MARK: - Executing

    /// Runs a migration script: SQLite's dialect is the stores' own, so this is `execute`.
    public func executeScript(_ sql: String) throws { try execute(sql) }

    /// Runs one or more statements that take no parameters (schema, pragmas).
    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        if status != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? lastMessage
            sqlite3_free(error)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: message, sql: sql)
        }
    }

    /// SQLite's: the SQL runs as written.
    public var dialect: SQLDialect { .sqlite }

    /// Runs a statement with bound parameters and returns the number of rows changed.
    @discardableResult
    public func run(_ sql: String, bindings: [any SQLBindable]) throws -> Int {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
        try bind(bindings, to: statement, sql: sql)
        while try step(statement, sql: sql) {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and returns every row.
    public func query(_ sql: String, bindings: [any SQLBindable]) throws -> [Row] {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
        try bind(bindings, to: statement, sql: sql)
        let columnCount = Int(sqlite3_column_count(statement))
        let columns = layout(of: statement, count: columnCount)
        var rows: [Row] = []
        while try step(statement, sql: sql) {
            var values: [SQLValue] = []
            values.reserveCapacity(columnCount)
            for index in 0..<Int32(columnCount) { values.append(Self.column(statement, index)) }
            rows.append(Row(layout: columns, values: values))
        }
        return rows
    }

    /// Runs a statement with values already converted (see `StoreConnection.run(_:values:)`).
    @discardableResult
    public func run(_ sql: String, values: [SQLValue]) throws -> Int {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
        try checkCount(values.count, of: statement, sql: sql)
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1), to: statement, sql: sql) }
        while try step(statement, sql: sql) {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and hands `body` each row as it is read. The rows share one values buffer,
    /// which is allocated again only when `body` keeps a row.
    public func forEachRow(_ sql: String, bindings: [any SQLBindable], _ body: (Row) throws -> Void) throws {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
        try bind(bindings, to: statement, sql: sql)
        let columnCount = Int(sqlite3_column_count(statement))
        let columns = layout(of: statement, count: columnCount)
        var values: [SQLValue] = []
        values.reserveCapacity(columnCount)
        while try step(statement, sql: sql) {
            values.removeAll(keepingCapacity: true)
            for index in 0..<Int32(columnCount) { values.append(Self.column(statement, index)) }
            try body(Row(layout: columns, values: values))
        }
    }

    /// The first column of every row as integers, read straight off the statement: for long
    /// lists of numbers (960 sequence numbers for one sleep session), where building a `Row` per
    /// value cost more than the query itself. Throws `RowDecodingError` as `Row.decode` would
    /// when a value is NULL or not an integer.
    public func integers(_ sql: String, bindings: [any SQLBindable]) throws -> [Int] {
        let statement = try prepared(sql)
        defer { sqlite3_reset(statement); sqlite3_clear_bindings(statement) }
        try bind(bindings, to: statement, sql: sql)
        var numbers: [Int] = []
        while try step(statement, sql: sql) {
            if sqlite3_column_type(statement, 0) == SQLITE_INTEGER {
                numbers.append(Int(sqlite3_column_int64(statement, 0)))
                continue
            }
            // The rare other cases decode exactly as a row would, errors included.
            let name = String(cString: sqlite3_column_name(statement, 0))
            numbers.append(try Row(columns: [name], values: [Self.column(statement, 0)]).decode(name, as: Int.self))
        }
        return numbers
    }

    /// The C handle, for the few calls `Database` makes directly (WAL hook, checkpoints).
    var rawHandle: OpaquePointer? { handle }

    /// The rowid of the last inserted row.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Runs `body` in a transaction (a savepoint when one is already open); rolls back if it throws.
    ///
    /// The control statements are prepared once and reused (their names depend only on the
    /// nesting depth): parsing `BEGIN`/`COMMIT` text on every write showed up in profiles.
    public func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T {
        if isInTransaction {
            savepointDepth += 1
            defer { savepointDepth -= 1 }
            let name = "sp\(savepointDepth)"
            try run("SAVEPOINT \(name)")
            do {
                let result = try body()
                try run("RELEASE \(name)")
                return result
            } catch {
                // The body's error is the one worth reporting; a failing rollback leaves the outer
                // transaction to roll everything back anyway.
                _ = try? run("ROLLBACK TO \(name)")
                _ = try? run("RELEASE \(name)")
                throw error
            }
        }
        try run(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try run("COMMIT")
            return result
        } catch {
            if isInTransaction { _ = try? run("ROLLBACK") } // SQLite may have rolled back already; the body's error is the one to report
            throw error
        }
    }

    /// The current journal mode (`wal` once `Database` has opened the file).
    public func journalMode() throws -> String {
        try scalar("PRAGMA journal_mode").string ?? ""
    }

    // MARK: - Internals

    private var lastMessage: String { String(cString: sqlite3_errmsg(handle)) }

    // Keyed by the cached statement (a pointer hashes faster than its SQL). A statement SQLite
    // re-prepared after a schema change may return other columns: the count check catches that.
    /// The virtual-machine steps this connection's statements ran since the last call (then starts
    /// over): a deterministic count of work, for tests that check a lookup does not grow with history.
    public func takeStatementSteps() -> Int {
        statements.values.reduce(0) { $0 + Int(sqlite3_stmt_status($1, SQLITE_STMTSTATUS_VM_STEP, 1)) }
    }

    /// The sorts this connection's statements ran since the last call (then starts over): an
    /// `ORDER BY` that no index serves sorts its rows in a temporary sorter on every run.
    public func takeSorts() -> Int {
        statements.values.reduce(0) { $0 + Int(sqlite3_stmt_status($1, SQLITE_STMTSTATUS_SORT, 1)) }
    }

    /// The SQL of every statement this connection has prepared and keeps: tests read the query
    /// plans of the statements a store's lookups actually ran.
    public var preparedSQL: [String] { Array(statements.keys) }

    /// The pages this connection wrote to the database or its write-ahead log since the last call
    /// (then starts over): a deterministic count of what its commits cost, for tests that check a
    /// write stays on the pages it must change.
    public func takePagesWritten() -> Int {
        var current: Int32 = 0, highwater: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_WRITE, &current, &highwater, 1)
        return Int(current)
    }

    private func layout(of statement: OpaquePointer, count: Int) -> ColumnLayout {
        if let known = layouts[statement], known.names.count == count { return known }
        let layout = ColumnLayout((0..<count).map { String(cString: sqlite3_column_name(statement, Int32($0))) })
        layouts[statement] = layout
        return layout
    }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: lastMessage, sql: sql)
        }
        statements[sql] = statement
        return statement
    }

    private func bind(_ bindings: [any SQLBindable], to statement: OpaquePointer, sql: String) throws {
        try checkCount(bindings.count, of: statement, sql: sql)
        for (offset, binding) in bindings.enumerated() { try bind(binding.sqlValue, at: Int32(offset + 1), to: statement, sql: sql) }
    }

    /// Steps `statement` once: true with a row to read, false when it is done.
    private func step(_ statement: OpaquePointer, sql: String) throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(code: sqlite3_extended_errcode(handle), message: lastMessage, sql: sql)
        }
    }

    private func checkCount(_ count: Int, of statement: OpaquePointer, sql: String) throws {
        let expected = Int(sqlite3_bind_parameter_count(statement))
        guard expected == count else {
            throw SQLiteError(code: -1, message: "statement takes \(expected) parameters, \(count) given", sql: sql)
        }
    }

    private func bind(_ value: SQLValue, at index: Int32, to statement: OpaquePointer, sql: String) throws {
        let status: Int32
        switch value {
        case .null: status = sqlite3_bind_null(statement, index)
        case .integer(let value): status = sqlite3_bind_int64(statement, index, value)
        case .real(let value): status = sqlite3_bind_double(statement, index, value)
        case .text(var value):
            // From the string's own UTF-8, with its length: a `String` passed straight as a
            // `char *` argument is copied into a new NUL-terminated array on every call.
            status =
                value.isEmpty
                ? sqlite3_bind_text(statement, index, "", 0, Self.transient)
                : value.withUTF8 { utf8 in
                    utf8.withMemoryRebound(to: CChar.self) { sqlite3_bind_text(statement, index, $0.baseAddress, Int32(utf8.count), Self.transient) }
                }
        case .blob(let value):
            status = value.withUnsafeBytes { raw in
                sqlite3_bind_blob(statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(raw.count), Self.transient)
            }
        }
        guard status == SQLITE_OK else { throw SQLiteError(code: status, message: lastMessage, sql: sql) }
    }

    private static func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard let text = sqlite3_column_text(statement, index) else { return .text("") }
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let bytes = sqlite3_column_blob(statement, index) else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            return .null
        }
    }

    // SQLite copies bound values before the call returns (the C macro SQLITE_TRANSIENT).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

extension SQLiteConnection {
    /// Copies what it can of the write-ahead log into the database file without waiting for, or
    /// blocking, readers and the writer (`SQLITE_CHECKPOINT_PASSIVE`), or — `restart` — waits for
    /// readers so the next writer starts the log from its beginning again. Returns the frames in
    /// the log and how many of them are now in the database file (-1 each outside WAL mode).
    @discardableResult
    public func checkpoint(restart: Bool = false) throws -> (logFrames: Int, copiedFrames: Int) {
        let mode = restart ? SQLITE_CHECKPOINT_RESTART : SQLITE_CHECKPOINT_PASSIVE
        var logFrames: Int32 = -1, copiedFrames: Int32 = -1
        let status = sqlite3_wal_checkpoint_v2(rawHandle, nil, mode, &logFrames, &copiedFrames)
        // BUSY only means another checkpoint or a reader was in the way; the next one continues.
        guard status == SQLITE_OK || status == SQLITE_BUSY else {
            throw SQLiteError(code: status, message: String(cString: sqlite3_errmsg(rawHandle)), sql: "wal_checkpoint")
        }
        return (Int(logFrames), Int(copiedFrames))
    }
}
