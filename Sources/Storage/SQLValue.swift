import Foundation

/// A value SQLite stores: its five storage classes.
public enum SQLValue: Sendable, Equatable, Hashable {
    /// SQL NULL.
    case null
    /// A signed 64-bit INTEGER.
    case integer(Int64)
    /// An 8-byte IEEE floating-point REAL.
    case real(Double)
    /// A UTF-8 TEXT string.
    case text(String)
    /// A BLOB of bytes stored exactly as given.
    case blob(Data)

    /// The value as an Int if it is an integer (or a real with no fraction).
    @inlinable public var int: Int? {
        switch self {
        case .integer(let value): return Int(value)
        // `exactly`: a stored 1e300 (or a doctored NaN) is not an integer, and `Int(_:)` would trap on it.
        case .real(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The value as a Double if numeric.
    @inlinable public var double: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .real(let value): return value
        default: return nil
        }
    }

    /// The value as text if it is text.
    @inlinable public var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The value as bytes if it is a blob (or text, as UTF-8).
    @inlinable public var data: Data? {
        switch self {
        case .blob(let value): return value
        case .text(let value): return Data(value.utf8)
        default: return nil
        }
    }

    /// Whether the value is NULL.
    @inlinable public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// A Swift value that binds to a statement parameter.
public protocol SQLBindable: Sendable {
    /// The value to bind.
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable {
    /// Itself.
    public var sqlValue: SQLValue { self }
}

extension Int: SQLBindable {
    /// As an integer.
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int64: SQLBindable {
    /// As an integer.
    public var sqlValue: SQLValue { .integer(self) }
}

extension Int32: SQLBindable {
    /// As an integer.
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Bool: SQLBindable {
    /// As 0 or 1.
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}

extension Double: SQLBindable {
    /// As a real.
    public var sqlValue: SQLValue { .real(self) }
}

extension String: SQLBindable {
    /// As text.
    public var sqlValue: SQLValue { .text(self) }
}

extension Substring: SQLBindable {
    /// As text.
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Data: SQLBindable {
    /// As a blob.
    public var sqlValue: SQLValue { .blob(self) }
}

extension Optional: SQLBindable where Wrapped: SQLBindable {
    /// The wrapped value, or NULL.
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}
