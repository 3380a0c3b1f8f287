import Foundation
import HTTPServer

/// Last pipeline stage: the journal entry and the log line of an exchange. Probes are not
/// journalled (they would drown the journal), nor are control-plane reads (`isControlPlaneRead`).
struct JournalRecorder: Sendable {
    /// What the pipeline learnt about a request by the time it was answered.
    struct Exchange: Sendable {
        var requestID: Int
        var platform: PlatformID? = nil
        var project: ProjectID? = nil
        var routedPath: String = ""
        /// Whether the request's `Host` chose the platform (the resolver's `byHost`).
        var routedByHost = false
        var route: String? = nil
        var fault: String? = nil
        /// The proxy answered itself (a CONNECT, a forwarded request): journalled as platform `proxy`.
        var isProxyAnswer = false
        /// A control-plane call, a platform's own control routes included: journalled as platform
        /// `admin`, so a platform filter (and a wait for a platform's traffic) sees only what SDKs sent.
        var isControlPlane = false
        /// A control-plane call that only reads (see `Emulator.onlyReads`): the dashboard's and the
        /// CLI's polls, a test's waits. Not journalled: a journal that recorded its own readers
        /// filled with them, and a live view woke itself with its previous poll. Writes (seeding,
        /// clock changes, fault rules), CORS preflights and refusals before the control plane (a
        /// Host it does not answer to) are journalled.
        var isControlPlaneRead = false
        /// Why a request meant for an emulated service matched no project; nil when it matched one,
        /// and for control-plane calls, whose callers read the answer itself.
        var unmatched: UnmatchedRequest? = nil
        /// The app installation the platform's checks said the request concerns.
        var device: String? = nil
    }

    let journal: Journal
    let logger: Logger
    let metrics: RequestMetrics

    /// Records `request` answered with `response`; waits only while the journal is too far behind (see `Journal.record`).
    func record(_ request: Request, _ response: Response, _ exchange: Exchange) async {
        let elapsed = MonotonicClock.nanoseconds() &- request.receivedAt
        let durationMs = Double(elapsed) / 1_000_000
        let platformName =
            exchange.isProxyAnswer ? Journal.proxyPlatform : exchange.isControlPlane ? Journal.controlPlanePlatform : exchange.platform?.rawValue ?? Journal.controlPlanePlatform
        metrics.observe(platform: platformName, route: exchange.route, status: response.status, nanoseconds: elapsed)
        if let fault = exchange.fault { metrics.faultFired(note: fault, project: exchange.project) }
        if journal.isEnabled && !exchange.isControlPlaneRead && !AdminGuard.probes.contains(exchange.routedPath) {
            await journal.record(
                Journal.Exchange(
                    id: exchange.requestID, time: Date(), projectID: exchange.project, platform: platformName, path: exchange.routedPath,
                    route: exchange.route, request: request, status: response.status, responseHeaders: response.headers,
                    responseBody: response.body, durationMs: durationMs, fault: exchange.fault, unmatched: exchange.unmatched,
                    device: exchange.device))
        }
        logger.request(
            method: request.method.rawValue, path: exchange.routedPath, status: response.status, durationMs: durationMs,
            bytes: response.body.count, platform: platformName, project: exchange.project)
    }
}
