import Foundation

/// One result row; columns are looked up by name or position.
public struct Row: Sendable {
    /// Column names in result order (shared by all rows of one query).
    public let columns: [String]
    /// Values in result order.
    public let values: [SQLValue]

    /// Creates a row.
    public init(columns: [String], values: [SQLValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of column `name`, or NULL when there is no such column.
    public subscript(name: String) -> SQLValue {
        guard let index = columns.firstIndex(of: name) else { return .null }
        return values[index]
    }

    /// The value at `index`.
    public subscript(index: Int) -> SQLValue { values[index] }

    /// Column `name` as text, or nil.
    public func string(_ name: String) -> String? { self[name].string }
    /// Column `name` as an Int, or nil.
    public func int(_ name: String) -> Int? { self[name].int }
    /// Column `name` as a Double, or nil.
    public func double(_ name: String) -> Double? { self[name].double }
    /// Column `name` as bytes, or nil.
    public func data(_ name: String) -> Data? { self[name].data }
    /// Column `name` as a Bool (non-zero integer), or nil.
    public func bool(_ name: String) -> Bool? { self[name].int.map { $0 != 0 } }
}
