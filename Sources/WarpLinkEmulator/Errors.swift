import EmulatorCore
import Foundation
import HTTPServer

/// One field problem inside a `VALIDATION_ERROR` body (`details.fields[]`).
public struct WarpLinkFieldProblem: Sendable, Equatable {
    /// The field, as named on the wire (`platform`, `params`, …).
    public var field: String
    /// What is wrong with it.
    public var message: String

    /// Creates a problem.
    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }
}

/// WarpLink's error catalogue: `{"error":{"code","message","details"?}}` with the documented statuses.
public struct WarpLinkError: FixedResponseError, Sendable, Equatable {
    /// HTTP status.
    public var status: Int
    /// `error.code`, e.g. `UNAUTHORIZED`.
    public var code: String
    /// `error.message`.
    public var message: String
    /// `error.details.fields`, for validation errors.
    public var fields: [WarpLinkFieldProblem]
    /// Extra headers (`Retry-After` on 429).
    public var headers = HTTPHeaders()

    /// Creates an error.
    public init(status: Int, code: String, message: String, fields: [WarpLinkFieldProblem] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
    }

    /// Compares status, code, message and fields (headers are transport detail).
    public static func == (lhs: WarpLinkError, rhs: WarpLinkError) -> Bool {
        lhs.status == rhs.status && lhs.code == rhs.code && lhs.message == rhs.message && lhs.fields == rhs.fields
    }

    /// 401 for a missing, malformed, unknown or revoked key.
    public static func unauthorized(_ message: String = "Invalid API key") -> WarpLinkError {
        WarpLinkError(status: 401, code: "UNAUTHORIZED", message: message)
    }

    /// 401 without an `Authorization` header.
    static let missingKey = unauthorized("Missing API key")
    /// 401 for an `Authorization` that is not a bearer token.
    static let notBearer = unauthorized("Authorization must be `Bearer <key>`")
    /// 401 for a bearer token that cannot be a WarpLink key.
    static let malformedKey = unauthorized("Invalid API key format")
    /// 403 for a key without `links:read` on resolve.
    static let linksReadMissing = forbidden("Key lacks the links:read scope")
    /// The 401 or 403 (by project setting) of an API key on attribution, which only SDK keys may use.
    static func apiKeyOnAttribution(status: Int) -> WarpLinkError {
        let message = "API keys cannot record installs; use an SDK key"
        return status == 401 ? unauthorized(message) : forbidden(message)
    }
    /// 400 for an attribution body that is not JSON.
    static let bodyNotJSON = validation([WarpLinkFieldProblem("body", "must be a JSON object")], message: "Request body is not valid JSON")
    /// 400 for an attribution body that is JSON but no object.
    static let bodyNotObject = validation([WarpLinkFieldProblem("body", "must be a JSON object")])
    /// 400 for a `params` value that is no query string.
    static let paramsNotQuery = validation([WarpLinkFieldProblem("params", "is not a valid percent-encoded query string")])
    /// 400 for a short-link query that cannot be read.
    static let queryNotQuery = validation([WarpLinkFieldProblem("query", "is not a valid percent-encoded query string")])

    /// 403 for a key without the scope a route needs.
    public static func forbidden(_ message: String) -> WarpLinkError {
        WarpLinkError(status: 403, code: "FORBIDDEN", message: message)
    }

    /// 403 for a password-protected link (the SDKs read this code).
    public static let passwordRequired = WarpLinkError(status: 403, code: "PASSWORD_REQUIRED", message: "This link is password protected.")

    /// 404 for a missing, inactive, foreign or suspended-domain link (and unknown paths).
    public static let notFound = WarpLinkError(status: 404, code: "NOT_FOUND", message: "Not found")

    /// 410 for an expired link.
    public static let gone = WarpLinkError(status: 410, code: "GONE", message: "This link has expired.")

    /// 400 with field details.
    public static func validation(_ fields: [WarpLinkFieldProblem], message: String = "Request validation failed") -> WarpLinkError {
        WarpLinkError(status: 400, code: "VALIDATION_ERROR", message: message, fields: fields)
    }

    /// 429 when rate-limit enforcement is on.
    public static func rateLimited(retryAfter: Int) -> WarpLinkError {
        var error = WarpLinkError(status: 429, code: "RATE_LIMIT_EXCEEDED", message: "Rate limit exceeded: 60 requests per minute.")
        error.headers.setRetryAfter(retryAfter)
        return error
    }

    /// One of each entry, the parameterised ones with values the routes use: the bodies the
    /// OpenAPI document's error examples are drawn from, and what its test holds them to.
    static let catalogue: [WarpLinkError] =
        [
            missingKey, notBearer, malformedKey, unauthorized(), forbidden("Invalid API key"), linksReadMissing, apiKeyOnAttribution(status: 401),
            apiKeyOnAttribution(status: 403), passwordRequired, notFound, gone, bodyNotJSON, bodyNotObject, paramsNotQuery, queryNotQuery,
            validation([WarpLinkFieldProblem("platform", "must be one of: ios, android")]), rateLimited(retryAfter: 1),
        ] + [500, 502, 503, 504].map { WarpLinkError(failure: .injected(status: $0)) }

    /// WarpLink's envelope for a failure the core detects (unknown route, unreadable body,
    /// injected fault, store unavailable): unknown routes read like WarpLink's own `NOT_FOUND`,
    /// 405 keeps the core's message naming the allowed methods, and a 503 (injected, or the store
    /// failing while identifying the project) is `INTERNAL_ERROR`, the only 5xx code the SDKs know.
    public init(failure: CoreFailure) {
        let status = failure.status
        switch failure {
        case .routeNotFound: self.init(status: status, code: "NOT_FOUND", message: "Not found")
        case .methodNotAllowed: self.init(status: status, code: "METHOD_NOT_ALLOWED", message: failure.message)
        case .internalError: self.init(status: status, code: "INTERNAL_ERROR", message: "Internal error")
        case .storageUnavailable: self.init(status: status, code: "INTERNAL_ERROR", message: failure.message)
        case .storedStateUnreadable: self.init(status: status, code: Self.code(forStatus: status), message: failure.message)
        case .constraintViolation(let unique):
            self.init(status: status, code: unique ? "CONFLICT" : "VALIDATION_ERROR", message: failure.message)
        case .unreadableRequest, .invalidBody, .injected, .misdirectedRequest:
            self.init(status: status, code: Self.code(forStatus: status), message: failure.message)
        }
    }

    /// The documented code for a status the core reports (unknown route, bad body, injected fault).
    public static func code(forStatus status: Int) -> String {
        switch status {
        case 400, 413, 415, 422: return "VALIDATION_ERROR"
        case 401: return "UNAUTHORIZED"
        case 403: return "FORBIDDEN"
        case 404: return "NOT_FOUND"
        case 405: return "METHOD_NOT_ALLOWED"
        case 410: return "GONE"
        case 429: return "RATE_LIMIT_EXCEEDED"
        case 500..<600: return "INTERNAL_ERROR"
        default: return status < 500 ? "VALIDATION_ERROR" : "INTERNAL_ERROR"
        }
    }

    /// The wire body.
    public var body: JSONValue {
        var error: [String: JSONValue] = ["code": .string(code), "message": .string(message)]
        if !fields.isEmpty {
            error["details"] = ["fields": .array(fields.map { ["field": .string($0.field), "message": .string($0.message)] })]
        }
        return ["error": .object(error)]
    }

    /// The response in WarpLink's envelope.
    public var response: Response {
        var response = Response.json(status: status, bytes: body.encoded())
        for field in headers { response.headers.set(field.name, field.value) }
        return response
    }
}
