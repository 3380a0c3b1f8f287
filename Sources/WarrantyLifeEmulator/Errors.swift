import EmulatorCore
import Foundation
import HTTPServer

/// An error in WarrantyLife's envelope: `{"error", "errorMessage", "errorCode"}` (contract D-WL-05).
public struct WarrantyLifeError: ResponseError, Sendable, Equatable {
    /// HTTP status.
    public let status: Int
    /// The snake_case category (`validation_failed`, `voucher_not_found`, …).
    public let error: String
    /// Human text the SDK shows (`errorMessage ?? error`).
    public let message: String
    /// Understudy's stable numeric code.
    public let code: Int
    /// Extra headers (`Retry-After` on 429, `Allow` on 405).
    public var headers = HTTPHeaders()

    /// Creates an error.
    public init(status: Int, error: String, message: String, code: Int) {
        self.status = status
        self.error = error
        self.message = message
        self.code = code
    }

    /// Equality ignores headers.
    public static func == (lhs: WarrantyLifeError, rhs: WarrantyLifeError) -> Bool {
        lhs.status == rhs.status && lhs.error == rhs.error && lhs.message == rhs.message && lhs.code == rhs.code
    }

    /// The answer to `request`, tagged with its journal id (see `response(trace:)`).
    public func response(to request: Request, in context: EmulatorContext) -> Response {
        response(trace: context.requestID)
    }

    /// The JSON error body and the error's own headers, before the trace header.
    private var untracedResponse: Response {
        var response = Response.json(
            status: status,
            bytes: JSONValue.object([
                "error": .string(error), "errorMessage": .string(message), "errorCode": .int(Int64(code)),
            ]).encoded())
        for field in headers { response.headers.set(field.name, field.value) }
        return response
    }

    /// The response, tagged with the journal id so a developer can find the request.
    func response(trace: String) -> Response {
        var response = untracedResponse
        response.headers.set("X-Understudy-Trace", trace)
        return response
    }

    // MARK: Catalogue (wire doc §3.2)

    /// 400 (1400): malformed body or a missing/invalid field; the message names the field.
    static func validation(_ message: String) -> WarrantyLifeError {
        WarrantyLifeError(status: 400, error: "validation_failed", message: message, code: 1400)
    }
    /// 400 (1400) for a required body field that is absent or blank.
    static func missingField(_ name: String) -> WarrantyLifeError { validation("Field `\(name)` is required.") }
    /// 400 (1400) for a required query parameter that is absent or empty.
    static func missingQuery(_ name: String) -> WarrantyLifeError { validation("Query parameter `\(name)` is required.") }
    /// 400 (1400) for a query parameter of the wrong kind (`what`: "true or false", "a non-negative integer").
    static func badQuery(_ name: String, _ what: String) -> WarrantyLifeError { validation("Query parameter `\(name)` must be \(what).") }
    /// 400 (1400) for a JSON body that is not an object.
    static let notAnObject = validation("The request body must be a JSON object.")
    /// 400 (1400) for a readings batch that is not an array of readings.
    static let readingsNotAnArray = validation("The readings body must be a JSON array of readings.")
    /// 400 (1400) for a body with the gzip magic bytes that does not inflate.
    static let readingsNotGzip = validation("The readings body is not a valid gzip stream.")
    /// 400 (1400) for an audio clip without bytes.
    static let emptyAudioClip = validation("The audio clip is empty.")
    /// 400 (1400) for a multipart image upload without its `image` part.
    static let noImagePart = validation("The multipart body has no `image` part.")
    /// 400 (1400) for a Smart Saver program the SDK does not have.
    static let unknownProgram = validation("Field `program` must be one of SSR, SSD, TRADE_IN.")
    /// 400 (1400) for a warranty of a voucher that needs the purchase date, without it.
    static let dateOfPurchaseRequired = validation("Field `dateOfPurchase` is required for this voucher.")
    /// 400 (1400) for a reward outside what the plan allows.
    static func rewardOutOfRange(max: Double) -> WarrantyLifeError { validation("Field `rewardAmount` must be between 0 and \(max).") }
    /// 401 (1001): no `X-WL-Developer-Key`.
    static let missingDeveloperKey = WarrantyLifeError(status: 401, error: "missing_developer_key", message: "Missing developer API key.", code: 1001)
    /// 401 (1002): unknown or revoked key.
    static let invalidDeveloperKey = WarrantyLifeError(status: 401, error: "invalid_developer_key", message: "Invalid developer API key.", code: 1002)
    /// 401 (1010): no or bad user credentials.
    static let unauthorized = WarrantyLifeError(status: 401, error: "unauthorized", message: "Authentication required.", code: 1010)
    /// 404 or 401 (1101): login mismatch.
    static func invalidCredentials(status: Int) -> WarrantyLifeError {
        WarrantyLifeError(status: status, error: "invalid_credentials", message: "The e-mail or password is incorrect.", code: 1101)
    }
    /// 409 (1102).
    static let emailAlreadyRegistered = WarrantyLifeError(status: 409, error: "email_already_registered", message: "An account with this e-mail already exists.", code: 1102)
    /// 403 (1103).
    static let accountNotActivated = WarrantyLifeError(status: 403, error: "account_not_activated", message: "This account has not been activated yet.", code: 1103)
    /// 422 (1104).
    static let emailLocked = WarrantyLifeError(status: 422, error: "email_locked", message: "This voucher can only be registered with the e-mail it was issued to.", code: 1104)
    /// 404 (1201).
    static let voucherNotFound = WarrantyLifeError(status: 404, error: "voucher_not_found", message: "Voucher not found.", code: 1201)
    /// 403 (1202), text verified in the 2022 client.
    static let voucherRedeemed = WarrantyLifeError(status: 403, error: "voucher_redeemed", message: "Voucher has already been redeemed.", code: 1202)
    /// 410 (1203).
    static let voucherExpired = WarrantyLifeError(status: 410, error: "voucher_expired", message: "Voucher has expired.", code: 1203)
    /// 404 (1301).
    static let itemNotFound = WarrantyLifeError(status: 404, error: "item_not_found", message: "No item was found for this device.", code: 1301)
    /// 401 (1302) with the 2022 wording and a masked e-mail.
    static func deviceRegisteredToOtherAccount(maskedEmail: String) -> WarrantyLifeError {
        WarrantyLifeError(
            status: 401, error: "device_registered_to_other_account",
            message: "This device was originally registered under a different account (\(maskedEmail)). Please log in with that account and try again.",
            code: 1302)
    }
    /// 404 (1501).
    static let warrantyNotFound = WarrantyLifeError(status: 404, error: "warranty_not_found", message: "Warranty not found.", code: 1501)
    /// 409 (1502).
    static let warrantyConflict = WarrantyLifeError(status: 409, error: "warranty_conflict", message: "This voucher is already bound to another warranty.", code: 1502)
    /// 409 (1601).
    static func notEligible(_ program: String) -> WarrantyLifeError {
        WarrantyLifeError(status: 409, error: "not_eligible", message: "Smart Saver option \(program) is not offered for this device.", code: 1601)
    }
    /// 404 (1701).
    static let sensorEventNotFound = WarrantyLifeError(status: 404, error: "sensor_event_not_found", message: "Sensor event not found.", code: 1701)
    /// 404 (1702).
    static let diagnosticNotFound = WarrantyLifeError(status: 404, error: "diagnostic_not_found", message: "Diagnostic report not found.", code: 1702)
    /// 404 for content that does not exist (survey version, diagnostic config model).
    static func notFound(_ what: String) -> WarrantyLifeError {
        WarrantyLifeError(status: 404, error: "not_found", message: "\(what) not found.", code: 1404)
    }
    /// 404 (1404).
    static let routeNotFound = WarrantyLifeError(status: 404, error: "route_not_found", message: "No such route.", code: 1404)
    /// 413 (1413).
    static func payloadTooLarge(limit: Int) -> WarrantyLifeError {
        WarrantyLifeError(status: 413, error: "payload_too_large", message: "The upload is larger than \(limit) bytes.", code: 1413)
    }
    /// 503 (5003): a key seeded `unavailable`, or an injected fault.
    static let serviceUnavailable = WarrantyLifeError(status: 503, error: "service_unavailable", message: "The service is temporarily unavailable.", code: 5003)

    /// One of each entry, the parameterised ones with values the routes use: the bodies the
    /// OpenAPI document's error examples are drawn from, and what its test holds them to.
    static let catalogue: [WarrantyLifeError] =
        [
            missingField("deviceId"), missingField("email"), missingField("username"), missingField("password"), missingField("optIn"),
            missingField("surveyVersion"), missingQuery("email"), missingQuery("deviceId"), missingQuery("model"),
            badQuery("surveyVersion", "a non-negative integer"), badQuery("isPlanTransfer", "true or false"),
            badQuery("activeWarrantiesInCurrentDevice", "a non-negative integer"), notAnObject, readingsNotAnArray, readingsNotGzip, emptyAudioClip,
            noImagePart, unknownProgram, dateOfPurchaseRequired, rewardOutOfRange(max: 50),
            missingDeveloperKey, invalidDeveloperKey, unauthorized, invalidCredentials(status: 404), invalidCredentials(status: 401),
            emailAlreadyRegistered, accountNotActivated, emailLocked, voucherNotFound, voucherRedeemed, voucherExpired, itemNotFound,
            deviceRegisteredToOtherAccount(maskedEmail: "j***@example.com"), warrantyNotFound, warrantyConflict, notEligible("SSR"),
            sensorEventNotFound, diagnosticNotFound, notFound("Survey version 7"), notFound("Diagnostic configuration for `iPhone99,9`"), routeNotFound,
            payloadTooLarge(limit: 20_971_520), serviceUnavailable,
        ] + [408, 429, 500, 502, 503, 504].map(injected)

    /// The body for a failure the core detected (unknown route, 405, unreadable body, injected status, bug).
    static func forCore(_ failure: CoreFailure) -> WarrantyLifeError {
        switch failure {
        case .routeNotFound:
            return .routeNotFound
        case .methodNotAllowed:
            return WarrantyLifeError(status: 405, error: "method_not_allowed", message: failure.message, code: 1405)
        case .unreadableRequest(let error):
            if error.status == 413 { return WarrantyLifeError(status: 413, error: "payload_too_large", message: error.message, code: 1413) }
            return WarrantyLifeError(
                status: error.status, error: error.status == 400 ? "validation_failed" : "bad_request",
                message: error.message, code: error.status == 400 ? 1400 : 1000 + error.status)
        case .invalidBody(let error):
            return .validation(error.message)
        case .injected(let status):
            return injected(status)
        case .internalError(let message):
            return WarrantyLifeError(status: 500, error: "internal_error", message: message, code: 5000)
        case .storageUnavailable:
            return .serviceUnavailable
        case .storedStateUnreadable:
            return WarrantyLifeError(status: 409, error: "stored_state_unreadable", message: failure.message, code: 1409)
        case .misdirectedRequest:
            return WarrantyLifeError(status: 421, error: "misdirected_request", message: failure.message, code: 1421)
        case .constraintViolation(let unique):
            return unique ? WarrantyLifeError(status: 409, error: "conflict", message: failure.message, code: 1409) : .validation(failure.message)
        }
    }

    /// The catalogue entry for an injected status (408, 429, 5xx, or anything else).
    static func injected(_ status: Int) -> WarrantyLifeError {
        switch status {
        case 408: return WarrantyLifeError(status: 408, error: "request_timeout", message: "The request timed out.", code: 1408)
        case 429:
            var error = WarrantyLifeError(status: 429, error: "rate_limited", message: "Too many requests.", code: 1429)
            error.headers.setRetryAfter(1)
            return error
        case 500: return WarrantyLifeError(status: 500, error: "internal_error", message: "Internal server error.", code: 5000)
        case 502: return WarrantyLifeError(status: 502, error: "bad_gateway", message: "Bad gateway.", code: 5002)
        case 503: return .serviceUnavailable
        case 504: return WarrantyLifeError(status: 504, error: "gateway_timeout", message: "Gateway timeout.", code: 5004)
        default:
            return WarrantyLifeError(
                status: status, error: "error_\(status)", message: "Injected fault: \(status) \(HTTPStatus.reason(status))",
                code: status >= 500 ? 5000 + status % 100 : 1000 + status)
        }
    }
}
