import CPostgreSQL
import Foundation

/// One libpq connection. Not thread-safe: one thread at a time uses it, as with `SQLiteConnection`.
/// Statements with parameters are prepared once per SQL text and parameter types, then re-executed.
public final class PostgresConnection {
    /// Where this connects.
    public let location: PostgresLocation
    /// Seconds libpq waits for a server before giving up (unless the location sets `connect_timeout`).
    public let connectTimeout: Int
    private var handle: OpaquePointer?
    private var prepared: [PreparedKey: PreparedStatement] = [:]
    private var transactionDepth = 0
    // Prepared statements live on the server; past this many, new SQL runs unprepared.
    private static let preparedLimit = 512

    private struct PreparedStatement {
        let name: String
        /// The type the server gave each parameter (inferred where it was sent untyped).
        let parameterTypes: [UInt32]
    }

    private struct PreparedKey: Hashable {
        let sql: String
        let types: [UInt32]
    }

    /// Connects; throws a `PostgresError` (with `isConnectionLost`) when the server cannot be reached
    /// or refuses the database, user or password.
    public init(location: PostgresLocation, connectTimeout: Int = 5) throws {
        self.location = location
        self.connectTimeout = connectTimeout
        try open()
    }

    deinit { if let handle { PQfinish(handle) } }

    private func open() throws {
        // Defaults first: libpq lets a later keyword win, so the location's own values override them.
        let pairs: [(key: String, value: String)] =
            [
                ("connect_timeout", String(connectTimeout)), ("client_encoding", "UTF8"),
                ("fallback_application_name", "understudy"),
            ] + location.parameters
        let keys = pairs.map { strdup($0.key) } + [nil]
        let values = pairs.map { strdup($0.value) } + [nil]
        defer { for pointer in keys + values { free(pointer) } }
        let connection = keys.map { UnsafePointer($0) }.withUnsafeBufferPointer { keyPointers in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { valuePointers in
                PQconnectdbParams(keyPointers.baseAddress, valuePointers.baseAddress, 0)
            }
        }
        guard let connection else { throw PostgresError(sqlState: nil, message: "libpq could not allocate a connection", connectionBad: true) }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(sqlState: nil, message: location.redacting(message), connectionBad: true)
        }
        // NOTICEs (`relation already exists, skipping`) are not errors and must not reach stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        handle = connection
    }

    /// Whether libpq considers the connection usable.
    public var isConnected: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// The server's version number (`150004` for 15.4).
    public var serverVersion: Int { handle.map { Int(PQserverVersion($0)) } ?? 0 }

    /// Re-establishes a lost connection (`PQreset`); prepared statements and any open transaction are gone.
    public func reconnect() throws {
        prepared.removeAll()
        transactionDepth = 0
        guard let handle else { return try open() }
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(sqlState: nil, message: location.redacting(String(cString: PQerrorMessage(handle))), connectionBad: true)
        }
    }

    /// Runs one statement with `$1, $2 …` parameters and returns its rows and change count.
    ///
    /// Bytes are prepared untyped, like text: the server infers each parameter's type from where
    /// it is used, and the value goes as that type — binary into a `bytea` column, UTF-8 text into
    /// a `text` one (SQLite stores either in either; PostgreSQL would otherwise turn bytes bound to
    /// a text column into their `\x…` hex form without a word).
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws -> PostgresResult {
        let handle = try connected()
        let types = parameters.map(\.typeOID)
        let key = PreparedKey(sql: sql, types: types)
        var statement = prepared[key]
        if statement == nil, prepared.count < Self.preparedLimit {
            let name = "understudy_\(prepared.count + 1)"
            let result = types.withUnsafeBufferPointer { PQprepare(handle, name, sql, Int32(types.count), $0.baseAddress) }
            try check(result, freeing: true)
            let described = PQdescribePrepared(handle, name)
            try check(described, freeing: false)
            let inferred = (0..<Int32(types.count)).map { PQparamtype(described, $0) }
            PQclear(described)
            statement = PreparedStatement(name: name, parameterTypes: inferred)
            prepared[key] = statement
        }
        let values = statement.map { Self.fitting(parameters, to: $0.parameterTypes) } ?? parameters
        let result = try Self.withParameters(values) { values, lengths, formats in
            if let statement {
                return PQexecPrepared(handle, statement.name, Int32(parameters.count), values, lengths, formats, 0)
            }
            // Unprepared (past the limit): bytes go typed as bytea, the common case.
            let typed = parameters.map { $0.typeOID == 0 && $0.data != nil ? UInt32(17) : $0.typeOID }
            return typed.withUnsafeBufferPointer { PQexecParams(handle, sql, Int32(parameters.count), $0.baseAddress, values, lengths, formats, 0) }
        }
        return try read(result)
    }

    /// `parameters` as the types the server inferred: bytes for a non-bytea parameter go as their
    /// UTF-8 text, text for a bytea parameter as its bytes.
    private static func fitting(_ parameters: [PostgresValue], to types: [UInt32]) -> [PostgresValue] {
        guard parameters.contains(where: { $0.data != nil || $0.string != nil }) else { return parameters }
        return zip(parameters, types).map { value, type in
            switch value {
            case .bytes(let data) where type != 17: return .text(String(decoding: data, as: UTF8.self))
            case .text(let text) where type == 17: return .bytes(Data(text.utf8))
            default: return value
            }
        }
    }

    /// Runs `sql` and returns its rows.
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws -> [PostgresRow] {
        try execute(sql, parameters).rows
    }

    /// Runs `sql` and returns its first row, or nil.
    public func queryOne(_ sql: String, _ parameters: [PostgresValue] = []) throws -> PostgresRow? {
        try execute(sql, parameters).rows.first
    }

    /// Runs several `;`-separated statements without parameters (a migration file), in one round trip.
    public func executeScript(_ sql: String) throws {
        let handle = try connected()
        _ = try read(PQexec(handle, sql))
    }

    /// Runs `body` in a transaction (a savepoint when one is already open): committed when it
    /// returns, rolled back when it throws.
    /// `begin` opens the outermost transaction (`BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY`
    /// gives a read one snapshot for all its statements, as SQLite's readers have).
    public func transaction<T>(begin: String = "BEGIN", _ body: () throws -> T) throws -> T {
        let depth = transactionDepth
        let savepoint = "understudy_sp\(depth)"
        try executeScript(depth == 0 ? begin : "SAVEPOINT \(savepoint)")
        transactionDepth += 1
        do {
            let value = try body()
            transactionDepth = depth
            try executeScript(depth == 0 ? "COMMIT" : "RELEASE SAVEPOINT \(savepoint)")
            return value
        } catch {
            transactionDepth = depth
            // A lost connection has no transaction left to roll back; the original error is the news.
            if isConnected { try? executeScript(depth == 0 ? "ROLLBACK" : "ROLLBACK TO SAVEPOINT \(savepoint); RELEASE SAVEPOINT \(savepoint)") }
            throw error
        }
    }

    /// Waits up to `timeout` seconds for notifications on the channels this connection `LISTEN`s
    /// to and returns their payloads (none on timeout); throws once the connection is lost.
    public func notifications(timeout: Double) throws -> [String] {
        let handle = try connected()
        var payloads = drainNotifications(handle)
        guard payloads.isEmpty else { return payloads }
        var descriptor = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, Int32(timeout * 1000))
        guard ready > 0 else { return [] }
        guard PQconsumeInput(handle) == 1 else {
            throw PostgresError(sqlState: nil, message: location.redacting(String(cString: PQerrorMessage(handle))), connectionBad: true)
        }
        payloads = drainNotifications(handle)
        return payloads
    }

    private func drainNotifications(_ handle: OpaquePointer) -> [String] {
        var payloads: [String] = []
        while let notice = PQnotifies(handle) {
            payloads.append(String(cString: notice.pointee.extra))
            PQfreemem(notice)
        }
        return payloads
    }

    /// Whether a transaction is open on the server.
    public var isInTransaction: Bool {
        guard let handle else { return false }
        return PQtransactionStatus(handle) != PQTRANS_IDLE && PQtransactionStatus(handle) != PQTRANS_UNKNOWN
    }

    private func connected() throws -> OpaquePointer {
        guard let handle, PQstatus(handle) == CONNECTION_OK else {
            throw PostgresError(sqlState: nil, message: "the connection to \(location.host):\(location.port) is lost", connectionBad: true)
        }
        return handle
    }

    private func error(from result: OpaquePointer?) -> PostgresError {
        let connectionBad = handle.map { PQstatus($0) != CONNECTION_OK } ?? true
        guard let result else {
            return PostgresError(
                sqlState: nil, message: location.redacting(handle.map { String(cString: PQerrorMessage($0)) } ?? "no connection"),
                connectionBad: connectionBad)
        }
        func field(_ code: Character) -> String? { PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) } }
        let message = String(cString: PQresultErrorMessage(result))
        var error = PostgresError(
            sqlState: field("C"), message: location.redacting(message.hasPrefix("ERROR:  ") ? String(message.dropFirst(8)) : message),
            connectionBad: connectionBad)
        (error.table, error.column, error.constraint, error.detail) = (field("t"), field("c"), field("n"), field("D").map { location.redacting($0) })
        return error
    }

    private func check(_ result: OpaquePointer?, freeing: Bool) throws {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let failure = error(from: result)
            if result != nil { PQclear(result) }
            throw failure
        }
        if freeing { PQclear(result) }
    }

    private func read(_ result: OpaquePointer?) throws -> PostgresResult {
        try check(result, freeing: false)
        guard let result else { return PostgresResult(rows: [], affectedRows: 0) }
        defer { PQclear(result) }
        let columnCount = Int(PQnfields(result)), rowCount = Int(PQntuples(result))
        let names = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        let types = (0..<columnCount).map { PQftype(result, Int32($0)) }
        var rows: [PostgresRow] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            let values = (0..<Int32(columnCount)).map { column -> PostgresValue in
                if PQgetisnull(result, row, column) == 1 { return .null }
                return PostgresDecoding.value(PQgetvalue(result, row, column), length: Int(PQgetlength(result, row, column)), type: types[Int(column)])
            }
            rows.append(PostgresRow(columns: names, values: values))
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? rowCount
        return PostgresResult(rows: rows, affectedRows: affected)
    }

    // Text and numbers go as text (libpq's format 0), bytes as binary (format 1, no escaping).
    private static func withParameters(
        _ parameters: [PostgresValue],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> OpaquePointer?
    ) throws -> OpaquePointer? {
        var buffers: [UnsafeMutablePointer<CChar>?] = []
        var lengths: [Int32] = [], formats: [Int32] = []
        defer { for buffer in buffers { free(buffer) } }
        for parameter in parameters {
            switch parameter {
            case .null: buffers.append(nil); lengths.append(0); formats.append(0)
            case .text(let text):
                guard !text.utf8.contains(0) else { throw PostgresError(sqlState: "22021", message: "text parameters cannot contain NUL bytes") }
                buffers.append(strdup(text)); lengths.append(0); formats.append(0)
            case .integer(let value): buffers.append(strdup(String(value))); lengths.append(0); formats.append(0)
            case .double(let value):
                buffers.append(strdup(value.isNaN ? "NaN" : value.isInfinite ? (value < 0 ? "-Infinity" : "Infinity") : "\(value)"))
                lengths.append(0); formats.append(0)
            case .bytes(let data):
                let buffer = malloc(max(data.count, 1))!.assumingMemoryBound(to: CChar.self)
                data.withUnsafeBytes { raw in if let base = raw.baseAddress { memcpy(buffer, base, data.count) } }
                buffers.append(buffer); lengths.append(Int32(data.count)); formats.append(1)
            }
        }
        let pointers = buffers.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { values in
            lengths.withUnsafeBufferPointer { lengthPointer in
                formats.withUnsafeBufferPointer { formatPointer in body(values.baseAddress, lengthPointer.baseAddress, formatPointer.baseAddress) }
            }
        }
    }
}
