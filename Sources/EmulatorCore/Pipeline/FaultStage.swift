import Foundation
import HTTPServer

/// Pipeline stage for SDK requests: the fault that fires for this request (from the
/// `X-Understudy-Fault` header or a rule), applied before the handler (replacing the response,
/// so no state changes) or after it (damaging the real response on its way out). The control
/// plane never gets faults: it must stay reliable so tests can remove them.
struct FaultStage: Sendable {
    /// A fault that fired.
    struct Fired: Sendable, Equatable {
        /// The journal's note: `header: reset` or `rule flt_…: status`.
        var note: String
        /// What to do.
        var action: FaultAction
    }

    let engine: FaultEngine

    /// The request's `X-Understudy-Fault` header read once: nil when absent or empty, else the
    /// action or why it cannot be carried out (a misspelled key, a value that is no number, one
    /// out of range). A problem is answered with the platform's 400 naming it, not as if no fault
    /// had been asked for.
    static func header(_ request: Request) -> Result<FaultRule.Action, FaultEngine.HeaderProblem>? {
        guard let header = request.headers["x-understudy-fault"], !header.trimmingWhitespace().isEmpty else { return nil }
        return FaultEngine.readHeader(header)
    }

    /// The fault for this request, if any: the header's `action` (see `header(_:)`), else a rule's.
    func fire(_ request: Request, header action: FaultRule.Action?, platform: PlatformID, project: ProjectID?, routedPath: String) async -> Fired? {
        if let action { return Fired(note: "header: \(action.kind.name)", action: action) }
        let fired: (id: String, action: FaultRule.Action)?
        if engine.isShared {
            fired = await engine.fireShared(platform: platform, project: project, method: request.method, path: routedPath, headers: request.headers)
        } else {
            fired = engine.fire(platform: platform, project: project, method: request.method, path: routedPath, headers: request.headers)
        }
        guard let fired else { return nil }
        return Fired(note: "rule \(fired.id): \(fired.action.kind.name)", action: fired.action)
    }

    /// The response that replaces the handler's, for faults that skip it; nil for the others.
    /// `platformError` gives the platform's own error body for a status.
    static func replacement(for action: FaultAction, platformError: (Int) -> Response) -> Response? {
        var response: Response
        switch action.kind {
        case .status(let status, let body):
            if let body {
                response = .json(status: status, bytes: body.encoded())
            } else {
                response = platformError(status)
                response.status = status
            }
        case .reset:
            return Response(status: 0, delivery: .reset)
        case .hang(let milliseconds):
            return Response(status: 0, delivery: .hang(seconds: Double(milliseconds) / 1000))
        case .delay, .closeAfterHeaders, .truncate, .malformedJSON:
            return nil
        }
        if let retryAfter = action.retryAfter { response.headers.setRetryAfter(retryAfter) }
        return response
    }

    /// The handler's response as the fault lets the client see it.
    static func damage(_ original: Response, with action: FaultAction) -> Response {
        var response = original
        if let retryAfter = action.retryAfter { response.headers.setRetryAfter(retryAfter) }
        switch action.kind {
        case .closeAfterHeaders:
            response.delivery = .closeAfterHeaders
        case .truncate(let bytes):
            response.delivery = .truncateBody(bytes: bytes ?? response.body.count / 2)
        case .malformedJSON:
            // Cut the document mid-value and close it wrongly: parses as nothing, looks like JSON.
            let cut = response.body.prefix(max(1, response.body.count / 2))
            response.body = Data(cut) + Data("\",}".utf8)
        case .status, .delay, .hang, .reset:
            break
        }
        return response
    }
}
