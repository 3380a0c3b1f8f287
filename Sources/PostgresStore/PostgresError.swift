import Foundation

/// A PostgreSQL failure: the server's SQLSTATE (when it sent one) and message, with whether the
/// connection itself is gone (so a caller can answer 503 and reconnect). Never holds the password.
public struct PostgresError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The five-character SQLSTATE (`23505` unique violation, `08006` connection failure …), if any.
    public let sqlState: String?
    /// The server's or libpq's message, on one line.
    public let message: String
    /// Whether the connection is lost: libpq reports it bad, or the SQLSTATE is class 08
    /// (connection exception) or 57P01–57P03 (administrator shutdown, crash shutdown, cannot connect now).
    public let isConnectionLost: Bool
    /// The server's error fields naming what a constraint failure involved, when it sent them.
    public var table: String?, column: String?, constraint: String?, detail: String?

    /// Builds an error; `connectionBad` is libpq's own verdict on the connection.
    public init(sqlState: String?, message: String, connectionBad: Bool = false) {
        self.sqlState = sqlState
        self.message = Self.oneLine(message)
        self.isConnectionLost = connectionBad || Self.meansConnectionLost(sqlState)
    }

    /// The columns a unique violation's detail names (`Key (a, b)=(…) already exists.` → `["a", "b"]`).
    public var keyColumns: [String] {
        guard let detail, detail.hasPrefix("Key ("), let close = detail.range(of: ")=") else { return [] }
        return detail[detail.index(detail.startIndex, offsetBy: 5)..<close.lowerBound].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether a SQLSTATE says the connection is gone.
    public static func meansConnectionLost(_ sqlState: String?) -> Bool {
        guard let sqlState else { return false }
        return sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(sqlState)
    }

    /// Whether this is a unique or primary-key violation (SQLSTATE 23505).
    public var isUniqueViolation: Bool { sqlState == "23505" }

    /// The message, with the SQLSTATE when there is one.
    public var description: String { sqlState.map { "\(message) (SQLSTATE \($0))" } ?? message }

    // libpq's messages end in a newline and may carry a tab-indented hint line.
    static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: " ")
    }
}
