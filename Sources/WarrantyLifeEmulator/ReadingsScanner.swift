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

    /// `WarrantyLifeService.isStrictLocalTimestamp` over the string at `range`.
    static func isLocalTimestamp(_ scanner: JSONScanner, _ range: Range<Int>) -> Bool {
        WarrantyLifeService.isStrictLocalTimestamp(UnsafeBufferPointer(rebasing: scanner.bytes[range]))
    }
}
