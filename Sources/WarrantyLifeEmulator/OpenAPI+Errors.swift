import EmulatorCore
import Foundation

// Error responses: every example is the body the server sends for a catalogue entry, so the
// document cannot show one the server never answers, or one under another status.
extension WarrantyLifeOpenAPI {
    private typealias S = OpenAPISchema
    private typealias C = OpenAPIContent

    /// The body the server sends for `error`, traced with the sample request id.
    static func body(_ error: WarrantyLifeError) -> JSONValue {
        (try? JSONValue.parse(error.response(trace: CoreFailure.sampleRequestID).body)) ?? .null
    }

    /// A WarrantyLife error response for `errors`: their bodies as examples (named by their
    /// `error`), the trace header every error answer carries and the errors' own headers.
    static func error(_ description: String, _ errors: WarrantyLifeError...) -> JSONValue { error(description, errors) }

    /// A WarrantyLife error response for `errors` (see the variadic form).
    static func error(_ description: String, _ errors: [WarrantyLifeError]) -> JSONValue {
        let examples = errors.indices.map { index in
            let error = errors[index], earlier = errors[..<index].filter { $0.error == error.error }.count
            return (name: earlier == 0 ? error.error : "\(error.error)_\(earlier + 1)", value: body(error))
        }
        var headers: [String: JSONValue] = ["X-Understudy-Trace": OpenAPIHeader.trace]
        if errors.contains(where: { $0.headers["retry-after"] != nil }) {
            // An injected 429 always carries it (a fault rule's value, or 1 second).
            headers["Retry-After"] = OpenAPIHeader.retryAfter(
                "the fault rule's `retryAfter`, else 1.", required: errors.allSatisfy { $0.headers["retry-after"] != nil })
        } else if errors.contains(where: { $0.status == 503 }) {
            headers["Retry-After"] = OpenAPIHeader.retryAfterWhenUnavailable
        }
        return C.withHeaders(C.json(description, S.ref("Error"), examples: examples), headers)
    }

    /// The answers every SDK operation can give besides its own: 401 for the developer key (and
    /// the user credentials where they are required), 408, 429 and 5xx by fault injection.
    static func commonErrors(_ access: Access) -> [String: JSONValue] {
        let keys: [WarrantyLifeError] = [.missingDeveloperKey, .invalidDeveloperKey]
        return [
            "401": access == .user
                ? error("Missing or invalid developer key (1001/1002), or user credentials (1010).", keys + [.unauthorized])
                : error("Missing or invalid developer key (1001/1002).", keys),
            "408": error("Injected fault: request_timeout (1408).", .injected(408)),
            "429": error("Injected fault: rate_limited (1429), with Retry-After.", .injected(429)),
            "5XX": error(
                "internal_error (5000) and the other injected faults; 503 service_unavailable (5003) also when the store is unavailable.",
                .injected(500), .injected(502), .injected(503), .injected(504)),
        ]
    }

    /// The optional `Content-Encoding` of a body the server inflates (every SDK route does; the
    /// readings route also recognises a gzip stream sent without it).
    static let contentEncoding: JSONValue = OpenAPIParameter.header(
        "Content-Encoding", ["type": "string", "pattern": "^(gzip|x-gzip|deflate|identity)$"],
        "How the body is compressed: `gzip` (or `x-gzip`, `deflate`) is inflated before the route reads it; any other coding is refused with 415.")

    /// The 415 of a `Content-Encoding` the server does not take.
    static let unsupportedEncoding = error(
        "bad_request (1415): a Content-Encoding other than gzip, x-gzip, deflate or identity.",
        .forCore(.unreadableRequest(.unsupportedContentEncoding("br"))))
}
