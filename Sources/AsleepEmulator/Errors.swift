import EmulatorCore
import Foundation
import HTTPServer

/// An Asleep error: an HTTP status and the `{"detail": "…"}` body every Asleep error has.
public struct AsleepError: FixedResponseError, Sendable, Equatable {
    /// The status code.
    public let status: Int
    /// The `detail` text, as the real service words it where that is known.
    public let detail: String

    /// Creates an error.
    public init(_ status: Int, _ detail: String) {
        self.status = status
        self.detail = detail
    }

    /// The `{"detail": …}` body.
    public var response: Response {
        .json(status: status, bytes: JSONValue.object(["detail": .string(detail)]).encoded())
    }

    // Common errors (every route).
    static let unauthorized = AsleepError(401, "Unauthorized")
    static let userAgentEmpty = AsleepError(401, "user_agent is empty")
    static let planExpired = AsleepError(403, "Plan is expired")
    static let rateLimited = AsleepError(403, "Rate limit exceeded")
    static let quotaExceeded = AsleepError(403, "Quota exceeded")
    static let tokenInvalid = AsleepError(403, "token invalid")
    static let invalidProductKey = AsleepError(401, "invalid product key")

    // Users.
    static let userIDHeaderInvalid = AsleepError(401, "x-user-id is invalid")
    static let userDoesNotExist = AsleepError(404, "user does not exist")
    static let userNotExist = AsleepError(404, "user not exist")

    // Sessions.
    static let sessionDoesNotExistUpload = AsleepError(404, "Session does not exist")
    static let sessionDoesNotExist = AsleepError(404, "session does not exist")
    static let sessionTerminated = AsleepError(403, "Session already terminated")
    static let sessionAlreadyClosed = AsleepError(403, "Sleep session has already been closed")
    static let previousNotClosed = AsleepError(409, "Previous sleep session not yet closed")
    static let invalidStartTime = AsleepError(422, "Invalid session start time (YYYY-MM-DDTHH:mm:ssz)")
    static let invalidEndTime = AsleepError(400, "Invalid session end time. format(YYYY-MM-DDTHH:mm:ssZ)")
    static let invalidCallbackURL = AsleepError(400, "Not valid callback_url")
    static let invalidParameter = AsleepError(422, "Invalid parameter")
    static let notValidParameter = AsleepError(422, "Not valid parameter")
    static let chunkTooLarge = AsleepError(413, "HTTP length exceeded 16777216 bytes")
    static let melspectrogramToAudio = AsleepError(400, "MELSPECTROGRAM file cannot be uploaded. Only AUDIO file can be uploaded.")
    static let audioToMelspectrogram = AsleepError(400, "AUDIO file cannot be uploaded. Only MELSPECTROGRAM file can be uploaded.")

    // Data API.
    static let invalidTimezone = AsleepError(400, "invalid timezone")
    static let periodTooLong = AsleepError(400, "The period should be less than or equal to 100 days")
    static let invalidPeriod = AsleepError(400, "Invalid period")

    // Products.
    static let productNotAllowed = AsleepError(403, "product registration not allowed for this plan")

    /// Every entry, the parameterised ones with values the routes use: the bodies the OpenAPI
    /// document's error examples are drawn from, and what its test holds them to.
    static let catalogue: [AsleepError] = [
        unauthorized, userAgentEmpty, planExpired, rateLimited, quotaExceeded, tokenInvalid, invalidProductKey, userIDHeaderInvalid,
        userDoesNotExist, userNotExist, sessionDoesNotExistUpload, sessionDoesNotExist, sessionTerminated, sessionAlreadyClosed,
        previousNotClosed, invalidStartTime, invalidEndTime, invalidCallbackURL, invalidParameter, notValidParameter, chunkTooLarge,
        melspectrogramToAudio, audioToMelspectrogram, invalidTimezone, periodTooLong, invalidPeriod, productNotAllowed,
    ]

    /// The same error as FastAPI's list-form 422 body: `{"detail": [{"loc", "msg", "type"}]}`.
    var listFormResponse: Response {
        var location: [JSONValue] = ["body"]
        var message = detail
        if let colon = detail.range(of: ": "), !detail[..<colon.lowerBound].contains(" ") {
            location += detail[..<colon.lowerBound].split(separator: ".").map { .string(String($0)) }
            message = String(detail[colon.upperBound...])
        }
        let item: JSONValue = ["loc": .array(location), "msg": .string(message), "type": "value_error"]
        return .json(status: status, bytes: JSONValue.object(["detail": [item]]).encoded())
    }

    /// 422 naming the field, for validation failures whose real wording is not published.
    static func validation(_ field: String, _ reason: String) -> AsleepError {
        AsleepError(422, "\(field): \(reason)")
    }

    /// The 404 of the average-stats route.
    static func unknownUser(_ id: String) -> AsleepError {
        AsleepError(404, "Unable to find the user of id \(id)")
    }

    /// The error for a failure the core detected, worded as the real service words it where known.
    init(_ failure: CoreFailure) {
        let detail: String
        switch failure {
        case .routeNotFound: detail = "Not Found"
        case .methodNotAllowed: detail = "Method Not Allowed"
        case .unreadableRequest(.bodyTooLarge): detail = AsleepError.chunkTooLarge.detail
        case .unreadableRequest(let error): detail = error.message
        case .invalidBody(let error): detail = error.message
        case .injected(let status): detail = Self.injectedDetail(status)
        case .internalError: detail = "Internal Server Error"
        case .storageUnavailable: detail = "Service Unavailable"
        case .storedStateUnreadable: detail = failure.message
        case .misdirectedRequest, .constraintViolation: detail = failure.message
        }
        self.init(failure.status, detail)
    }

    /// The `detail` an injected status carries: the documented text for that status.
    static func injectedDetail(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Plan is expired"
        case 404: return "Not Found"
        case 409: return "Conflict"
        case 413: return AsleepError.chunkTooLarge.detail
        case 422: return "Validation Error"
        case 500: return "Internal Server Error"
        default: return HTTPStatus.reason(status)
        }
    }
}

/// A 422 answered in FastAPI's list form (the `validationErrorStyle: list` project setting).
struct ListFormError: FixedResponseError {
    /// The error in its usual form.
    let error: AsleepError
    /// `{"detail": [{"loc", "msg", "type"}]}`.
    var response: Response { error.listFormResponse }
}
