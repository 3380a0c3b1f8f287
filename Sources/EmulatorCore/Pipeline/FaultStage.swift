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

    /// Why the request's `X-Understudy-Fault` header cannot be carried out (a misspelled key, a
    /// value that is no number, one out of range); nil when it is absent, empty or fine. The
    /// request is then answered with the platform's 400 naming the problem, not as if no fault
    /// had been asked for.
    static func headerProblem(_ request: Request) -> String? {
        guard let header = request.headers["x-understudy-fault"], !header.trimmingWhitespace().isEmpty else { return nil }
        guard case .failure(let problem) = FaultEngine.readHeader(header) else { return nil }
        return problem.message
    }

    /// The fault for this request, if any.
    func fire(_ request: Request, platform: PlatformID, project: ProjectID?, routedPath: String) async -> Fired? {
        if let header = request.headers["x-understudy-fault"], let action = FaultEngine.parseHeader(header) {
            return Fired(note: "header: \(action.kind.name)", action: action)
        }
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
        if let retryAfter = action.retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
        return response
    }

    /// The handler's response as the fault lets the client see it.
    static func damage(_ original: Response, with action: FaultAction) -> Response {
        var response = original
        if let retryAfter = action.retryAfter { response.headers.set("Retry-After", String(retryAfter)) }
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
