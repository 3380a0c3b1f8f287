/// Queries that return records instead of rows.
extension SQLiteConnection {
    /// Every row of the query, each read as `T`; a row that does not fit `T` throws.
    public func fetchAll<T: RowDecodable>(_ type: T.Type, _ sql: String, _ bindings: any SQLBindable...) throws -> [T] {
        try query(sql, bindings: bindings).map { try T(row: $0) }
    }

    /// The first row of the query read as `T`, or nil when there is none.
    public func fetchOne<T: RowDecodable>(_ type: T.Type, _ sql: String, _ bindings: any SQLBindable...) throws -> T? {
        try query(sql, bindings: bindings).first.map { try T(row: $0) }
    }
}
