import Foundation
import HTTPServer
import Storage

/// Turns what a handler threw, or a failure a stage detected, into its owner's answer: the one
/// place an error becomes a response, for the core's stages and every platform's route group
/// alike. The owner is a platform (its own envelope, through `Platform.errorResponse`) or the
/// control plane (`AdminError`'s envelope).
public struct ErrorAnswers: Sendable {
    /// The platform whose envelope SDK failures take; nil for the control plane (the core's and
    /// the platforms' alike) and for paths no platform owns.
    let platform: (any Platform)?
    /// Where unexpected errors are written; the client never sees their detail.
    let logger: Logger

    /// The answers of `platform`'s SDK routes, or of the control plane when `platform` is nil.
    init(platform: (any Platform)?, logger: Logger) {
        self.platform = platform
        self.logger = logger
    }

    /// Whether answers take the control plane's envelope.
    private var isControlPlane: Bool { platform == nil }

    /// The answer to `request` for `error`: a `ResponseError` answers itself; a body error is the
    /// owner's 400; a broken database constraint is a 409 (unique) or 400, the one place that maps
    /// it; an unreadable stored row is a 409 naming the project; a lost store is a 503 worth
    /// retrying; anything else is a 500 whose detail goes to the log only (never SQL).
    public func response(for error: any Error, to request: Request, in context: EmulatorContext) -> Response {
        let requestID = context.requestID
        switch error {
        case let error as ResponseError:
            return error.response(to: request, in: context)
        case let error as BodyError:
            return isControlPlane ? AdminError(error).response : failure(.invalidBody(error), requestID: requestID)
        case let error as SQLiteError where error.isConstraintViolation:
            guard isControlPlane else { return failure(.constraintViolation(unique: error.isUniqueViolation), requestID: requestID) }
            return AdminError(constraint: error).response
        case let error as RowDecodingError:
            // A stored row this build cannot read (a doctored or foreign database): that project's
            // answer says so; every other project, the project list and the process carry on.
            let failure = CoreFailure.storedStateUnreadable(project: context.projectID ?? "(none)", detail: error.description)
            logger.error("stored row unreadable", [("path", request.path), ("error", error.description)])
            return isControlPlane
                ? AdminError(status: 409, code: "stored_state_unreadable", message: failure.message).response
                : self.failure(failure, requestID: requestID)
        case let error as StoreUnavailableError:
            // A lost database connection is worth retrying (the store reconnects by itself): 503, not 500.
            logger.error("store unavailable", [("path", request.path), ("error", error.reason)])
            return storageUnavailable(requestID: requestID)
        default:
            logger.error("handler failed", [("path", request.path), ("error", String(describing: error))])
            return isControlPlane
                ? AdminError(status: 500, code: "internal_error", message: "The emulator failed; see its log.").response
                : failure(.internalError("see the emulator's log"), requestID: requestID)
        }
    }

    /// The 503 of a store that could not be reached, with the `Retry-After` that says it is worth retrying.
    func storageUnavailable(requestID: String) -> Response {
        var response =
            isControlPlane
            ? AdminError(status: 503, code: "unavailable", message: CoreFailure.storageUnavailable.message).response
            : failure(.storageUnavailable, requestID: requestID)
        response.headers.setRetryAfter(1)
        return response
    }

    /// The 405 (with `Allow`) or 404 of a path no route of the owner takes.
    func unrouted(_ match: Router<RouteTarget>.Match, requestID: String) -> Response {
        if case .methodNotAllowed(let allowed) = match {
            var response = failure(.methodNotAllowed(allowed), requestID: requestID)
            response.headers.set("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            return response
        }
        return failure(.routeNotFound, requestID: requestID)
    }

    /// The owner's answer to a failure the core detected.
    func failure(_ failure: CoreFailure, requestID: String) -> Response {
        guard let platform else {
            switch failure {
            case .routeNotFound: return AdminError(status: 404, code: "not_found", message: "No such route.").response
            case .methodNotAllowed: return AdminError(status: 405, code: "method_not_allowed", message: failure.message).response
            case .unreadableRequest(let error): return AdminError(status: error.status, code: error.code, message: error.message).response
            case .invalidBody(let error): return AdminError(error).response
            case .misdirectedRequest: return AdminError(status: 421, code: "misdirected_request", message: failure.message).response
            default: return AdminError(status: failure.status, code: "error", message: failure.message).response
            }
        }
        // The contract: the platform answers with failure.status (each platform's
        // ErrorContractTests hold it), so its body and status always agree.
        return platform.errorResponse(for: failure, requestID: requestID)
    }
}
