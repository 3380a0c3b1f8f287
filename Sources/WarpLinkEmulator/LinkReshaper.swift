import EmulatorCore
import Foundation
import HTTPServer

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
        // By bytes when ASCII (the usual case), by Character otherwise, as `URLQuery.parse`.
        let pieces = URLQuery.splitASCII(Substring(query), on: UInt8(ascii: "&")), ascii = pieces != nil
        var items: [(String, String)] = []
        for part in pieces ?? query.split(separator: "&", omittingEmptySubsequences: true) {
            let name: Substring, value: Substring
            if let equals = ascii ? part.utf8.firstIndex(of: UInt8(ascii: "=")) : part.firstIndex(of: "=") {
                name = part[..<equals]
                value = part[part.index(after: equals)...]
            } else {
                name = part
                value = ""
            }
            guard let decodedName = URLQuery.percentDecode(name, plusAsSpace: true),
                let decodedValue = URLQuery.percentDecode(value, plusAsSpace: true)
            else { return nil }
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
            throw .paramsNotQuery
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
        return ReshapedLink(
            destinationURL: apply(set, to: link.destinationURL), iosURL: shaped(link.iosURL),
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
