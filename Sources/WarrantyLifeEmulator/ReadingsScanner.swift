import EmulatorCore
import Foundation

/// The one-pass check of a readings batch: walks the bytes once, with no `JSONValue` tree and no
/// `Calendar` per reading, and returns the count when the batch is certainly valid. Anything it is
/// not sure of (escapes, non-ASCII, a field the rules may refuse) is nil, and the route runs the
/// reference `WarrantyLifeService.validateReadings`, whose 400s are what the client sees.
enum ReadingsScanner {
    /// The number of readings of a valid batch, or nil when the reference validation must decide.
    static func count(_ body: Data) -> Int? {
        body.withUnsafeBytes { raw -> Int? in
            var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self))
            guard scanner.consume(UInt8(ascii: "[")) else { return nil }
            var count = 0
            if !scanner.consume(UInt8(ascii: "]")) {
                while true {
                    guard reading(&scanner) else { return nil }
                    count += 1
                    if scanner.consume(UInt8(ascii: ",")) { continue }
                    guard scanner.consume(UInt8(ascii: "]")) else { return nil }
                    break
                }
            }
            scanner.skipWhitespace()
            return scanner.atEnd ? count : nil
        }
    }

    private static let readingAt = Array("readingAt".utf8)
    private static let numericFields = WarrantyLifeService.numericReadingFields.map { Array($0.utf8) }

    /// One reading object: numbers and nulls pass wherever they are (except a null or numeric
    /// `readingAt`); a string passes as `readingAt` in the device-local format or under a key the
    /// rules do not check; anything else passes only under an unchecked key.
    private static func reading(_ scanner: inout JSONScanner) -> Bool {
        guard scanner.consume(UInt8(ascii: "{")) else { return false }
        if scanner.consume(UInt8(ascii: "}")) { return true }
        while true {
            scanner.skipWhitespace()
            guard let key = scanner.string(), scanner.consume(UInt8(ascii: ":")) else { return false }
            scanner.skipWhitespace()
            let isReadingAt = scanner.equals(key, readingAt)
            if scanner.peek == UInt8(ascii: "{") || scanner.peek == UInt8(ascii: "[") {
                guard !isReadingAt, !isNumeric(scanner, key), scanner.skipValue() else { return false }
            } else {
                guard let value = scanner.scalar() else { return false }
                switch value {
                case .int, .double, .null:
                    if isReadingAt { return false }
                case .bool:
                    if isReadingAt || isNumeric(scanner, key) { return false }
                case .string(let range):
                    if isReadingAt ? !isLocalTimestamp(scanner, range) : isNumeric(scanner, key) { return false }
                }
            }
            if scanner.consume(UInt8(ascii: ",")) { continue }
            return scanner.consume(UInt8(ascii: "}"))
        }
    }

    private static func isNumeric(_ scanner: JSONScanner, _ key: Range<Int>) -> Bool {
        numericFields.contains { $0.count == key.count && scanner.equals(key, $0) }
    }

    /// `yyyy-MM-dd HH:mm:ss` with an optional `.` and digits, a real calendar day of a year from
    /// 1000: a strict subset of what `WarrantyLifeService.isLocalTimestamp` accepts.
    static func isLocalTimestamp(_ scanner: JSONScanner, _ range: Range<Int>) -> Bool {
        let bytes = scanner.bytes
        guard range.count >= 19 else { return false }
        let base = range.lowerBound
        func digit(_ offset: Int) -> Int? {
            let byte = bytes[base + offset]
            return (48...57).contains(byte) ? Int(byte - 48) : nil
        }
        func number(_ offset: Int, _ width: Int) -> Int? {
            var value = 0
            for position in offset..<(offset + width) {
                guard let next = digit(position) else { return nil }
                value = value * 10 + next
            }
            return value
        }
        guard bytes[base + 4] == UInt8(ascii: "-"), bytes[base + 7] == UInt8(ascii: "-"), bytes[base + 10] == UInt8(ascii: " "),
              bytes[base + 13] == UInt8(ascii: ":"), bytes[base + 16] == UInt8(ascii: ":"),
              let year = number(0, 4), year >= 1000, let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2) else { return false }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 61 else { return false }
        if range.count == 19 { return true }
        guard range.count > 20, bytes[base + 19] == UInt8(ascii: ".") else { return false }
        for offset in 20..<range.count where digit(offset) == nil { return false }
        return true
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
