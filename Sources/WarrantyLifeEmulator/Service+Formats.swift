import EmulatorCore
import Foundation
import Storage // SHA256Digest

// The formats and pure checks of WarrantyLife's wire contract, as static rules of the service so
// routes, records and the control plane share one definition.
extension WarrantyLifeService {
    /// Voucher codes match case-insensitively with surrounding whitespace ignored.
    static func normalizedVoucherCode(_ code: String) -> String {
        code.trimmingWhitespaceAndNewlines().uppercased()
    }

    /// The 1302 mask: first and last character of the local part around five `*`, `@*.`, then the TLD
    /// (`jane@example.com` → `j*****e@*.com`).
    static func maskEmail(_ email: String) -> String {
        let parts = email.split(separator: "@", maxSplits: 1)
        let local = parts.first.map(String.init) ?? ""
        let domain = parts.count > 1 ? String(parts[1]) : ""
        let tld = domain.split(separator: ".").last.map(String.init) ?? domain
        let first = local.first.map(String.init) ?? ""
        let last = local.last.map(String.init) ?? ""
        return "\(first)*****\(last)@*.\(tld)"
    }

    /// Whether a warranty covers the device now: `ACTIVE` and the clock inside the coverage dates.
    static func hasActiveCoverage(status: String, start: String?, end: String?, now: Date) -> Bool {
        guard status == "ACTIVE" else { return false }
        if let start, let date = parseDate(start), now < date { return false }
        if let end, let date = parseDate(end), now >= date { return false }
        return true
    }

    /// A date as `yyyy-MM-dd` or ISO 8601 `yyyy-MM-ddTHH:mm:ss[.SSS](Z|±hh:mm)` (D-WL-07); nil when
    /// neither. The grammar is checked here, not left to the format style, which also takes hour 24,
    /// 29 February of any year and offsets without a colon: the OpenAPI document states this grammar.
    static func parseDate(_ text: String) -> Date? {
        // The stamps this server writes (every seeded warranty's coverage dates) are settled by
        // the hand parse, a subset of the grammar below: checking them through string splits and a
        // calendar cost a ninth of a voucher lookup on a covered device.
        if let date = Timestamp.parseCanonical(text) { return date }
        if let day = parseDay(text) { return day }
        return isTimestamp(text) ? Timestamp.parse(text) : nil
    }

    /// Whether `text` is `yyyy-MM-ddTHH:mm:ss[.S{1,3}]` with `Z` or an offset of at most 18 hours.
    static func isTimestamp(_ text: String) -> Bool {
        let halves = text.split(separator: "T", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2, parseDay(String(halves[0])) != nil else { return false }
        var clock = Substring(halves[1])
        if clock.hasSuffix("Z") {
            clock = clock.dropLast()
        } else {
            let offset = clock.suffix(6)
            guard offset.count == 6, offset.first == "+" || offset.first == "-", let (hours, minutes) = hoursAndMinutes(offset.dropFirst()),
                hours < 18 || (hours == 18 && minutes == 0)
            else { return false }
            clock = clock.dropLast(6)
        }
        let pieces = clock.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, pieces[0].count == 8, let (hours, minutes) = hoursAndMinutes(pieces[0].prefix(5)), hours < 24, minutes < 60 else { return false }
        let seconds = pieces[0].dropFirst(5)
        guard seconds.first == ":", seconds.dropFirst().count == 2, seconds.dropFirst().allSatisfy(\.isASCIIDigit), let second = Int(seconds.dropFirst()), second < 60 else {
            return false
        }
        if pieces.count == 2 { return (1...3).contains(pieces[1].count) && pieces[1].allSatisfy(\.isASCIIDigit) }
        return true
    }

    /// `hh:mm` as numbers (minutes below 60), nil when it is not that.
    private static func hoursAndMinutes(_ text: Substring) -> (Int, Int)? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }), let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60 else {
            return nil
        }
        return (hours, minutes)
    }

    /// `yyyy-MM-dd` at UTC midnight, rejecting impossible days (`2026-02-30`).
    static func parseDay(_ text: String) -> Date? {
        Timestamp.dayNumber(text).map { Date(timeIntervalSince1970: Double($0) * 86_400) }
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Checks a device-local timestamp `yyyy-MM-dd HH:mm:ss.SSS` (fraction optional); `eventAt`,
    /// `readingAt` and the audio `createdAt` use it.
    static func isLocalTimestamp(_ text: String) -> Bool {
        // The usual form is settled byte by byte; the rest by the full parse, which builds a
        // calendar date (a sixteenth of a sensor event when every request went that way).
        var contiguous = text // `withUTF8` may make it contiguous
        return contiguous.withUTF8(isStrictLocalTimestamp) || isLocalTimestampByParsing(text)
    }

    /// The reference check behind `isLocalTimestamp`: the day through `parseDay`, then the time.
    static func isLocalTimestampByParsing(_ text: String) -> Bool {
        let pieces = text.split(separator: " ", omittingEmptySubsequences: false)
        guard pieces.count == 2, parseDay(String(pieces[0])) != nil else { return false }
        let time = pieces[1].split(separator: ".", omittingEmptySubsequences: false)
        guard time.count <= 2 else { return false }
        if time.count == 2, time[1].isEmpty || !time[1].allSatisfy(\.isASCIIDigit) { return false }
        let hms = time[0].split(separator: ":", omittingEmptySubsequences: false)
        guard hms.count == 3, hms.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCIIDigit) }),
            let hour = Int(hms[0]), let minute = Int(hms[1]), let second = Int(hms[2])
        else { return false }
        return hour < 24 && minute < 60 && second < 61
    }

    /// `yyyy-MM-dd HH:mm:ss` with an optional `.` and digits, a real calendar day of a year from
    /// 1000: a strict subset of what `isLocalTimestamp` accepts, checked without building a date.
    static func isStrictLocalTimestamp(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 19 else { return false }
        func digit(_ offset: Int) -> Int? {
            let byte = bytes[offset]
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
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(0, 4), year >= 1000, let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2)
        else { return false }
        guard (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year), hour < 24, minute < 60, second < 61 else { return false }
        if bytes.count == 19 { return true }
        guard bytes.count > 20, bytes[19] == UInt8(ascii: ".") else { return false }
        for offset in 20..<bytes.count where digit(offset) == nil { return false }
        return true
    }

    /// SHA-256 of the document serialised with sorted keys (the SDK's diagnostic fingerprint, §7.3).
    static func sortedHash(_ document: JSONValue) -> String {
        SHA256Digest.hex(document.encoded())
    }

    /// Base64 of the warranty id, as `encodedWarrantyId` (`500123` → `NTAwMTIz`).
    static func encodedID(_ id: String) -> String { Data(id.utf8).base64EncodedString() }

    /// The month `months` after `date` (UTC), for coverage ends.
    static func adding(months: Int, to date: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")! // UTC is always a known zone
        return calendar.date(byAdding: .month, value: months, to: date) ?? date.addingTimeInterval(Double(months) * 30 * 86_400)
    }

    /// Sensor fields of a Reading that must be numbers when present.
    static let numericReadingFields = [
        "accelerationX", "accelerationY", "accelerationZ", "gyroscopeX", "gyroscopeY", "gyroscopeZ",
        "magnetometerX", "magnetometerY", "magnetometerZ", "pitch", "roll", "yaw", "relativeAltitude",
        "pressure", "soundClipOffsetMs", "phase", "subphase",
    ]

    /// Validates a readings batch: a JSON array of objects whose `readingAt` (when present) is a
    /// device-local timestamp and whose numeric fields are numbers. Returns the element count.
    static func validateReadings(_ value: JSONValue) throws(WarrantyLifeError) -> Int {
        guard let readings = value.arrayValue else {
            throw .readingsNotAnArray
        }
        for (index, reading) in readings.enumerated() {
            guard let fields = reading.objectValue else { throw .validation("Reading \(index) must be an object.") }
            if let at = fields["readingAt"] {
                guard let text = at.stringValue, isLocalTimestamp(text) else {
                    throw .validation("Field `\(index).readingAt` must be a `yyyy-MM-dd HH:mm:ss.SSS` string.")
                }
            }
            for name in numericReadingFields {
                guard let field = fields[name], field != .null else { continue }
                guard field.doubleValue != nil else { throw .validation("Field `\(index).\(name)` must be a number.") }
            }
        }
        return readings.count
    }

    /// The Smart Saver flags a sensor event carries (top level or inside `smartSaver`), D-WL-17.
    static func smartSaverFlags(in body: JSONValue) -> [(program: SmartSaverProgram, optedIn: Bool)] {
        var flags: [(SmartSaverProgram, Bool)] = []
        for program in SmartSaverProgram.allCases {
            if let value = body[program.bodyKey]?.boolValue ?? body["smartSaver"]?[program.bodyKey]?.boolValue { flags.append((program, value)) }
        }
        return flags
    }

    /// `appConfig.countries` → the problem with `country` (a country id) and `state` (one of its
    /// province ids, or of any country's when no country is given); nil when both fit.
    static func regionProblem(appConfig: JSONValue, country: Int?, state: Int?) -> String? {
        guard country != nil || state != nil else { return nil }
        let countries = appConfig["countries"]?.arrayValue ?? []
        if let country {
            guard let match = countries.first(where: { $0["id"]?.intValue == country }) else { return "Field `country` must be a country id from /app-config." }
            if let state, !(match["provinces"]?.arrayValue ?? []).contains(where: { $0["id"]?.intValue == state }) {
                return "Field `state` must be a province id of country \(country) from /app-config."
            }
        } else if let state, !countries.contains(where: { ($0["provinces"]?.arrayValue ?? []).contains(where: { $0["id"]?.intValue == state }) }) {
            return "Field `state` must be a province id from /app-config."
        }
        return nil
    }
}

extension Character {
    /// `0`…`9` only: `isNumber` would let other scripts' digits (and `½`) into timestamps.
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
