import Foundation

/// The column names of one statement's results and where each sits, shared by every row the
/// statement returns: looking a name up is then a hash, not a string comparison per column —
/// records of twenty columns spent a tenth of a list request comparing names.
public final class ColumnLayout: Sendable {
    /// Column names in result order.
    public let names: [String]
    @usableFromInline let positions: [String: Int]

    /// The layout of `names` (the first of a repeated name wins, as `firstIndex` did).
    public init(_ names: [String]) {
        self.names = names
        var positions: [String: Int] = [:]
        for (index, name) in names.enumerated() where positions[name] == nil { positions[name] = index }
        self.positions = positions
    }

    /// Where column `name` is, if the results have one.
    @inlinable public func position(of name: String) -> Int? { positions[name] }
}

/// One result row; columns are looked up by name or position.
public struct Row: Sendable {
    /// Column names and positions (shared by all rows of one query).
    public let layout: ColumnLayout
    /// Values in result order.
    public let values: [SQLValue]

    /// Column names in result order.
    public var columns: [String] { layout.names }

    /// Creates a row.
    public init(columns: [String], values: [SQLValue]) {
        self.init(layout: ColumnLayout(columns), values: values)
    }

    /// Creates a row sharing `layout` with the other rows of its query.
    public init(layout: ColumnLayout, values: [SQLValue]) {
        self.layout = layout
        self.values = values
    }

    /// The value of column `name`, or NULL when there is no such column.
    public subscript(name: String) -> SQLValue {
        guard let index = layout.position(of: name) else { return .null }
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

    // MARK: - Typed, throwing reads

    /// Column `name` decoded as `T`: throws `RowDecodingError` when the row has no such column,
    /// when it is NULL, or when it holds another type — so a schema drift fails a test instead of
    /// turning into a default.
    @inlinable
    public func decode<T: SQLColumnDecodable>(_ name: String, as type: T.Type = T.self) throws(RowDecodingError) -> T {
        guard let index = layout.position(of: name) else { throw .missingColumn(name) }
        let value = values[index]
        guard !value.isNull else { throw .unexpectedNull(name) }
        guard let decoded = T(sqlValue: value) else { throw .wrongType(column: name, expected: String(describing: T.self), found: value.storageClass) }
        return decoded
    }

    /// Throws unless the row has exactly the values of `columns`, the explicit column list a record
    /// reads by position (`decode(at:)`); the error names the first column that is missing.
    @inlinable
    public func expectColumns(_ columns: [String]) throws(RowDecodingError) {
        guard values.count == columns.count else { throw .missingColumn(columns[min(values.count, columns.count - 1)]) }
    }

    /// Column `position` decoded as `T`, for records that read an explicit column list by
    /// position (thousands of rows, where looking each name up cost more than the values);
    /// the same errors as `decode(_:)`, named after the query's column.
    @inlinable
    public func decode<T: SQLColumnDecodable>(at position: Int, as type: T.Type = T.self) throws(RowDecodingError) -> T {
        guard let value: T = try decodeIfPresent(at: position) else { throw .unexpectedNull(layout.names[position]) }
        return value
    }

    /// Column `position` decoded as `T`, or nil when it is NULL (see `decode(at:)`).
    @inlinable
    public func decodeIfPresent<T: SQLColumnDecodable>(at position: Int, as type: T.Type = T.self) throws(RowDecodingError) -> T? {
        guard position < values.count else { throw .missingColumn("#\(position)") }
        let value = values[position]
        if value.isNull { return nil }
        guard let decoded = T(sqlValue: value) else {
            throw .wrongType(column: layout.names[position], expected: String(describing: T.self), found: value.storageClass)
        }
        return decoded
    }

    /// Column `name` decoded as `T`, or nil when it is NULL; throws when the column is missing or
    /// holds another type.
    @inlinable
    public func decodeIfPresent<T: SQLColumnDecodable>(_ name: String, as type: T.Type = T.self) throws(RowDecodingError) -> T? {
        guard let index = layout.position(of: name) else { throw .missingColumn(name) }
        let value = values[index]
        if value.isNull { return nil }
        guard let decoded = T(sqlValue: value) else { throw .wrongType(column: name, expected: String(describing: T.self), found: value.storageClass) }
        return decoded
    }
}

/// Why a row could not be read into a record.
public enum RowDecodingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The query returned no column of this name.
    case missingColumn(String)
    /// The column is NULL where a value is required.
    case unexpectedNull(String)
    /// The column holds a value of another type.
    case wrongType(column: String, expected: String, found: String)

    /// A sentence for the test failure.
    public var description: String {
        switch self {
        case .missingColumn(let name): return "no column `\(name)` in the row"
        case .unexpectedNull(let name): return "column `\(name)` is NULL"
        case .wrongType(let name, let expected, let found): return "column `\(name)` holds \(found), expected \(expected)"
        }
    }
}

/// A record type read from a row (GRDB's `FetchableRecord` is the model): `init(row:)` throws on
/// a missing or mistyped column.
public protocol RowDecodable {
    /// Reads the record from `row`.
    init(row: Row) throws
}

/// A column value type a `Row` can decode.
public protocol SQLColumnDecodable {
    /// The value, or nil when `sqlValue` is of another storage class.
    init?(sqlValue: SQLValue)
}

extension String: SQLColumnDecodable {
    /// Text only.
    @inlinable public init?(sqlValue: SQLValue) {
        guard case .text(let value) = sqlValue else { return nil }
        self = value
    }
}

extension Int: SQLColumnDecodable {
    /// Integers (and reals without a fraction, which SQLite arithmetic produces).
    @inlinable public init?(sqlValue: SQLValue) {
        guard let value = sqlValue.int else { return nil }
        self = value
    }
}

extension Int64: SQLColumnDecodable {
    /// Integers (and reals without a fraction).
    @inlinable public init?(sqlValue: SQLValue) {
        guard let value = sqlValue.int else { return nil }
        self = Int64(value)
    }
}

extension Double: SQLColumnDecodable {
    /// Integers or reals.
    @inlinable public init?(sqlValue: SQLValue) {
        guard let value = sqlValue.double else { return nil }
        self = value
    }
}

extension Bool: SQLColumnDecodable {
    /// Integers: zero is false.
    @inlinable public init?(sqlValue: SQLValue) {
        guard case .integer(let value) = sqlValue else { return nil }
        self = value != 0
    }
}

extension Data: SQLColumnDecodable {
    /// Blobs, or text as UTF-8.
    @inlinable public init?(sqlValue: SQLValue) {
        guard let value = sqlValue.data else { return nil }
        self = value
    }
}

extension SQLValue {
    /// The storage class's name, for error messages.
    @inlinable public var storageClass: String {
        switch self {
        case .null: return "NULL"
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text: return "TEXT"
        case .blob: return "BLOB"
        }
    }
}

/// A `String`-backed enum that declares `SQLColumnDecodable` reads from a text column holding one
/// of its raw values; any other value or type is a decoding error, never a default. The one way
/// every stored enum is read (after GRDB's `DatabaseValueConvertible` for `RawRepresentable`).
extension SQLColumnDecodable where Self: RawRepresentable, RawValue == String {
    /// Text holding one of the raw values.
    @inlinable public init?(sqlValue: SQLValue) {
        guard case .text(let text) = sqlValue else { return nil }
        self.init(rawValue: text)
    }
}

/// A `String`-backed enum that declares `SQLBindable` binds as its raw value.
extension SQLBindable where Self: RawRepresentable, RawValue == String {
    /// The raw value as text.
    @inlinable public var sqlValue: SQLValue { .text(rawValue) }
}
