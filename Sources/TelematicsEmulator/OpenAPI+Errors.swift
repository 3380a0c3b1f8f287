import EmulatorCore
import Foundation

// Error responses, per route: each status the route can answer, with the bodies the server sends
// for it (catalogue entries, traced with the sample request id) and the headers that come with them.
extension TelematicsOpenAPI {
    private typealias Schema = OpenAPISchema
    private typealias Content = OpenAPIContent

    /// The body the server sends for `error`.
    static func body(_ error: TelematicsError) -> JSONValue {
        (try? JSONValue.parse(error.response(traceID: CoreFailure.sampleRequestID).body)) ?? .null
    }

    /// `X-Request-Id`: echoed on the SDK routes' answers.
    static let requestIDHeader = OpenAPIHeader.header(
        "The request's own X-Request-Id, echoed when it sent one (not on answers a fault rule gives in the route's place).")

    /// The errors every bearer route can answer: the token and the account, checked first.
    static let bearerErrors: [TelematicsError] = [.noAccessToken, .expiredAccessToken, .revokedAccessToken, .accountInactive, .userDenied]

    /// The errors every route can answer: an injected 429, an injected 500, the store unavailable.
    static let faultErrors: [TelematicsError] = [TelematicsError(.injected(status: 429)), TelematicsError(.injected(status: 500)), TelematicsError(.storageUnavailable)]

    /// The 400 and 415 of a compressed body the server cannot inflate.
    static let encodingErrors: [TelematicsError] = [
        TelematicsError(.unreadableRequest(.corruptContentEncoding)), TelematicsError(.unreadableRequest(.unsupportedContentEncoding("br"))),
    ]

    /// What each status means, before the codes that say which case it was.
    private static func meaning(_ key: String, bearer: Bool) -> String {
        switch key {
        case "400": return "The request is malformed."
        case "401":
            return bearer
                ? "The access token is missing, malformed, unknown, expired or revoked." : "The refresh token is unknown, revoked, reused after its grace period, or expired."
        case "403": return "The account is inactive, or its access (or the feature, or the service code) is denied."
        case "404": return "Not found."
        case "413": return "The body is larger than `maxBatchBytes` (inflated)."
        case "415": return "A Content-Encoding other than gzip, x-gzip, deflate or identity."
        case "422": return "A value the catalogues or the earlier reports refuse."
        case "429": return "An injected fault, with Retry-After."
        default: return "An injected fault, or the store or the project's settings unavailable (503, SERVICE_UNAVAILABLE)."
        }
    }

    /// The error responses of an SDK operation: `own` with the ones every route (and every bearer
    /// route) can give, by status (5xx together as `5XX`), each with its bodies as named examples.
    static func errorResponses(_ own: [TelematicsError], bearer: Bool) -> [String: JSONValue] {
        var byKey: [String: [TelematicsError]] = [:]
        for error in (bearer ? bearerErrors : []) + own + faultErrors {
            let key = error.status >= 500 ? "5XX" : String(error.status)
            if !(byKey[key]?.contains(error) ?? false) { byKey[key, default: []].append(error) }
        }
        return byKey.reduce(into: [:]) { responses, entry in
            let (key, errors) = entry
            let examples = errors.indices.map { index in
                let error = errors[index], earlier = errors[..<index].filter { $0.code == error.code }.count
                return (name: earlier == 0 ? error.code : "\(error.code)_\(earlier + 1)", value: body(error))
            }
            var codes: [String] = []
            for error in errors where !codes.contains(error.code) { codes.append(error.code) }
            let description = meaning(key, bearer: bearer) + " Codes: " + codes.map { "`\($0)`" }.joined(separator: ", ") + "."
            var headers: [String: JSONValue] = ["X-Understudy-Trace": OpenAPIHeader.trace, "X-Request-Id": requestIDHeader]
            if errors.contains(where: { $0.code == "ACCESS_TOKEN_REJECTED" }) {
                headers["WWW-Authenticate"] = OpenAPIHeader.header(
                    "`Bearer error=\"invalid_token\"` on an ACCESS_TOKEN_REJECTED answer.", required: errors.allSatisfy { $0.code == "ACCESS_TOKEN_REJECTED" })
            }
            if key == "429" {
                headers["Retry-After"] = OpenAPIHeader.retryAfter("the fault rule's `retryAfter`, else 1.", required: true)
            } else if key == "5XX" {
                headers["Retry-After"] = OpenAPIHeader.retryAfterWhenUnavailable
            }
            responses[key] = Content.withHeaders(Content.json(description, Schema.ref("Error"), examples: examples), headers)
        }
    }

    /// The optional `Content-Encoding` of an upload the server inflates.
    static let contentEncoding: JSONValue = OpenAPIParameter.header(
        "Content-Encoding", ["type": "string", "pattern": "^(gzip|x-gzip|deflate|identity)$"],
        "How the body is compressed: `gzip` (or `x-gzip`, `deflate`) is inflated before the route reads it; any other coding is refused with 415.")
}
