import Foundation
import Storage

/// Per-project table rows as JSON values, shared by snapshots and bundles so both copy every
/// table the same way (blobs tagged so they come back as blobs, not text).
enum TableRows {
    /// One column of a live table, from `PRAGMA table_info`.
    struct Column: Sendable {
        var name: String
        var declaredType: String
        var notNull: Bool
        var hasDefault: Bool
        /// Position in the primary key (1-based), 0 when not part of it.
        var primaryKey: Int
    }

    /// The columns of `table` as the live schema declares them, in declaration order.
    static func columns(of table: String, connection: any StoreConnection) throws -> [Column] {
        let rows =
            connection.dialect == .postgres
            ? try connection.query(postgresColumns, table)
            : try connection.query("PRAGMA table_info(\"\(table)\")")
        return try rows.map { row in
            Column(
                name: try row.decode("name"), declaredType: (row.string("type") ?? "").uppercased(),
                notNull: (row.int("notnull") ?? 0) != 0, hasDefault: !row["dflt_value"].isNull, primaryKey: row.int("pk") ?? 0)
        }
    }

    /// `PRAGMA table_info`'s columns from PostgreSQL's catalog, with SQLite's names for the types
    /// the bundle checks care about (an identity key is SQLite's `INTEGER PRIMARY KEY`, `bytea` a
    /// BLOB). The `rowid` column PostgreSQL tables carry for insertion order is not data.
    private static let postgresColumns = """
        SELECT c.column_name AS name,
               CASE WHEN c.is_identity = 'YES' THEN 'INTEGER' WHEN c.data_type = 'bytea' THEN 'BLOB' ELSE upper(c.data_type) END AS type,
               CASE WHEN c.is_nullable = 'NO' THEN 1 ELSE 0 END AS notnull,
               CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END AS dflt_value,
               coalesce((SELECT k.ordinal_position FROM information_schema.table_constraints t
                         JOIN information_schema.key_column_usage k ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema
                         WHERE t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.constraint_type = 'PRIMARY KEY'
                           AND k.column_name = c.column_name), 0) AS pk
        FROM information_schema.columns c
        WHERE c.table_schema = current_schema() AND c.table_name = ? AND c.column_name <> 'rowid'
        ORDER BY c.ordinal_position
        """

    /// `ORDER BY` terms that list a table's rows in primary-key order (rowid when it has none).
    static func primaryKeyOrder(_ columns: [Column]) -> String {
        let keys = columns.filter { $0.primaryKey > 0 }.sorted { $0.primaryKey < $1.primaryKey }.map { "\"\($0.name)\"" }
        return keys.isEmpty ? "rowid" : keys.joined(separator: ", ")
    }

    /// A stored value as JSON.
    static func json(_ value: SQLValue) -> JSONValue {
        switch value {
        case .null: return .null
        case .integer(let number): return .int(number)
        case .real(let number): return .double(number)
        case .text(let text): return .string(text)
        case .blob(let data): return .object(["blob": .string(data.base64EncodedString())])
        }
    }

    /// A JSON value as a binding (the inverse of `json`).
    static func sql(_ value: JSONValue) -> any SQLBindable {
        switch value {
        case .null: return SQLValue.null
        case .int(let number): return number
        case .double(let number): return number
        case .string(let text): return text
        case .bool(let flag): return flag
        case .object(let members): return Data(base64Encoded: members["blob"]?.stringValue ?? "") ?? Data()
        case .array: return SQLValue.null
        }
    }

    /// Inserts `rows` (values in `columns` order) into `table`.
    static func insert(into table: String, columns: [String], rows: [[JSONValue]], connection: any StoreConnection) throws {
        guard !rows.isEmpty else { return }
        let names = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let statement = "INSERT INTO \(table) (\(names)) VALUES (\(placeholders))"
        for row in rows { try connection.run(statement, bindings: row.map(Self.sql)) }
    }
}
