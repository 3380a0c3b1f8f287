import EmulatorCore
import Foundation

/// The OpenAPI 3.1 document of WarpLink, written with the shared builder: the three SDK routes
/// (with and without `/v1`), the short-link redirect, and the control plane under
/// `/__admin/projects/{id}/warplink` (path items with their own server-root `servers` entry).
enum WarpLinkOpenAPI {
    private typealias S = OpenAPISchema
    private typealias P = OpenAPIParameter
    private typealias C = OpenAPIContent

    /// The document (the core adds the `/warplink` server URL when serving it).
    static func document() -> JSONValue {
        var document = OpenAPIDocument(
            title: "WarpLink (Understudy)",
            description: "The WarpLink SDK endpoints as Understudy emulates them (see docs/warplink.md), and WarpLink's control plane. "
                + "Control-plane paths start with /__admin and are relative to the server root, not to the /warplink server URL.",
            schemas: schemas(),
            securitySchemes: ["bearerKey": ["type": "http", "scheme": "bearer", "description": "wl_live_… or wl_test_… key."]])
        addSDKRoutes(to: &document)
        addControlPlane(to: &document)
        return document.json()
    }

    // MARK: SDK routes

    private static let bearer: JSONValue = [["bearerKey": []]]
    private static let tapIDHeader = P.header(
        "X-WarpLink-Tap-Id", S.string,
        "Lower-case UUID, one per tap or check, repeated on retries (A1.1). On resolve it is the click id.")
    /// The rate-limit headers of [W-E1]: on every answer of a route (`required`), and the limit
    /// alone on an answer the core gives before the route runs (a fault rule's, an unreadable request).
    private static func rateLimitHeaders(required: Bool) -> [String: JSONValue] {
        let routed = required ? "" : " Not on answers given before the route runs (injected faults, unreadable requests)."
        return [
            "X-RateLimit-Limit": OpenAPIHeader.header("Always 60.", ["type": "string", "const": "60"], required: required),
            "X-RateLimit-Remaining": OpenAPIHeader.header("Requests left in the sliding minute." + routed, ["type": "string", "pattern": "^[0-9]+$"], required: required),
            "X-RateLimit-Reset": OpenAPIHeader.header("Epoch seconds when the window frees a slot." + routed, ["type": "string", "pattern": "^[0-9]+$"], required: required),
        ]
    }

    /// The body the server sends for `error`.
    static func body(_ error: WarpLinkError) -> JSONValue { error.body }

    /// A WarpLink error response: the bodies of `errors` as examples (named by code), the
    /// rate-limit headers, and `Retry-After` on a 429.
    private static func error(_ description: String, _ errors: WarpLinkError...) -> JSONValue {
        let examples = errors.indices.map { index in
            let error = errors[index], earlier = errors[..<index].filter { $0.code == error.code }.count
            return (name: earlier == 0 ? error.code : "\(error.code)_\(earlier + 1)", value: body(error))
        }
        var headers = rateLimitHeaders(required: false)
        if errors.contains(where: { $0.status == 429 }) {
            headers["Retry-After"] = OpenAPIHeader.retryAfter(
                "until the window frees a slot; on an injected 429, the fault rule's `retryAfter` when it sets one.", required: false)
        } else if errors.contains(where: { $0.status >= 500 }) {
            headers["Retry-After"] = OpenAPIHeader.retryAfterWhenUnavailable
        }
        return C.withHeaders(C.json(description, S.ref("Error"), examples: examples), headers)
    }

    /// A 200 in WarpLink's envelope, with the rate-limit headers.
    private static func ok(_ description: String, _ schema: String) -> JSONValue {
        C.withHeaders(C.json(description, S.ref(schema), example: examples[schema]), rateLimitHeaders(required: true))
    }

    private static func addSDKRoutes(to document: inout OpenAPIDocument) {
        let injected = { (status: Int) in WarpLinkError(failure: .injected(status: status)) }
        let sdkErrors: [String: JSONValue] = [
            "401": error("Missing, malformed, unknown or revoked key (`UNAUTHORIZED`).", .missingKey, .notBearer, .malformedKey, .unauthorized()),
            "403": error("`FORBIDDEN`: validate's 403 rejection style (a project setting).", .forbidden("Invalid API key")),
            "429": error("`RATE_LIMIT_EXCEEDED` when enforcement is on (with `Retry-After`), or injected.", .rateLimited(retryAfter: 1)),
            "500": error("`INTERNAL_ERROR` (only by fault injection).", injected(500)),
            "5XX": error("Injected 5xx faults, and 503 when the store is unavailable, in WarpLink's envelope.", injected(502), injected(503), injected(504)),
        ]
        for base in ["/v1", ""] {
            let suffix = base.isEmpty ? "" : "V1"
            document.add(
                "get", base + "/sdk/validate",
                OpenAPIOperation(
                    id: "validate" + suffix, summary: "Validate the key; list the org's link domains.",
                    description: "The SDKs call this on configure. The domains are aplnk.to, the key's apps' handle domains and their verified custom domains.",
                    responses: sdkErrors.merging(["200": ok("The key is accepted (or rejected with `valid:false` by setting).", "Validation")]) { $1 },
                    security: bearer))
            document.add(
                "get", base + "/links/resolve/{slug}",
                OpenAPIOperation(
                    id: "resolveLink" + suffix, summary: "Resolve a tapped link.",
                    description: "Answers the Link object with every URL reshaped by the tapped parameters, and records an analytics click.",
                    parameters: [
                        P.path("slug", S.string, "The single path segment of the tapped URL."),
                        P.query("domain", S.string, "Tapped host, lower-cased; default aplnk.to."),
                        P.query("params", S.string, "The tapped URL's raw query, URL-encoded once more."),
                        tapIDHeader,
                    ],
                    responses: sdkErrors.merging([
                        "200": ok("The Link object, reshaped by `params`; a click is recorded.", "Link"),
                        "400": error("`VALIDATION_ERROR`: bad domain or params.", .paramsNotQuery),
                        "403": error(
                            "`PASSWORD_REQUIRED` for a protected link, or `FORBIDDEN` for a key without `links:read`.", .passwordRequired, .linksReadMissing),
                        "404": error("`NOT_FOUND`: missing, inactive, deleted, other app's or suspended-domain link, or a slug no link can have.", .notFound),
                        "410": error("`GONE`: the link has expired.", .gone),
                    ]) { $1 },
                    security: bearer))
            document.add(
                "post", base + "/attribution/match",
                OpenAPIOperation(
                    id: "matchAttribution" + suffix, summary: "Deferred deep link / install attribution.",
                    description: "Runs the match cascade (Play referrer, device id, fingerprint, raw signals), claims what it matched and stores an install record.",
                    parameters: [tapIDHeader], requestBody: C.jsonBody(S.ref("AttributionRequest"), example: examples["AttributionRequest"]),
                    responses: sdkErrors.merging([
                        "200": ok("A match, a routeless match, or a no-match.", "AttributionMatch"),
                        "400": error(
                            "`VALIDATION_ERROR` with `details.fields`.", .bodyNotJSON, .bodyNotObject,
                            .validation([WarpLinkFieldProblem("platform", "must be one of: ios, android")])),
                        "401": error(
                            "Missing, malformed, unknown or revoked key (`UNAUTHORIZED`), or an API key when the project answers that with 401.",
                            .missingKey, .notBearer, .malformedKey, .unauthorized(), .apiKeyOnAttribution(status: 401)),
                        "403": error("`FORBIDDEN`: API keys cannot record installs.", .apiKeyOnAttribution(status: 403)),
                    ]) { $1 },
                    security: bearer))
        }
        document.add(
            "get", "/r/{slug}",
            OpenAPIOperation(
                id: "shortLinkRedirect",
                summary: "A browser opening a short link (also `GET /{slug}` on Host aplnk.to, <handle>.aplnk.to or a custom domain). Records a click.",
                description: "Redirects to the reshaped destination and records the click the deferred match claims later.",
                parameters: [
                    P.path("slug", S.string, "Slug."),
                    P.query("domain", S.string, "Link domain (default aplnk.to); ignored when the Host is a link host."),
                    P.query("tz", S.string, "IANA zone of the browser; invalid values are ignored."),
                ],
                responses: [
                    "302": C.withHeaders(
                        C.empty("Redirect to the reshaped destination (`Location`, `Cache-Control: no-store`)."), rateLimitHeaders(required: true)),
                    "400": error("`VALIDATION_ERROR`: unreadable or too large query.", .queryNotQuery),
                    "403": error("`PASSWORD_REQUIRED`.", .passwordRequired),
                    "404": error("`NOT_FOUND`: as on resolve, a slug no link can have included.", .notFound),
                    "410": error("`GONE`.", .gone),
                    "429": error("`RATE_LIMIT_EXCEEDED`.", .rateLimited(retryAfter: 1)),
                    "5XX": error("Injected faults, and 503 when the store is unavailable.", injected(500), injected(502), injected(503), injected(504)),
                ]))
    }
}
