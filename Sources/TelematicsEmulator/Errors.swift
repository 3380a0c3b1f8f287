import EmulatorCore
import Foundation
import HTTPServer

/// The Telematics error catalogue [D-TM-03]: `{code, message, status, traceId}`.
public struct TelematicsError: ResponseError, Sendable, Equatable {
    /// HTTP status.
    public let status: Int
    /// Stable UPPER_SNAKE code the SDK maps to its exceptions and invalidation reasons.
    public let code: String
    /// A sentence for the developer.
    public let message: String

    /// Creates an error.
    public init(_ status: Int, _ code: String, _ message: String) {
        self.status = status
        self.code = code
        self.message = message
    }

    /// A failure the core detected, in the platform's catalogue.
    public init(_ failure: CoreFailure) {
        let code: String
        switch failure {
        case .routeNotFound: code = "ROUTE_NOT_FOUND"
        case .injected(429): code = "RATE_LIMITED"
        case .injected(503), .storageUnavailable: code = "SERVICE_UNAVAILABLE"
        case .injected(401): code = "ACCESS_TOKEN_REJECTED"
        case .injected(403): code = "ACCESS_DENIED"
        case .unreadableRequest(let error) where error.status == 413: code = "BATCH_TOO_LARGE"
        case .storedStateUnreadable, .constraintViolation(unique: true): code = "CONFLICT"
        default: code = failure.status >= 500 ? "INTERNAL_ERROR" : "INVALID_REQUEST"
        }
        self.init(failure.status, code, failure.message)
    }

    /// One of each entry, the parameterised ones with values the routes use: the bodies the
    /// OpenAPI document's error examples are drawn from, and what its test holds them to.
    static let catalogue: [TelematicsError] =
        [
            notAnObject, refreshTokenMissing, attentionEventsNotJSON, notAFlag("includeSamples", "maybe"), notAFlag("isProcessed", "maybe"),
            notAPage("pageSize", "0"), invalidDate("startTs", "yesterday"), invalidDate("timestamp", "yesterday"), invalidDate("readAt", "yesterday"),
            invalidRange, invalidPlate, invalidEventType("flying"), batchNotJSON, noAccessToken, malformedAccessToken, unknownAccessToken,
            revokedAccessToken, expiredAccessToken, accessTokenWithoutUser, refreshTokenExpired, malformedRefreshToken, unknownRefreshToken,
            revokedRefreshToken, reusedRefreshToken, accountInactive, userDenied, featureOff("TRIPS"), featureOff("KILOMETERS"),
            featureOff("ATTENTION"), serviceCodeRefused("FLEET99"), serviceCodeWithoutTrips("FLEET02"), vehicleNotFound, noCurrentVehicle,
            tripNotFound, periodNotFound, serviceCodeUnknown("NOPE"), settingsUnavailable, batchTooLarge(10_485_760),
            unknownCode("UNKNOWN_VEHICLE_TYPE", "type", 9), unknownCode("UNKNOWN_FUEL_TYPE", "fuelType", 9), unknownCode("UNKNOWN_ADD_REASON", "addReason", 9),
            kilometersDecreasing(15230), invalidCorrectionCount(1),
        ] + [429, 500, 502, 504].map { TelematicsError(.injected(status: $0)) }

    /// The answer to `request`: `traceId` is its journal id and its `X-Request-Id` is echoed.
    public func response(to request: Request, in context: EmulatorContext) -> Response {
        response(traceID: context.requestID, requestIDHeader: request.headers["x-request-id"])
    }

    /// The response body, with `traceId` set to the journal id.
    public func response(traceID: String, requestIDHeader: String? = nil) -> Response {
        var headers: HTTPHeaders = ["X-Understudy-Trace": traceID]
        if let requestIDHeader { headers.set("X-Request-Id", requestIDHeader) }
        if code == "ACCESS_TOKEN_REJECTED" { headers.set("WWW-Authenticate", "Bearer error=\"invalid_token\"") }
        if code == "RATE_LIMITED" { headers.setRetryAfter(1) }
        let body: JSONValue = ["code": .string(code), "message": .string(message), "status": .int(Int64(status)), "traceId": .string(traceID)]
        return .json(status: status, bytes: body.encoded(), headers: headers)
    }

    // MARK: Catalogue

    /// 400 for a malformed request.
    static func invalidRequest(_ message: String) -> TelematicsError { .init(400, "INVALID_REQUEST", message) }
    /// 400 for a body that is not a JSON object.
    static let notAnObject = invalidRequest("The body must be a JSON object.")
    /// 400 for a refresh without a refresh token.
    static let refreshTokenMissing = invalidRequest("`refreshToken` is required (JSON `{\"refreshToken\"}` or form `refresh_token`).")
    /// 400 for an attention-event upload that is not JSON.
    static let attentionEventsNotJSON = invalidRequest("The body must be JSON: `{\"events\": [...]}` or an array.")
    /// 400 for a query flag that is neither true nor false.
    static func notAFlag(_ name: String, _ value: String) -> TelematicsError { invalidRequest("`\(name)` must be true or false; got `\(value)`.") }
    /// 400 for a page number or size out of range.
    static func notAPage(_ name: String, _ value: String) -> TelematicsError { invalidRequest("`\(name)` must be an integer from 1 to 1000000; got `\(value)`.") }
    /// 400 for an unparsable date.
    static func invalidDate(_ name: String, _ value: String) -> TelematicsError {
        .init(400, "INVALID_DATE", "`\(name)` must be an ISO 8601 timestamp; got `\(value)`.")
    }
    /// 400 when start is after end.
    static let invalidRange = TelematicsError(400, "INVALID_RANGE", "`startTs` must not be after `endTs`.")
    /// 400 for an empty plate.
    static let invalidPlate = TelematicsError(400, "INVALID_PLATE", "`plate` must not be empty.")
    /// 400 for an unknown manual-event type.
    static func invalidEventType(_ value: String) -> TelematicsError {
        .init(400, "INVALID_EVENT_TYPE", "Unknown manual event type `\(value)`; expected one of \(ManualEventType.allCases.map(\.rawValue).joined(separator: ", ")).")
    }
    /// 400 for an unusable telemetry batch.
    static func invalidBatch(_ message: String) -> TelematicsError { .init(400, "INVALID_BATCH", message) }
    /// 400 for a telemetry body that is not JSON.
    static let batchNotJSON = invalidBatch("The telemetry body is not valid JSON.")
    /// 401 for an access token that is missing, malformed, unknown, expired or revoked.
    static func accessTokenRejected(_ why: String) -> TelematicsError { .init(401, "ACCESS_TOKEN_REJECTED", why) }
    /// 401 without a bearer token.
    static let noAccessToken = accessTokenRejected("The request carries no bearer access token.")
    /// 401 for a token that is no access token of any project.
    static let malformedAccessToken = accessTokenRejected("The access token is malformed or unknown.")
    /// 401 for an access token the project does not have.
    static let unknownAccessToken = accessTokenRejected("The access token is not known.")
    /// 401 for a revoked access token.
    static let revokedAccessToken = accessTokenRejected("The access token was revoked.")
    /// 401 for an expired access token.
    static let expiredAccessToken = accessTokenRejected("The access token has expired.")
    /// 401 for a token whose user was deleted.
    static let accessTokenWithoutUser = accessTokenRejected("The token's user no longer exists.")
    /// 401 for a refresh token that is no refresh token of any project.
    static let malformedRefreshToken = refreshTokenRejected("The refresh token is malformed or unknown.")
    /// 401 for a refresh token the project does not have.
    static let unknownRefreshToken = refreshTokenRejected("The refresh token is not known.")
    /// 401 for a revoked refresh token.
    static let revokedRefreshToken = refreshTokenRejected("The refresh token was revoked.")
    /// 401 for a rotated refresh token used again after the grace period.
    static let reusedRefreshToken = refreshTokenRejected("The refresh token was already used and its grace period is over.")
    /// 401 for an expired refresh token.
    static let refreshTokenExpired = TelematicsError(401, "REFRESH_TOKEN_EXPIRED", "The refresh token has expired.")
    /// 401 for a refresh token that is unknown, revoked or reused after the grace period.
    static func refreshTokenRejected(_ why: String) -> TelematicsError { .init(401, "REFRESH_TOKEN_REJECTED", why) }
    /// 403 for an inactive account.
    static let accountInactive = TelematicsError(403, "ACCOUNT_INACTIVE", "The user account is inactive.")
    /// 403 for a refused user or service code.
    static func accessDenied(_ why: String) -> TelematicsError { .init(403, "ACCESS_DENIED", why) }
    /// 403 for a user whose access the control plane denied.
    static let userDenied = accessDenied("Access is denied for this user.")
    /// 403 for a route of a feature switched off for the user.
    static func featureOff(_ feature: String) -> TelematicsError { accessDenied("The \(feature) feature is switched off for this user.") }
    /// 403 for an upload under a service code outside the allow-list.
    static func serviceCodeRefused(_ code: String) -> TelematicsError { accessDenied("Service code `\(code)` is not allowed.") }
    /// 403 for an upload under a service code without the TRIPS feature.
    static func serviceCodeWithoutTrips(_ code: String) -> TelematicsError { accessDenied("Service code `\(code)` does not include the TRIPS feature.") }
    /// 404 for an unknown plate or vehicle id.
    static let vehicleNotFound = TelematicsError(404, "VEHICLE_NOT_FOUND", "No vehicle with that plate or id exists.")
    /// 404 when the user has no current vehicle.
    static let noCurrentVehicle = TelematicsError(404, "NO_CURRENT_VEHICLE", "The user has no current vehicle.")
    /// 404 for an unknown trip.
    static let tripNotFound = TelematicsError(404, "TRIP_NOT_FOUND", "No such trip for this user.")
    /// 404 for an unknown period.
    static let periodNotFound = TelematicsError(404, "PERIOD_NOT_FOUND", "No such telematics period for this user.")
    /// 404 for a service code outside the allow-list.
    static func serviceCodeUnknown(_ code: String) -> TelematicsError { .init(404, "SERVICE_CODE_UNKNOWN", "Service code `\(code)` is not known.") }
    /// 503 when the project's stored settings cannot be read (the detail goes to the log and the control plane).
    static let settingsUnavailable = TelematicsError(503, "SERVICE_UNAVAILABLE", "The project's Telematics settings cannot be read; the emulator's log and control plane say why.")
    /// 413 for a batch over the size limit.
    static func batchTooLarge(_ limit: Int) -> TelematicsError { .init(413, "BATCH_TOO_LARGE", "The telemetry batch exceeds \(limit) bytes.") }
    /// 422 for catalogue codes that do not exist.
    static func unknownCode(_ code: String, _ field: String, _ value: Int) -> TelematicsError {
        .init(422, code, "`\(field)` \(value) is not in the catalogue.")
    }
    /// 422 when a report goes below the previous one.
    static func kilometersDecreasing(_ last: Double) -> TelematicsError {
        .init(422, "KILOMETERS_DECREASING", "Kilometers must not be below the last report (\(last)).")
    }
    /// 422 for a correction count out of range.
    static func invalidCorrectionCount(_ available: Int) -> TelematicsError {
        .init(422, "INVALID_CORRECTION_COUNT", "`correctionCount` must be between 1 and the number of reports (\(available)).")
    }
}
