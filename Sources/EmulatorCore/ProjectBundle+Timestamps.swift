import Foundation

extension ProjectBundle {
    /// Epoch milliseconds of the ends of `Timestamp.range`, the bound of a `…_ms` cell.
    static let millisecondRange: ClosedRange<Double> =
        Timestamp.range.lowerBound.timeIntervalSince1970 * 1000...Timestamp.range.upperBound.timeIntervalSince1970 * 1000

    /// Why a cell of a time column cannot be imported, nil when it can (or the column holds no
    /// time). Every platform names its time columns `…_at`, `…_time` (ISO 8601 text, or epoch
    /// seconds as a number) and `…_ms` (epoch milliseconds, or a duration); a cell outside
    /// `Timestamp.range` would be stored and then fail every answer that renders it, so it is a
    /// 400 at import like any other mistyped cell.
    static func timeProblem(column: String, value: JSONValue) -> String? {
        if column.hasSuffix("_ms") {
            guard let number = value.doubleValue else { return nil }
            return millisecondRange.contains(number) ? nil : "must be epoch milliseconds within years 0001–9999"
        }
        guard column.hasSuffix("_at") || column.hasSuffix("_time") || column == "time" else { return nil }
        switch value {
        case .string(let text):
            return isTimestampText(text) ? nil : "must be an ISO 8601 date-time within years 0001–9999"
        case .int, .double:
            return value.doubleValue.flatMap { Date(epochSeconds: $0) } == nil ? "must be epoch seconds within years 0001–9999" : nil
        default:
            return nil
        }
    }

    /// ISO 8601 as `Timestamp.parse` reads it, or the same with a space for the `T` and no zone
    /// (`2026-11-30 10:15:00.250`, the form one platform's SDK sends and its rows keep).
    static func isTimestampText(_ text: String) -> Bool {
        if Timestamp.parse(text) != nil { return true }
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, bytes[10] == UInt8(ascii: " ") else { return false }
        var spelled = bytes
        spelled[10] = UInt8(ascii: "T")
        return Timestamp.parse(String(decoding: spelled, as: UTF8.self) + "Z") != nil
    }
}
