import EmulatorCore
import Foundation
import SQLiteStore

/// The host app's routing decision for a looked-up voucher (`Voucher.action`, SDK `VoucherAction`).
public enum VoucherAction: String, Sendable, CaseIterable, Codable {
    // Wire values are the SDK's case names (D-WL-15).
    case normalRegistration, deviceTransferablePopup, deviceNonTransferablePopup, userNotLoggedInClaimed
    case differentEmailClaimed, activeWarrantyConflict, warrantyNotTransferable, startWarrantyTransfer

    /// `activeWarrantyConflict` and `warrantyNotTransferable` are errors for the SDK (`isError == true`).
    public var isError: Bool { self == .activeWarrantyConflict || self == .warrantyNotTransferable }
}

/// Which registration fields the host shows (SDK `RegistrationType`).
public enum RegistrationType: String, Sendable, CaseIterable, Codable {
    // Wire values are the SDK's case names.
    case normalRegistration, passwordlessRegistration, lockedEmailRegistration
}

/// What the voucher lookup knows about the caller and the voucher when deriving the action.
public struct VoucherLookupFacts: Sendable, Equatable {
    /// Seeded `forceAction`, if any.
    public var forcedAction: VoucherAction?
    /// `unredeemed`, `claimed` or `redeemed`.
    public var status: String
    /// Expiry, if any.
    public var expiresAt: Date?
    /// Whether the plan may move to another device or owner.
    public var transferable: Bool
    /// The account the voucher is claimed by.
    public var claimedByUserID: String?
    /// The device the voucher is bound to.
    public var originalDeviceID: String?
    /// `isPlanTransfer` query flag.
    public var isPlanTransfer: Bool
    /// `activeWarrantiesInCurrentDevice` query value.
    public var activeWarrantiesInCurrentDevice: Int
    /// Whether Understudy itself holds an active warranty for the calling device.
    public var deviceHasActiveWarranty: Bool
    /// The authenticated caller, if the request carried user credentials.
    public var callerUserID: String?
    /// `deviceId` query value.
    public var deviceID: String?

    /// Creates facts with neutral defaults.
    public init(forcedAction: VoucherAction? = nil, status: String = "unredeemed", expiresAt: Date? = nil, transferable: Bool = false,
                claimedByUserID: String? = nil, originalDeviceID: String? = nil, isPlanTransfer: Bool = false,
                activeWarrantiesInCurrentDevice: Int = 0, deviceHasActiveWarranty: Bool = false, callerUserID: String? = nil, deviceID: String? = nil) {
        self.forcedAction = forcedAction
        self.status = status
        self.expiresAt = expiresAt
        self.transferable = transferable
        self.claimedByUserID = claimedByUserID
        self.originalDeviceID = originalDeviceID
        self.isPlanTransfer = isPlanTransfer
        self.activeWarrantiesInCurrentDevice = activeWarrantiesInCurrentDevice
        self.deviceHasActiveWarranty = deviceHasActiveWarranty
        self.callerUserID = callerUserID
        self.deviceID = deviceID
    }
}

/// WarrantyLife's rules, free of HTTP and SQL so they are unit-tested directly.
public enum WarrantyLifeRules {
    /// The voucher action per the decision table D-WL-15 (first matching rule wins), or the
    /// redeemed/expired error.
    public static func action(for facts: VoucherLookupFacts, now: Date) throws(WarrantyLifeError) -> VoucherAction {
        if let forced = facts.forcedAction { return forced }
        if facts.status == "redeemed" { throw .voucherRedeemed }
        if let expiresAt = facts.expiresAt, now >= expiresAt { throw .voucherExpired }
        if facts.isPlanTransfer { return facts.transferable ? .startWarrantyTransfer : .warrantyNotTransferable }
        if facts.activeWarrantiesInCurrentDevice > 0 || facts.deviceHasActiveWarranty { return .activeWarrantyConflict }
        if let claimer = facts.claimedByUserID {
            guard let caller = facts.callerUserID else { return .userNotLoggedInClaimed }
            if caller != claimer { return .differentEmailClaimed }
        }
        if let original = facts.originalDeviceID, !original.isEmpty, original != facts.deviceID {
            return facts.transferable ? .deviceTransferablePopup : .deviceNonTransferablePopup
        }
        return .normalRegistration
    }

    /// Voucher codes match case-insensitively with surrounding whitespace ignored.
    public static func normalizedVoucherCode(_ code: String) -> String {
        code.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
    }

    /// The 1302 mask: first and last character of the local part around five `*`, `@*.`, then the TLD
    /// (`jane@example.com` → `j*****e@*.com`).
    public static func maskEmail(_ email: String) -> String {
        let parts = email.split(separator: "@", maxSplits: 1)
        let local = parts.first.map(String.init) ?? ""
        let domain = parts.count > 1 ? String(parts[1]) : ""
        let tld = domain.split(separator: ".").last.map(String.init) ?? domain
        let first = local.first.map(String.init) ?? ""
        let last = local.last.map(String.init) ?? ""
        return "\(first)*****\(last)@*.\(tld)"
    }

    /// Whether a warranty covers the device now: `ACTIVE` and the clock inside the coverage dates.
    public static func hasActiveCoverage(status: String, start: String?, end: String?, now: Date) -> Bool {
        guard status == "ACTIVE" else { return false }
        if let start, let date = parseDate(start), now < date { return false }
        if let end, let date = parseDate(end), now >= date { return false }
        return true
    }

    /// A purchase date as `yyyy-MM-dd` or full ISO 8601 (D-WL-07); nil when neither.
    public static func parseDate(_ text: String) -> Date? {
        if let date = Timestamp.parse(text) { return date }
        return parseDay(text)
    }

    /// `yyyy-MM-dd` at UTC midnight, rejecting impossible days (`2026-02-30`).
    public static func parseDay(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var components = DateComponents()
        components.year = year; components.month = month; components.day = day
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: components)
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
    public static func isLocalTimestamp(_ text: String) -> Bool {
        let pieces = text.split(separator: " ", omittingEmptySubsequences: false)
        guard pieces.count == 2, parseDay(String(pieces[0])) != nil else { return false }
        let time = pieces[1].split(separator: ".", omittingEmptySubsequences: false)
        guard time.count <= 2 else { return false }
        if time.count == 2, time[1].isEmpty || !time[1].allSatisfy(\.isNumber) { return false }
        let hms = time[0].split(separator: ":", omittingEmptySubsequences: false)
        guard hms.count == 3, hms.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isNumber) }),
              let hour = Int(hms[0]), let minute = Int(hms[1]), let second = Int(hms[2]) else { return false }
        return hour < 24 && minute < 60 && second < 61
    }

    /// SHA-256 of the document serialised with sorted keys (the SDK's diagnostic fingerprint, §7.3).
    public static func sortedHash(_ document: JSONValue) -> String {
        SHA256Digest.hex(document.encoded())
    }

    /// Base64 of the warranty id, as `encodedWarrantyId` (`500123` → `NTAwMTIz`).
    public static func encodedID(_ id: String) -> String { Data(id.utf8).base64EncodedString() }

    /// The month `months` after `date` (UTC), for coverage ends.
    public static func adding(months: Int, to date: Date) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(byAdding: .month, value: months, to: date) ?? date.addingTimeInterval(Double(months) * 30 * 86_400)
    }

    /// Sensor fields of a Reading that must be numbers when present.
    static let numericReadingFields = ["accelerationX", "accelerationY", "accelerationZ", "gyroscopeX", "gyroscopeY", "gyroscopeZ",
                                       "magnetometerX", "magnetometerY", "magnetometerZ", "pitch", "roll", "yaw", "relativeAltitude",
                                       "pressure", "soundClipOffsetMs", "phase", "subphase"]

    /// Validates a readings batch: a JSON array of objects whose `readingAt` (when present) is a
    /// device-local timestamp and whose numeric fields are numbers. Returns the element count.
    public static func validateReadings(_ value: JSONValue) throws(WarrantyLifeError) -> Int {
        guard let readings = value.arrayValue else {
            throw .validation("The readings body must be a JSON array of readings.")
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
    public static func smartSaverFlags(in body: JSONValue) -> [(program: String, optedIn: Bool)] {
        var flags: [(String, Bool)] = []
        for (key, program) in [("ssr", "SSR"), ("ssd", "SSD"), ("tradeIn", "TRADE_IN")] {
            if let value = body[key]?.boolValue ?? body["smartSaver"]?[key]?.boolValue { flags.append((program, value)) }
        }
        return flags
    }

    /// Problems with an `InsightData` seed against the SDK model (§6.6); empty when it fits.
    public static func insightProblems(_ value: JSONValue) -> [String] {
        var problems: [String] = []
        func require(_ value: JSONValue?, _ path: String, _ kind: String) {
            let ok: Bool
            switch kind {
            case "string": ok = value?.stringValue != nil
            case "int": ok = value?.intValue != nil
            case "number": ok = value?.doubleValue != nil
            case "bool": ok = value?.boolValue != nil
            case "array": ok = value?.arrayValue != nil
            default: ok = value?.objectValue != nil
            }
            if !ok { problems.append("`\(path)` must be \(kind == "int" ? "an integer" : kind == "array" || kind == "object" ? "an \(kind)" : "a \(kind)")") }
        }
        func series(_ value: JSONValue?, _ path: String, _ fields: [(String, String)]) {
            require(value, path, "array")
            for (index, element) in (value?.arrayValue ?? []).enumerated() {
                require(element, "\(path).\(index)", "object")
                for (name, kind) in fields { require(element[name], "\(path).\(index).\(name)", kind) }
            }
        }
        require(value, "data", "object")
        guard value.objectValue != nil else { return problems }
        require(value["generatedAt"], "generatedAt", "string")
        require(value["timeZone"], "timeZone", "string")
        for rank in ["dropRank", "batteryRank"] {
            let history = value[rank]
            require(history, rank, "object")
            series(history?["hourly"], "\(rank).hourly", [("hour", "int"), ("date", "string"), ("rank", "int"), ("isProjected", "bool")])
            series(history?["daily"], "\(rank).daily", [("date", "string"), ("rank", "int"), ("isProjected", "bool")])
            series(history?["weekly"], "\(rank).weekly", [("startDate", "string"), ("rank", "int"), ("isProjected", "bool")])
            series(history?["monthly"], "\(rank).monthly", [("month", "string"), ("rank", "int"), ("isProjected", "bool")])
        }
        let coaching = value["coaching"]
        require(coaching, "coaching", "object")
        for hints in ["generalHints", "batteryHints", "tipHints"] {
            require(coaching?[hints], "coaching.\(hints)", "array")
            for (index, hint) in (coaching?[hints]?.arrayValue ?? []).enumerated() { require(hint, "coaching.\(hints).\(index)", "string") }
        }
        let rewards = value["rewards"]
        require(rewards, "rewards", "object")
        for optional in ["current", "projected"] {
            if let reward = rewards?[optional], reward != .null {
                require(reward, "rewards.\(optional)", "object")
                require(reward["month"], "rewards.\(optional).month", "string")
                require(reward["amount"], "rewards.\(optional).amount", "number")
            }
        }
        series(rewards?["history"], "rewards.history", [("month", "string"), ("amount", "number")])
        let tip = value["tip"]
        require(tip, "tip", "object")
        require(tip?["current"], "tip.current", "object")
        for (name, kind) in [("date", "string"), ("percentage", "number"), ("value", "number")] {
            require(tip?["current"]?[name], "tip.current.\(name)", kind)
        }
        series(tip?["daily"], "tip.daily", [("date", "string"), ("percentage", "number"), ("value", "number")])
        series(tip?["weekly"], "tip.weekly", [("startDate", "string"), ("percentage", "number"), ("value", "number")])
        series(tip?["monthly"], "tip.monthly", [("month", "string"), ("percentage", "number"), ("value", "number")])
        return problems
    }

    /// The insight document as the SDK decodes it: optional rewards emitted as `null` when absent.
    public static func normalizedInsight(_ value: JSONValue) -> JSONValue {
        guard case .object(var members) = value, case .object(var rewards)? = members["rewards"] else { return value }
        if rewards["current"] == nil { rewards["current"] = .null }
        if rewards["projected"] == nil { rewards["projected"] = .null }
        members["rewards"] = .object(rewards)
        return .object(members)
    }
}
