/// A failure reported by SQLite or by the store around it.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// SQLite's result code (extended where available), or -1 for store-level errors.
    public let code: Int32
    /// SQLite's message or the store's explanation.
    public let message: String
    /// The statement involved, if any.
    public let sql: String?

    /// Creates an error.
    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// Whether this is a UNIQUE/PRIMARY KEY constraint violation (callers map it to 409 and the like).
    public var isUniqueViolation: Bool { code == 2067 || code == 1555 } // SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY

    /// Whether this is any constraint violation.
    public var isConstraintViolation: Bool { code & 0xff == 19 } // SQLITE_CONSTRAINT

    /// The message, with the statement when known.
    public var description: String {
        if let sql { return "SQLite error \(code): \(message) (in: \(sql))" }
        return "SQLite error \(code): \(message)"
    }
}
