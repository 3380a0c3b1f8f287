import Foundation

/// A forward-only reader over JSON bytes for ingest fast paths: it walks a document once without
/// building a `JSONValue` tree, and answers nil ("give up") for anything outside the plain shape it
/// knows (escapes or non-ASCII in strings, deep nesting, syntax errors). A caller that gets nil
/// reparses with `JSONValue.parse` and its own validation, so every error a client sees still comes
/// from the one reference path; the scanner only has to be right about what it accepts.
///
/// The per-byte members are `@inlinable`: the scanners that use it live in the platform modules,
/// and as calls across the module boundary `string`, `consume` and `equals` alone were a fifth of
/// a telemetry batch's CPU.
public struct JSONScanner {
    /// The document.
    public let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next unread byte.
    public var index = 0

    /// A scalar value as `JSONValue.parse` would have produced it (strings as byte ranges).
    public enum Scalar: Equatable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// An integral literal that fits in 64 bits.
        case int(Int64)
        /// Any other number.
        case double(Double)
        /// A string of printable ASCII without escapes, as its byte range (quotes excluded).
        case string(Range<Int>)
    }

    /// A scanner at the start of `bytes`.
    public init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Whether every byte has been read.
    @inlinable public var atEnd: Bool { index >= bytes.count }

    /// The next byte, or 0 at the end.
    @inlinable public var peek: UInt8 { index < bytes.count ? bytes[index] : 0 }

    /// Skips JSON whitespace.
    @inlinable public mutating func skipWhitespace() {
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 32 || byte == 10 || byte == 13 || byte == 9 else { return }
            index += 1
        }
    }

    /// Skips whitespace, then consumes `byte` if it comes next.
    @inlinable public mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Reads a plain string (the opening quote next); nil for escapes, control or non-ASCII bytes.
    @inlinable public mutating func string() -> Range<Int>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var cursor = start
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte == UInt8(ascii: "\"") { index = cursor + 1; return start..<cursor }
            // Escapes, control characters and UTF-8 are left to the reference parser.
            if byte == UInt8(ascii: "\\") || byte < 32 || byte >= 128 { return nil }
            cursor += 1
        }
        return nil
    }

    /// Whether the bytes in `range` spell `word`.
    @inlinable public func equals(_ range: Range<Int>, _ word: [UInt8]) -> Bool {
        guard range.count == word.count else { return false }
        var offset = 0
        for position in range {
            if bytes[position] != word[offset] { return false }
            offset += 1
        }
        return true
    }

    /// Whether the bytes in `range` spell `word` (a literal: no array to reach through a lazy global).
    @inlinable public func equals(_ range: Range<Int>, _ word: StaticString) -> Bool {
        guard range.count == word.utf8CodeUnitCount else { return false }
        let start = word.utf8Start
        var offset = 0
        for position in range {
            if bytes[position] != start[offset] { return false }
            offset += 1
        }
        return true
    }

    /// The text of a range `string()` returned (ASCII, so any decoding is exact).
    public func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Reads a scalar (after whitespace); nil for objects, arrays and anything the scanner gives up on.
    @inlinable public mutating func scalar() -> Scalar? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string().map(Scalar.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    /// Skips any value (after whitespace) nested at most `depth` levels; false when it gives up.
    public mutating func skipValue(depth: Int = 32) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { return false }
        let open = bytes[index]
        guard open == UInt8(ascii: "{") || open == UInt8(ascii: "[") else { return scalar() != nil }
        guard depth > 0 else { return false }
        index += 1
        let close = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
        if consume(close) { return true }
        while true {
            if open == UInt8(ascii: "{") {
                skipWhitespace()
                guard string() != nil, consume(UInt8(ascii: ":")) else { return false }
            }
            guard skipValue(depth: depth - 1) else { return false }
            if consume(UInt8(ascii: ",")) { continue }
            return consume(close)
        }
    }

    @inlinable mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// Exact powers of ten: a double times or divided by one of these is correctly rounded.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// A number with the reference parser's grammar and values: integral literals that fit are
    /// `.int`; others are the correctly rounded double, computed directly when the digits fit in 2^53
    /// and the exponent in ±22 (one exact operation, so the same bits as `Double(String)`), else by it.
    @usableFromInline mutating func number() -> Scalar? {
        let start = index
        var cursor = index
        let negative = bytes[cursor] == UInt8(ascii: "-")
        if negative { cursor += 1 }
        guard cursor < bytes.count, (48...57).contains(bytes[cursor]) else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0
        var isInteger = true
        var fractionDigits = 0
        if bytes[cursor] == 48 {
            cursor += 1
            if cursor < bytes.count, (48...57).contains(bytes[cursor]) { return nil }
        } else {
            while cursor < bytes.count, (48...57).contains(bytes[cursor]) {
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[cursor] - 48) }
                digits += 1
                cursor += 1
            }
        }
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
            isInteger = false
            cursor += 1
            guard cursor < bytes.count, (48...57).contains(bytes[cursor]) else { return nil }
            while cursor < bytes.count, (48...57).contains(bytes[cursor]) {
                // Leading zeros of a fraction add no significant digit.
                if digits < 19 { mantissa = mantissa &* 10 &+ UInt64(bytes[cursor] - 48); if mantissa > 0 { digits += 1 } } else { digits += 1 }
                fractionDigits += 1
                cursor += 1
            }
        }
        var exponent = 0
        if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "e") || bytes[cursor] == UInt8(ascii: "E") {
            isInteger = false
            cursor += 1
            var exponentNegative = false
            if cursor < bytes.count, bytes[cursor] == UInt8(ascii: "+") || bytes[cursor] == UInt8(ascii: "-") {
                exponentNegative = bytes[cursor] == UInt8(ascii: "-")
                cursor += 1
            }
            guard cursor < bytes.count, (48...57).contains(bytes[cursor]) else { return nil }
            while cursor < bytes.count, (48...57).contains(bytes[cursor]) {
                if exponent < 10_000 { exponent = exponent * 10 + Int(bytes[cursor] - 48) }
                cursor += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        index = cursor
        if isInteger, digits <= 18 {
            let value = Int64(mantissa)
            return .int(negative ? -value : value)
        }
        let scale = exponent - fractionDigits
        if !isInteger, digits <= 15, mantissa <= 1 << 53, scale.magnitude <= 22 {
            var value = Double(mantissa)
            value = scale < 0 ? value / Self.powersOfTen[-scale] : value * Self.powersOfTen[scale]
            return .double(negative ? -value : value)
        }
        // Long or extreme literals: exactly what the reference parser does with the same text.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .int(integer) }
        return Double(text).map(Scalar.double)
    }
}
