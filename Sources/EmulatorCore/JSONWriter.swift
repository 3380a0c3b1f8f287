import Foundation

/// Compact JSON written straight into bytes from records, for hot routes whose answers used to be
/// built as `JSONValue` trees (an allocation per node, then a sort of every object's pairs).
///
/// Its output is byte for byte what `JSONValue.write(into:)` prints for the same value: strings
/// escaped the same way, whole doubles below 1e15 as integers, other doubles in Swift's shortest
/// form, non-finite numbers as `null`. It does not sort: callers write members in the order
/// `JSONValue` would (byte order of the names), and their tests compare against the tree.
public struct JSONWriter: Sendable {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8]

    /// An empty writer with room for `capacity` bytes.
    public init(capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// The bytes as `Data`, for a response body.
    public var data: Data { Data(bytes) }

    // MARK: Structure

    /// `{`.
    public mutating func beginObject() { bytes.append(UInt8(ascii: "{")) }
    /// `}`.
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")) }
    /// `[`.
    public mutating func beginArray() { bytes.append(UInt8(ascii: "[")) }
    /// `]`.
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")) }

    /// A member name and its colon, with the comma before it unless it is the object's first.
    /// `name` is written as is: it must be a plain name that needs no escape.
    public mutating func key(_ name: StaticString) {
        // A value never ends in `{`, so the last byte tells whether this is the first member.
        if bytes.last != UInt8(ascii: "{") { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// The comma before an array element unless it is the array's first.
    public mutating func element() {
        if bytes.last != UInt8(ascii: "[") { bytes.append(UInt8(ascii: ",")) }
    }

    // MARK: Values

    /// `null`.
    public mutating func null() { bytes.append(contentsOf: [110, 117, 108, 108]) }

    /// `true` or `false`.
    public mutating func bool(_ flag: Bool) {
        if flag { bytes.append(contentsOf: [116, 114, 117, 101]) } else { bytes.append(contentsOf: [102, 97, 108, 115, 101]) }
    }

    /// A string literal, escaped as `JSONValue.writeString` escapes it.
    public mutating func string(_ text: String) { JSONValue.writeString(text, into: &bytes) }

    /// A string literal, or `null`.
    public mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    /// An integer in decimal.
    public mutating func int(_ value: Int64) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt64(value))
        }
    }

    /// An integer in decimal.
    public mutating func int(_ value: Int) { int(Int64(value)) }

    /// An integer, or `null`.
    public mutating func int(_ value: Int?) {
        if let value { int(Int64(value)) } else { null() }
    }

    /// A double as `JSONValue.double` prints: whole values below 1e15 without a fraction.
    public mutating func double(_ value: Double) {
        guard value.isFinite else { return null() } // JSON has no NaN or infinity
        if value == value.rounded(), value.magnitude < 1e15 { return int(Int64(value)) } // checked: whole and below 1e15
        bytes.append(contentsOf: value.description.utf8)
    }

    /// A double (as `double(_:)`), or `null`.
    public mutating func double(_ value: Double?) {
        if let value { double(value) } else { null() }
    }

    /// A double always with a fraction or an exponent (`0.0`, `180.0`): Swift's shortest form.
    public mutating func fractionalDouble(_ value: Double) {
        guard value.isFinite else { return null() }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// Any `JSONValue`, printed by the tree's own writer (for open-ended members).
    public mutating func value(_ value: JSONValue) { value.write(into: &bytes) }

    /// Bytes that are already JSON.
    public mutating func raw(_ json: [UInt8]) { bytes.append(contentsOf: json) }

    /// Lets another printer of compact JSON (a platform's own) append one value in place.
    public mutating func append(with printer: (inout [UInt8]) -> Void) { printer(&bytes) }

    /// `"2026-11-03T12:43:29.562000Z"` for epoch milliseconds: what
    /// `Timestamp.formatMicroseconds(Date(timeIntervalSince1970: Double(ms) / 1000))` prints,
    /// computed the same way but without a `Date`, a `String` or `gmtime_r`.
    public mutating func timestampMicroseconds(milliseconds: Int64) {
        timestampMicroseconds(seconds: Double(milliseconds) / 1000)
    }

    /// `"2026-11-03T12:43:29.562522Z"` for epoch seconds, as `Timestamp.formatMicroseconds` prints.
    public mutating func timestampMicroseconds(seconds: Double) {
        // Through `Date` as the formatter goes: it keeps seconds since 2001, and the trip back can move the last bit.
        // Clamped as `Timestamp.formatMicroseconds` clamps: a stored 1e300 prints as year 9999
        // instead of trapping in `Int64(whole)` below.
        let micros = (Timestamp.clamped(Date(timeIntervalSince1970: seconds)).timeIntervalSince1970 * 1_000_000).rounded()
        let whole = (micros / 1_000_000).rounded(.down)
        bytes.append(UInt8(ascii: "\""))
        appendUTC(seconds: Int64(whole))
        bytes.append(UInt8(ascii: "."))
        appendPadded(UInt64(micros - whole * 1_000_000), width: 6)
        bytes.append(UInt8(ascii: "Z"))
        bytes.append(UInt8(ascii: "\""))
    }

    // MARK: Digits

    private mutating func appendDigits(_ value: UInt64) {
        if value < 10 { bytes.append(UInt8(truncatingIfNeeded: 48 + value)); return }
        // Digits come out lowest first: fill a stack buffer from its end, then copy it once.
        var buffer: (UInt64, UInt64, UInt64) = (0, 0, 0) // 24 bytes: room for 20 digits
        withUnsafeMutableBytes(of: &buffer) { raw in
            var rest = value
            var index = raw.count
            while rest > 0 {
                index -= 1
                raw[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                rest /= 10
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[index...]))
        }
    }

    private mutating func appendPadded(_ value: UInt64, width: Int) {
        let end = bytes.count + width
        bytes.append(contentsOf: repeatElement(48, count: width))
        var rest = value
        var index = end - 1
        while index >= end - width {
            bytes[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
            rest /= 10
            index -= 1
        }
    }

    /// `YYYY-MM-DDThh:mm:ss` (proleptic Gregorian, UTC) by the days-from-civil inverse, as
    /// `gmtime_r` computes it for every date with a four-digit year.
    private mutating func appendUTC(seconds: Int64) {
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 { secondOfDay += 86_400; days -= 1 }
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        appendPadded(UInt64(max(0, year)), width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(UInt64(month), width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(UInt64(day), width: 2)
        bytes.append(UInt8(ascii: "T"))
        appendPadded(UInt64(secondOfDay / 3600), width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(UInt64(secondOfDay / 60 % 60), width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(UInt64(secondOfDay % 60), width: 2)
    }
}
