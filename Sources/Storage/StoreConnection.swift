import Foundation

/// One connection to the store, as every Store file and core store uses it: SQL written in
/// SQLite's dialect, values bound as parameters, rows back as `Row`. `SQLiteConnection` runs the SQL
/// as written; the PostgreSQL connection translates it (`SQLDialect.translate`), so a store reads
/// the same on both backends and branches on `dialect` only where the dialects cannot agree.
///
/// Not thread-safe: a connection is used by one thread at a time, lent out by a `Database`.
public protocol StoreConnection: AnyObject {
    /// The dialect of the server behind this connection (the SQL given is always SQLite's).
    var dialect: SQLDialect { get }
    /// Runs one or more statements that take no parameters (schema, control statements).
    func execute(_ sql: String) throws
    /// Runs a script written in this connection's own dialect, untranslated: a migration file.
    func executeScript(_ sql: String) throws
    /// Runs a statement with bound parameters and returns the number of rows changed.
    @discardableResult func run(_ sql: String, bindings: [any SQLBindable]) throws -> Int
    /// Runs a query and returns every row.
    func query(_ sql: String, bindings: [any SQLBindable]) throws -> [Row]
    /// The first column of every row as integers (NULL or another type throws, as `Row.decode` would).
    func integers(_ sql: String, bindings: [any SQLBindable]) throws -> [Int]
    /// Runs a statement with values already converted, returning the number of rows changed: for
    /// statements with hundreds of parameters (multi-row inserts), where converting each binding
    /// through `SQLBindable` cost more than SQLite's work with it.
    @discardableResult func run(_ sql: String, values: [SQLValue]) throws -> Int
    /// Runs a query and hands `body` each row as it is read, instead of collecting them: for
    /// thousands of rows decoded into records, where allocating a `Row` each cost more than the
    /// query. A row may be kept, but reading it where it is given is what makes this cheap.
    func forEachRow(_ sql: String, bindings: [any SQLBindable], _ body: (Row) throws -> Void) throws
    /// Runs `body` in a transaction (a savepoint when one is already open); rolls back if it throws.
    /// `immediate` takes the write lock up front where the backend has one to take (SQLite).
    func transaction<T>(immediate: Bool, _ body: () throws -> T) throws -> T
    /// Whether a transaction is open.
    var isInTransaction: Bool { get }
}

extension StoreConnection {
    /// Runs a statement with bound parameters and returns the number of rows changed.
    @discardableResult
    public func run(_ sql: String, _ bindings: any SQLBindable...) throws -> Int { try run(sql, bindings: bindings) }

    /// Runs a query and returns every row.
    public func query(_ sql: String, _ bindings: any SQLBindable...) throws -> [Row] { try query(sql, bindings: bindings) }

    /// The first column of every row as integers (see `integers(_:bindings:)`).
    public func integers(_ sql: String, _ bindings: any SQLBindable...) throws -> [Int] { try integers(sql, bindings: bindings) }

    /// Runs a query and returns its first row, if any.
    public func queryOne(_ sql: String, _ bindings: any SQLBindable...) throws -> Row? { try query(sql, bindings: bindings).first }

    /// Runs a query and returns the first column of its first row (NULL when there is no row).
    public func scalar(_ sql: String, _ bindings: any SQLBindable...) throws -> SQLValue {
        try query(sql, bindings: bindings).first?.values.first ?? .null
    }

    /// Runs `body` in a write transaction (see `transaction(immediate:_:)`).
    public func transaction<T>(_ body: () throws -> T) throws -> T { try transaction(immediate: true, body) }

    /// Holds the lock called `name` until the current transaction ends, waiting for another
    /// instance that holds it: background work that several instances sharing one database would
    /// otherwise each do (PostgreSQL's transaction-scoped advisory lock). SQLite needs none — its
    /// write transaction already excludes every other writer of the file.
    public func lock(_ name: String) throws { try lock(key: Self.lockKey(name)) }

    /// Holds the lock numbered `key` until the current transaction ends (see `lock(_:)`).
    public func lock(key: Int64) throws {
        guard dialect == .postgres else { return }
        try run("SELECT pg_advisory_xact_lock(?)", key)
    }

    /// Tells every instance sharing this database that `payload` changed, once the current
    /// transaction commits (PostgreSQL's `NOTIFY`; nothing to tell on SQLite, which one instance owns).
    public func announce(_ payload: String) throws {
        guard dialect == .postgres else { return }
        try run("SELECT pg_notify('understudy_changes', ?)", payload)
    }

    /// A stable 64-bit key for a lock name (FNV-1a): the same on every instance and every run.
    static func lockKey(_ name: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int64(bitPattern: hash)
    }

    /// Every row of the query, each read as `T`; a row that does not fit `T` throws.
    public func fetchAll<T: RowDecodable>(_ type: T.Type, _ sql: String, _ bindings: any SQLBindable...) throws -> [T] {
        try query(sql, bindings: bindings).map { try T(row: $0) }
    }

    /// The first row of the query read as `T`, or nil when there is none.
    public func fetchOne<T: RowDecodable>(_ type: T.Type, _ sql: String, _ bindings: any SQLBindable...) throws -> T? {
        try query(sql, bindings: bindings).first.map { try T(row: $0) }
    }
}

/// The store behind one server: where requests read and write, whichever backend holds the data.
///
/// Writes from one instance run in the order they were queued and each returns only once its
/// transaction committed, so an acknowledged write is durable before its response goes out.
public protocol Database: AnyObject, Sendable {
    /// Where the data lives, for logs and errors (a file path, or a PostgreSQL URL without its password).
    var location: String { get }
    /// The dialect of the backend.
    var dialect: SQLDialect { get }
    /// Runs `body` in a write transaction and returns once that transaction committed; if `body`
    /// throws, its changes are rolled back.
    @discardableResult
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T
    /// Queues `body` as a write and returns at once; `completion` hears how its transaction ended.
    /// Writes queued this way (or by `write`) run in the order queued.
    func enqueueWrite(_ body: @escaping @Sendable (any StoreConnection) throws -> Void, completion: @escaping @Sendable ((any Error)?) -> Void)
    /// Runs `body` on a consistent snapshot, on the calling thread (reads are short).
    @discardableResult
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T
    /// Runs `body` on a snapshot off the calling thread: for long reads (exports, large journal pages).
    @discardableResult
    func readOnPool<T: Sendable>(_ body: @escaping @Sendable (any StoreConnection) throws -> T) async throws -> T
    /// Bytes the backend holds for this data (the SQLite file and its log; the PostgreSQL database).
    func storedBytes() async throws -> Int
    /// Whether other instances may share this database (their writes and caches are not this one's).
    var isShared: Bool { get }
    /// A number that grows with every commit of this process that changed data here, read before a
    /// read so that an answer derived from the data can be reused while it has not moved (see
    /// `DerivedAnswers`); nil when writes this process does not make can change the data too
    /// (a shared database), and such answers are never reused.
    var localChangeCount: Int? { get }
    /// The next request id from the counter every instance sharing the database draws from; nil
    /// when the database is not shared (the one server numbers its requests itself).
    func nextSharedRequestID() async throws -> Int?
    /// Calls `handler` with each payload any instance `announce`d, from a thread of the database's
    /// own, until the database is released; a lost connection is followed by `"*"` once it is back
    /// (announcements may have been missed). Nothing is ever announced on a database that is not shared.
    func observeAnnouncements(_ handler: @escaping @Sendable (String) -> Void)
    /// Runs `body` on the writer connection without an implicit transaction, blocking the caller:
    /// startup work and tests, never a request handler.
    func withWriterBlocking<T>(_ body: (any StoreConnection) throws -> T) throws -> T
    /// Writes committed since the database was opened, and the transactions that held them: how
    /// well queued writes were grouped. Nil where the backend does not group or count them.
    var committedWrites: (writes: Int, transactions: Int)? { get }
}

extension Database {
    /// Not counted (see the requirement).
    public var committedWrites: (writes: Int, transactions: Int)? { nil }
}

/// The store could not be reached (a lost PostgreSQL connection): the request may succeed when
/// retried, so platforms answer 503 in their own format rather than 500.
public struct StoreUnavailableError: Error, CustomStringConvertible, Sendable {
    /// What failed, without credentials.
    public let reason: String

    /// Creates the error.
    public init(reason: String) { self.reason = reason }

    /// The reason.
    public var description: String { "the store is unavailable: \(reason)" }
}
