import Foundation

/// Any JSON value, for bodies whose shape is open (platform payloads in tests, fault bodies).
public enum AnyJSON: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integral number that fits in 64 bits.
    case int(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array, in order.
    case array([AnyJSON])
    /// An object; member order is not kept.
    case object([String: AnyJSON])

    /// Decodes any JSON.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Each `try?` probes one JSON type; a type mismatch only means "try the next one".
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([AnyJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: AnyJSON].self))
        }
    }

    /// Encodes as JSON.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Member `key`, or nil.
    public subscript(key: String) -> AnyJSON? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// Element `index`, or nil.
    public subscript(index: Int) -> AnyJSON? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// The string, if this is one.
    public var string: String? { if case .string(let value) = self { return value }; return nil }
    /// The number as Int, if integral.
    public var int: Int? {
        switch self {
        case .int(let value): return Int(value)
        case .double(let value): return Int(exactly: value) // a server's 1e300 is no Int, and `Int(_:)` would trap
        default: return nil
        }
    }
    /// The number as Double.
    public var double: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }
    /// The bool, if this is one.
    public var bool: Bool? { if case .bool(let value) = self { return value }; return nil }
    /// The elements, if an array.
    public var array: [AnyJSON]? { if case .array(let value) = self { return value }; return nil }
    /// The members, if an object.
    public var object: [String: AnyJSON]? { if case .object(let value) = self { return value }; return nil }
    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// Compact JSON text with sorted keys.
    public var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only a non-finite double fails to encode; JSON has no spelling for it, and a description
        // must not throw, so the value prints as the `null` a JSON writer would have to choose.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

extension AnyJSON: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral
{
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A float literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array literal.
    public init(arrayLiteral elements: AnyJSON...) { self = .array(elements) }
    /// An object literal.
    public init(dictionaryLiteral elements: (String, AnyJSON)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
    // Deliberately not ExpressibleByNilLiteral: with it, `optionalJSON == nil` compares with
    // `.some(.null)` and silently answers false. Write `.null` for JSON null.
}
