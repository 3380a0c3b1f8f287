import Foundation

/// A value bound to a statement parameter or read from a result column.
public enum PostgresValue: Sendable, Equatable, Hashable {
    /// SQL NULL.
    case null
    /// Text (sent untyped, so the server infers the column's type as SQLite's loose typing would).
    case text(String)
    /// A 64-bit integer (`bigint`); booleans are stored as 0/1 as SQLite stores them.
    case integer(Int64)
    /// A double-precision float.
    case double(Double)
    /// Raw bytes (`bytea`), sent and read without escaping.
    case bytes(Data)

    /// The text, or nil for any other kind.
    public var string: String? { if case .text(let value) = self { value } else { nil } }
    /// The integer (a double with no fraction counts), or nil.
    public var int: Int64? {
        switch self {
        case .integer(let value): return value
        case .double(let value): return Int64(exactly: value) // nil, not a trap, for NaN, ±∞, fractions and |x| ≥ 2^63
        default: return nil
        }
    }
    /// The number as a double, or nil.
    public var double: Double? {
        switch self {
        case .double(let value): return value
        case .integer(let value): return Double(value)
        default: return nil
        }
    }
    /// The bytes, or nil.
    public var data: Data? { if case .bytes(let value) = self { value } else { nil } }
    /// Whether this is SQL NULL.
    public var isNull: Bool { self == .null }

    /// The parameter's type OID: bigint and double precision are typed; text, bytes and NULL are
    /// left for the server to infer from where they are used (see `PostgresConnection.execute`).
    var typeOID: UInt32 {
        switch self {
        case .null, .text, .bytes: return 0
        case .integer: return 20
        case .double: return 701
        }
    }
}

/// One result row: values by column position, looked up by name.
public struct PostgresRow: Sendable {
    /// The column names, in select order.
    public let columns: [String]
    /// The values, in select order.
    public let values: [PostgresValue]

    /// The value of `column`, or nil when the row has no such column.
    public subscript(_ column: String) -> PostgresValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }

    /// The text in `column`, or nil (missing column, NULL or not text).
    public func string(_ column: String) -> String? { self[column]?.string }
    /// The integer in `column`, or nil.
    public func int(_ column: String) -> Int64? { self[column]?.int }
    /// The number in `column` as a double, or nil.
    public func double(_ column: String) -> Double? { self[column]?.double }
    /// The bytes in `column`, or nil.
    public func data(_ column: String) -> Data? { self[column]?.data }

    /// The value of `column`, throwing when the row has no such column (a schema drift is an error).
    public func decode(_ column: String) throws -> PostgresValue {
        guard let value = self[column] else {
            throw PostgresError(sqlState: nil, message: "the result has no column \(column) (columns: \(columns.joined(separator: ", ")))")
        }
        return value
    }
}

/// What a statement returned: its rows (none for most writes) and the count of rows it changed.
public struct PostgresResult: Sendable {
    /// The rows returned (`SELECT`, or `… RETURNING`).
    public let rows: [PostgresRow]
    /// Rows inserted, updated, deleted or selected, as the server counted them.
    public let affectedRows: Int
}

/// Reads libpq's text-format values by their column type.
enum PostgresDecoding {
    static func value(_ text: UnsafePointer<CChar>, length: Int, type: UInt32) -> PostgresValue {
        let string = String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self)
        switch type {
        case 20, 21, 23, 26: return Int64(string).map(PostgresValue.integer) ?? .text(string) // int8, int2, int4, oid
        case 700, 701: return Double(string).map(PostgresValue.double) ?? .text(string) // float4, float8
        case 1700: // numeric (sum of bigint)
            if let integer = Int64(string) { return .integer(integer) }
            return Double(string).map(PostgresValue.double) ?? .text(string)
        case 16: return .integer(string == "t" ? 1 : 0) // bool
        case 17: return hexBytes(string).map(PostgresValue.bytes) ?? .text(string) // bytea, hex output
        default: return .text(string)
        }
    }

    // bytea_output = hex (the default since 9.0): `\x` then two hex digits per byte.
    static func hexBytes(_ text: String) -> Data? {
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"), digits.count % 2 == 0 else { return nil }
        func nibble(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 48...57: return byte - 48
            case 97...102: return byte - 87
            case 65...70: return byte - 55
            default: return nil
            }
        }
        var data = Data(capacity: (digits.count - 2) / 2)
        var index = 2
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }
}
