import EmulatorCore
import Foundation

/// Times as the Telematics wire takes them: any ISO 8601 date-time, with or without a fraction
/// and with or without an offset (none means UTC), or a date alone (its midnight, UTC).
enum TelematicsTime {
    /// The instant `text` names; nil when it is no ISO 8601 date or date-time, or lies outside
    /// `Timestamp.range`.
    static func parse(_ text: String) -> Date? {
        if let date = Timestamp.parse(text) { return date }
        if Timestamp.dayNumber(text) != nil { return Timestamp.parse(text + "T00:00:00Z") }
        guard hasNoOffset(text) else { return nil }
        return Timestamp.parse(text + "Z")
    }

    /// Whether `text` is `yyyy-MM-ddThh:mm…` with nothing after its time that could be an offset:
    /// only then is a `Z` appended (a text with a malformed offset stays refused).
    private static func hasNoOffset(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 16, bytes.count <= 40, bytes[10] == UInt8(ascii: "T") else { return false }
        return bytes[11...].allSatisfy { ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
    }
}
