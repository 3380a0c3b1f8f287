import EmulatorCore
import Foundation
import HTTPServer

/// Client IP addresses: which one a request counts as ([W-M3]) and how much it is trusted ([W-M4]).
public enum ClientAddress {
    /// What kind of address a text is.
    public enum Kind: Sendable, Equatable {
        /// Private, loopback, link-local or carrier-grade NAT: shared by many devices (×0.6).
        case shared
        /// Any other IPv4 address (×0.9).
        case publicIPv4
        /// A public IPv6 address (×1.0).
        case publicIPv6
        /// Not an address.
        case invalid
    }

    /// The IP a WarpLink data-plane request counts as: the override, a trusted `X-Forwarded-For`,
    /// or the socket peer, with IPv4-mapped IPv6 reduced to IPv4.
    public static func effective(peer: String, forwardedFor: String?, settings: MatchingSettings) -> String {
        if let override = settings.clientIP { return reduce(override) }
        if settings.trustForwardedFor, let header = forwardedFor,
           let first = header.split(separator: ",").first?.trimmingCharacters(in: .whitespaces), kind(of: first) != .invalid {
            return reduce(first)
        }
        return reduce(peer)
    }

    /// `::ffff:1.2.3.4` → `1.2.3.4`; other text unchanged (lower-cased).
    public static func reduce(_ address: String) -> String {
        let lowered = address.lowercased()
        if lowered.hasPrefix("::ffff:"), parseIPv4(String(lowered.dropFirst(7))) != nil { return String(lowered.dropFirst(7)) }
        return lowered
    }

    /// Classifies an address.
    public static func kind(of address: String) -> Kind {
        let reduced = reduce(address)
        if let octets = parseIPv4(reduced) {
            let (a, b) = (octets[0], octets[1])
            if a == 10 || a == 127 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168)
                || (a == 169 && b == 254) || (a == 100 && (64...127).contains(b)) || a == 0 {
                return .shared
            }
            return .publicIPv4
        }
        guard reduced.contains(":"), reduced.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }),
              reduced.split(separator: ":", omittingEmptySubsequences: false).count <= 8 else { return .invalid }
        if reduced == "::1" || reduced == "::" || reduced.hasPrefix("fe8") || reduced.hasPrefix("fe9") || reduced.hasPrefix("fea")
            || reduced.hasPrefix("feb") || reduced.hasPrefix("fc") || reduced.hasPrefix("fd") {
            return .shared
        }
        return .publicIPv6
    }

    /// The click-IP multiplier in tenths (6, 9 or 10); unknown addresses count as shared.
    public static func factorTenths(_ address: String) -> Int {
        switch kind(of: address) {
        case .publicIPv4: return 9
        case .publicIPv6: return 10
        case .shared, .invalid: return 6
        }
    }

    private static func parseIPv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let value = Int(part), (0...255).contains(value) else { return nil }
            octets.append(value)
        }
        return octets
    }
}

/// `normalizeLang` of [W-M2].
public enum LanguageNormalizer {
    /// First comma-separated entry, `;q=` stripped, trimmed, `_` → `-`, lower-cased; `primary`
    /// mode keeps the primary subtag only.
    public static func normalize(_ raw: String?, mode: String = "full") -> String {
        guard let raw else { return "" }
        let first = raw.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let tag = (first.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "")
            .trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "_", with: "-").lowercased()
        if mode == "primary" { return tag.split(separator: "-").first.map(String.init) ?? tag }
        return tag
    }
}

/// IANA zones: validity and the JS-style offset ([W-A2], [W-C3]).
public enum TimeZones {
    private static let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers).union(["UTC", "Etc/UTC", "GMT", "Etc/GMT"])

    /// Whether `identifier` is a tzdb zone name.
    public static func isValid(_ identifier: String) -> Bool {
        known.contains(identifier) && TimeZone(identifier: identifier) != nil
    }

    /// Minutes with `getTimezoneOffset` sign (UTC−5 → 300) for `identifier` at `date`.
    public static func jsOffset(_ identifier: String, at date: Date) -> Int? {
        guard isValid(identifier), let zone = TimeZone(identifier: identifier) else { return nil }
        return -zone.secondsFromGMT(for: date) / 60
    }
}

/// Confidence ceilings by click age and fingerprint variant ([W-M4], [W-M5]), in hundredths.
public enum ConfidenceScale {
    /// The fingerprint variants, best first.
    public enum Variant: String, Sendable, CaseIterable {
        case enrichedTZ = "enriched_tz"
        case enriched
        case basic
    }

    /// The ceiling for a click `age` seconds old, or nil when it is too old to match.
    public static func ceiling(_ variant: Variant, age: TimeInterval, legacy: Bool) -> Int? {
        guard age >= 0 else { return ceiling(variant, age: 0, legacy: legacy) }
        let hours = age / 3600
        if legacy {
            if hours < 1 { return 85 }
            if hours < 24 { return 65 }
            if hours < 72 { return 40 }
            return nil
        }
        let row: [Int]
        if hours < 1 { row = [85, 80, 70] } else if hours < 3 { row = [65, 60, 50] } else if hours < 6 { row = [50, 45, 35] }
        else if hours < 24 { row = [30, 25, 20] } else { return nil }
        switch variant {
        case .enrichedTZ: return row[0]
        case .enriched: return row[1]
        case .basic: return row[2]
        }
    }

    /// The final confidence: ceiling × candidate multiplier × IP factor, rounded half up to 2 decimals.
    /// Integer arithmetic keeps e.g. 0.85 × 0.9 at 0.77 rather than a binary-rounding 0.76.
    public static func confidence(ceiling: Int, claimableInBucket: Int, ipFactorTenths: Int, legacy: Bool) -> Double {
        var hundredths = ceiling
        var candidateTenths = 10
        if legacy {
            hundredths = max(0, ceiling - 15 * max(0, claimableInBucket - 1))
        } else if claimableInBucket > 1 {
            candidateTenths = 6
        }
        let product = hundredths * candidateTenths * ipFactorTenths // units of 1e-4
        let rounded = (product + 50) / 100
        return Double(rounded) / 100
    }

    /// The match window of a link in seconds: its `match_window_hours` (default 6, or 72 when
    /// legacy), clamped to 24 h (72 h legacy).
    public static func window(hours: Int?, legacy: Bool) -> TimeInterval {
        let ceilingHours = legacy ? 72 : 24
        let chosen = min(max(hours ?? (legacy ? 72 : 6), 0), ceilingHours)
        return TimeInterval(chosen) * 3600
    }
}

/// An ordered parameter set where a later value replaces an earlier one but keeps its position.
public struct ParameterSet: Sendable, Equatable {
    /// The pairs, in first-appearance order.
    public private(set) var pairs: [(name: String, value: String)] = []

    /// An empty set.
    public init() {}

    /// A set from pairs (later duplicates win).
    public init(_ items: [(String, String)]) { for (name, value) in items { set(name, value) } }

    /// Sets `name` to `value`.
    public mutating func set(_ name: String, _ value: String) {
        if let index = pairs.firstIndex(where: { $0.name == name }) { pairs[index].value = value } else { pairs.append((name, value)) }
    }

    /// Sets every pair of `other`, in its order.
    public mutating func merge(_ other: ParameterSet) { for pair in other.pairs { set(pair.name, pair.value) } }

    /// Whether empty.
    public var isEmpty: Bool { pairs.isEmpty }

    /// As a JSON object of strings.
    public var json: JSONValue { .object(Dictionary(pairs.map { ($0.name, JSONValue.string($0.value)) }, uniquingKeysWith: { _, last in last })) }

    /// Equal when the same pairs are in the same order.
    public static func == (lhs: ParameterSet, rhs: ParameterSet) -> Bool {
        lhs.pairs.count == rhs.pairs.count && zip(lhs.pairs, rhs.pairs).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }
}

/// Link URL reshaping of [W-L3]: parses tapped and stored queries, merges them with the link's
/// `custom_params`, and applies the result to every URL of the link.
public enum LinkReshaper {
    /// Most bytes of a `params` value and most parameters in it; beyond either the request is absurd.
    public static let maxParamsBytes = 8_192
    /// Most parameters in one set.
    public static let maxParamCount = 100

    /// Parses a query string form-style (`+` is a space); nil when an escape is malformed or the
    /// result is not UTF-8.
    public static func parseQuery(_ query: String) -> [(String, String)]? {
        guard !query.isEmpty else { return [] }
        var items: [(String, String)] = []
        for part in query.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring, value: Substring
            if let equals = part.firstIndex(of: "=") {
                name = part[..<equals]
                value = part[part.index(after: equals)...]
            } else {
                name = part
                value = ""
            }
            guard let decodedName = URLQuery.percentDecode(name, plusAsSpace: true),
                  let decodedValue = URLQuery.percentDecode(value, plusAsSpace: true) else { return nil }
            items.append((decodedName, decodedValue))
        }
        return items
    }

    /// The tapped parameters from a raw `params` value as it sits in the request query (still
    /// encoded once for transport): decoded once, then parsed as a query string.
    public static func tappedParameters(rawParamsValue: String) throws(WarpLinkError) -> ParameterSet {
        guard rawParamsValue.utf8.count <= maxParamsBytes else {
            throw .validation([WarpLinkFieldProblem("params", "must be at most \(maxParamsBytes) bytes")])
        }
        guard let once = URLQuery.percentDecode(rawParamsValue, plusAsSpace: true), let items = parseQuery(once) else {
            throw .validation([WarpLinkFieldProblem("params", "is not a valid percent-encoded query string")])
        }
        guard items.count <= maxParamCount else {
            throw .validation([WarpLinkFieldProblem("params", "must hold at most \(maxParamCount) parameters")])
        }
        return ParameterSet(items)
    }

    /// The stored `custom_params` object as strings (numbers and booleans in their JSON spelling), by key.
    public static func stringParameters(_ object: JSONValue) -> ParameterSet {
        var set = ParameterSet()
        for (key, value) in (object.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch value {
            case .string(let text): set.set(key, text)
            case .null: set.set(key, "")
            case .bool(let flag): set.set(key, flag ? "true" : "false")
            default: set.set(key, String(decoding: value.encoded(), as: UTF8.self))
            }
        }
        return set
    }

    /// The merged set: the destination's own query, then the link's `custom_params`, then the tapped ones.
    public static func merged(destination: String, customParams: JSONValue, tapped: ParameterSet) -> ParameterSet {
        var set = ParameterSet(parseQuery(URLParts(destination).query ?? "") ?? [])
        set.merge(stringParameters(customParams))
        set.merge(tapped)
        return set
    }

    /// `url` with `parameters` set on its query (its own parameters kept unless overridden),
    /// serialised the way a WHATWG URL parser would (a bare http(s) origin gains `/`).
    public static func apply(_ parameters: ParameterSet, to url: String) -> String {
        var parts = URLParts(url)
        var set = ParameterSet(parseQuery(parts.query ?? "") ?? [])
        set.merge(parameters)
        parts.query = set.isEmpty ? nil : encodeForm(set)
        return parts.serialized
    }

    /// The reshaped URLs of a link for the tapped parameters.
    public static func reshape(_ link: LinkRecord, tapped: ParameterSet) -> ReshapedLink {
        let set = merged(destination: link.destinationURL, customParams: link.customParams, tapped: tapped)
        func shaped(_ url: String?) -> String? { url.map { apply(set, to: $0) } }
        return ReshapedLink(destinationURL: apply(set, to: link.destinationURL), iosURL: shaped(link.iosURL),
                            iosFallbackURL: shaped(link.iosFallbackURL), androidURL: shaped(link.androidURL),
                            androidFallbackURL: shaped(link.androidFallbackURL), customParams: set)
    }

    /// `application/x-www-form-urlencoded` serialisation (URLSearchParams): space as `+`.
    public static func encodeForm(_ set: ParameterSet) -> String {
        set.pairs.map { formEncode($0.name) + "=" + formEncode($0.value) }.joined(separator: "&")
    }

    private static func formEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}

/// A link's URLs after reshaping.
public struct ReshapedLink: Sendable, Equatable {
    /// `destination_url`.
    public var destinationURL: String
    /// `ios_url`.
    public var iosURL: String?
    /// `ios_fallback_url`.
    public var iosFallbackURL: String?
    /// `android_url`.
    public var androidURL: String?
    /// `android_fallback_url`.
    public var androidFallbackURL: String?
    /// The merged parameter set (`custom_params` on the wire).
    public var customParams: ParameterSet
}

/// A URL split into base, query and fragment, enough to replace the query without a full parser.
public struct URLParts: Sendable, Equatable {
    /// Scheme through path.
    public var base: String
    /// The query without `?`, or nil when there is none.
    public var query: String?
    /// The fragment without `#`, or nil.
    public var fragment: String?

    private static let specialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp"]

    /// Splits `url`.
    public init(_ url: String) {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") {
            fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        base = String(rest)
    }

    /// The URL text; special schemes get a lower-cased scheme and host and a `/` path when empty.
    public var serialized: String {
        var head = base
        if let colon = head.range(of: "://") {
            let scheme = head[..<colon.lowerBound].lowercased()
            if Self.specialSchemes.contains(scheme) {
                let afterScheme = head[colon.upperBound...]
                let hostEnd = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
                let host = afterScheme[..<hostEnd].lowercased()
                let path = afterScheme[hostEnd...]
                head = scheme + "://" + host + (path.isEmpty ? "/" : String(path))
            }
        }
        return head + (query.map { "?" + $0 } ?? "") + (fragment.map { "#" + $0 } ?? "")
    }
}

/// Slugs and hosts as the emulator accepts them.
public enum WarpLinkNames {
    /// The shared short-link domain.
    public static let sharedDomain = "aplnk.to"
    /// The real API host.
    public static let apiHost = "api.warplink.app"

    /// Whether `slug` is 1–128 characters of `A–Z a–z 0–9 - _ .` (what short links use).
    public static func isValidSlug(_ slug: String) -> Bool {
        !slug.isEmpty && slug.utf8.count <= 128 && slug.utf8.allSatisfy { byte in
            (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || byte == 45 || byte == 95 || byte == 46
        } && slug != "." && slug != ".."
    }

    /// Whether `key` has the SDKs' local format `wl_(live|test)_<32 alphanumerics>`.
    public static func isWellFormedKey(_ key: String) -> Bool {
        guard key.utf8.count == 40, key.hasPrefix("wl_live_") || key.hasPrefix("wl_test_") else { return false }
        return key.utf8.dropFirst(8).allSatisfy { (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) }
    }

    /// Whether `handle` can be an app handle (`<handle>.aplnk.to`): 1–63 of `a–z 0–9 -`, not starting or ending with `-`.
    public static func isValidHandle(_ handle: String) -> Bool {
        !handle.isEmpty && handle.utf8.count <= 63 && !handle.hasPrefix("-") && !handle.hasSuffix("-")
            && handle.utf8.allSatisfy { (48...57).contains($0) || (97...122).contains($0) || $0 == 45 }
    }

    /// Whether `host` can be a custom domain: a lower-case DNS name with a dot, not an IP, not
    /// localhost and not one of WarpLink's own hosts.
    public static func isValidCustomDomain(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, host.utf8.count <= 253, host != apiHost, host != sharedDomain, !host.hasSuffix("." + sharedDomain) else { return false }
        guard labels.allSatisfy({ label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy { (48...57).contains($0) || (97...122).contains($0) || $0 == 45 }
        }) else { return false }
        return !labels.allSatisfy { $0.allSatisfy(\.isNumber) } && !(labels.last?.allSatisfy(\.isNumber) ?? false)
    }

    /// Whether `text` is a UUID (any version, either case).
    public static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if byte != 45 { return false }
            } else if !((48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)) {
                return false
            }
        }
        return true
    }

    /// Whether `text` is 64 hex digits (a pre-computed fingerprint).
    public static func isFingerprint(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (65...70).contains($0) || (97...102).contains($0) }
    }
}

/// Millisecond timestamps that survive a store-and-read round trip.
///
/// `Timestamp.format` truncates to milliseconds, and a parsed `…640Z` can come back as
/// `…639999…`, so formatting what was read could print `.639`. Rounding to the nearest
/// millisecond first and nudging inside it makes format(parse(format(x))) == format(x).
public enum WarpLinkTime {
    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, rounded to the nearest millisecond.
    public static func format(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        return Timestamp.format(Date(timeIntervalSince1970: milliseconds / 1000 + 0.000_2))
    }
}
