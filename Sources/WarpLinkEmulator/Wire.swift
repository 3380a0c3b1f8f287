import EmulatorCore
import Foundation
import HTTPServer

/// Bodies exactly as WarpLink puts them on the wire: snake_case, string ids, explicit `null`s.
/// Built as `JSONValue` because Codable synthesis drops nil members, and the SDKs need them.
public enum WarpLinkWire {
    /// `{"valid": …, "domains": […]}` of `/sdk/validate`.
    public static func validate(valid: Bool, domains: [String]) -> JSONValue {
        ["valid": .bool(valid), "domains": .array(domains.map(JSONValue.string))]
    }

    /// The Link object of `/links/resolve` ([W-L4]).
    public static func link(_ link: LinkRecord, reshaped: ReshapedLink) -> JSONValue {
        [
            "id": .string(link.id),
            "slug": .string(link.slug),
            "domain": .string(link.domain),
            "short_url": .string(link.shortURL),
            "destination_url": .string(reshaped.destinationURL),
            "ios_url": optional(reshaped.iosURL),
            "ios_fallback_url": optional(reshaped.iosFallbackURL),
            "android_url": optional(reshaped.androidURL),
            "android_fallback_url": optional(reshaped.androidFallbackURL),
            "custom_params": reshaped.customParams.json,
            "app_id": optional(link.appID),
            "expires_at": optional(link.expiresAt.map { WarpLinkTime.format($0) }),
            "is_active": .bool(link.isActive),
            "tags": .array(link.tags.map(JSONValue.string)),
            "created_at": .string(WarpLinkTime.format(link.createdAt)),
            "updated_at": .string(WarpLinkTime.format(link.updatedAt)),
        ]
    }

    /// The `/attribution/match` answer.
    public static func attribution(_ result: AttributionResult, style: String) -> JSONValue {
        guard result.matched else {
            if style == "minimal" { return ["matched": false] }
            return [
                "matched": false, "match_type": nil, "match_confidence": nil, "match_guaranteed": nil, "link_id": nil,
                "deep_link_url": nil, "destination_url": nil, "custom_params": nil, "install_id": nil, "app_id": nil,
            ]
        }
        return [
            "matched": true,
            "match_type": optional(result.matchType),
            "match_confidence": result.confidence.map(JSONValue.double) ?? .null,
            "match_guaranteed": .bool(result.guaranteed),
            "link_id": optional(result.linkID),
            "deep_link_url": optional(result.deepLinkURL),
            "destination_url": optional(result.destinationURL),
            "custom_params": result.customParams ?? [:],
            "install_id": .string(result.installID),
            "app_id": optional(result.appID),
        ]
    }

    static func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    // MARK: Requests

    /// `domain` (lower-cased, default `aplnk.to`) and the tapped `params` of a resolve's query,
    /// or a 400 listing every bad field. The slug is not judged here: one that cannot exist is
    /// a 404 like any unknown slug, which the SDKs map to `linkNotFound`.
    static func resolveQuery(_ query: String) throws(WarpLinkError) -> (domain: String, tapped: ParameterSet) {
        var problems: [WarpLinkFieldProblem] = []
        var domain = WarpLinkNames.sharedDomain
        var tapped = ParameterSet()
        for part in query.split(separator: "&") {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = URLQuery.percentDecode(pieces[0], plusAsSpace: true) ?? ""
            let raw = pieces.count > 1 ? String(pieces[1]) : ""
            switch name {
            case "domain":
                guard let value = URLQuery.percentDecode(raw, plusAsSpace: true), !value.isEmpty, value.utf8.count <= 253,
                    isHostName(value)
                else {
                    problems.append(WarpLinkFieldProblem("domain", "must be a host name"))
                    continue
                }
                domain = value.lowercased()
            case "params":
                do { tapped = try LinkReshaper.tappedParameters(rawParamsValue: raw) } catch { problems.append(contentsOf: error.fields) }
            default:
                continue
            }
        }
        if !problems.isEmpty { throw .validation(problems) }
        return (domain, tapped)
    }

    /// Whether `value` is letters, digits, dots and hyphens (Unicode letters too: internationalised
    /// domains). ASCII, the usual case, is checked by byte: `Character`'s Unicode properties were
    /// most of the query's parsing in a resolve profile.
    static func isHostName(_ value: String) -> Bool {
        if value.utf8.allSatisfy({ $0 < 0x80 }) {
            return value.utf8.allSatisfy { byte in
                (byte | 0x20) &- 0x61 < 26 || byte &- 0x30 < 10 || byte == 0x2E || byte == 0x2D
            }
        }
        return value.allSatisfy { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }
    }

    /// What a browser's short-link request says: the link's domain (the Host when `host` is a
    /// link host, else `?domain=`), the browser's `tz`, and the rest of the query as tapped parameters.
    struct RedirectQuery {
        /// Lower-case link domain.
        var domain: String
        /// `tz` as sent (validated by the caller, which only logs a bad one).
        var zone: String?
        /// The query minus `tz` (and minus `domain` when the domain came from it).
        var parameters: ParameterSet
    }

    /// Reads a redirect's query, or the 400 for an unreadable or a too large query (a slug that
    /// cannot exist is the lookup's 404, as on resolve).
    static func redirectQuery(_ query: String, host: String?) throws(WarpLinkError) -> RedirectQuery {
        guard let items = LinkReshaper.parseQuery(query) else {
            throw .queryNotQuery
        }
        guard items.count <= LinkReshaper.maxParamCount, query.utf8.count <= LinkReshaper.maxParamsBytes else {
            throw .validation([WarpLinkFieldProblem("query", "is too large")])
        }
        let domain = host ?? (items.first { $0.0 == "domain" }?.1.lowercased() ?? WarpLinkNames.sharedDomain)
        return RedirectQuery(
            domain: domain, zone: items.first { $0.0 == "tz" }?.1,
            parameters: ParameterSet(items.filter { $0.0 != "tz" && (host != nil || $0.0 != "domain") }))
    }
}
