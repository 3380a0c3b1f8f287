import Foundation

/// The rules every platform shares: how an app retries. Each compares one installation's
/// requests to the same method and path (`CheckedRequest.target`), so a request whose platform
/// names no installation is never compared with another.
public enum GenericRules {
    /// The three of them.
    public static let all: [any CheckRule] = [RetryBeforeRetryAfter(), RetryBurstAfterServerError(), RepeatAfterClientError()]
}

/// `retry-before-retry-after`: the same request again before the `Retry-After` of a 429 or 503
/// answer had passed. Requests the SDK retries on a documented schedule of its own are left out
/// (`Observation.retriedBySDK`): their SDK's documentation, not this header, sets the wait.
public struct RetryBeforeRetryAfter: CheckRule {
    /// The rule's id.
    public static let id = "retry-before-retry-after"

    /// The rule as findings show it.
    public let definition = RuleDefinition(
        id: id, platform: nil, severity: .warning, title: "Retried before the Retry-After the server sent",
        ruleText: "A 429 (Too Many Requests) or 503 (Service Unavailable) answer with Retry-After: N asks the client to wait at least "
            + "N seconds before it sends the request again (RFC 9110, section 10.2.3); an earlier retry is refused again, and a real "
            + "backend may count it against the app's rate limit.")

    /// Creates the rule.
    public init() {}

    /// Remembers the deadline a 429 or 503 set (in `since`) until the next request to the same target.
    public func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        // Nothing remembered and no deadline to remember: the usual request costs no lookup.
        guard !memory.isEmpty || request.retryAfter != nil else { return nil }
        guard let key = request.target, let device = request.device, !request.observation.retriedBySDK else { return nil }
        var violation: Violation?
        if let trace = memory[key], request.time < trace.since {
            violation = Violation(
                device: device,
                whatTheAppDid: "Sent \(request.line) again \(CheckedRequest.seconds(request.time - trace.time)) after a \(trace.status) answer "
                    + "whose Retry-After asked it to wait \(CheckedRequest.seconds(trace.since - trace.time)).",
                evidence: trace.evidence + [request.journalID])
        }
        if let wait = request.retryAfter {
            var trace = Trace(request)
            trace.since = request.time + wait
            memory[key] = trace
        } else {
            memory.removeValue(forKey: key)
        }
        return violation
    }
}

/// `retry-burst-after-5xx`: three retries of the same request in a row, each sent less than
/// `quick` seconds after the previous attempt failed with a 5xx or a dropped connection. Every
/// documented SDK schedule waits at least a second before its first retry and longer after each.
public struct RetryBurstAfterServerError: CheckRule {
    /// The rule's id.
    public static let id = "retry-burst-after-5xx"
    /// A retry sooner than this after a failure is "at once".
    public static let quick = 0.5
    /// Quick retries in a row that make a burst.
    public static let burst = 3

    /// The rule as findings show it.
    public let definition = RuleDefinition(
        id: id, platform: nil, severity: .warning, title: "Retries after server errors without back-off",
        ruleText: "After a 5xx answer or a dropped connection, a client waits before it retries and waits longer after each failure "
            + "(exponential back-off); the SDKs' own schedules start at one second or more. Retrying at once, again and again, "
            + "adds load to a server that is already failing and drains the battery.")

    /// Creates the rule.
    public init() {}

    /// Counts quick retries after failures (in `count`); a success or a slower retry starts over.
    public func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard !memory.isEmpty || request.failedOnServer else { return nil }
        guard let key = request.target, let device = request.device else { return nil }
        guard var trace = memory[key] else {
            if request.failedOnServer { memory[key] = Trace(request) }
            return nil
        }
        trace.count = request.time - trace.time < Self.quick ? trace.count + 1 : 0
        trace.advance(to: request)
        var violation: Violation?
        if trace.count >= Self.burst {
            let attempts = Array(trace.evidence.suffix(Self.burst + 1))
            violation = Violation(
                device: device,
                whatTheAppDid: "Sent \(request.line) \(attempts.count) times, each retry less than \(CheckedRequest.seconds(Self.quick)) after the "
                    + "previous attempt failed with a server error or a dropped connection.",
                evidence: attempts)
            trace.count = 0
            trace.evidence = [request.journalID]
        }
        if request.failedOnServer { memory[key] = trace } else { memory.removeValue(forKey: key) }
        return violation
    }
}

/// `repeat-after-4xx`: the very same request (method, path, query, body, credentials) sent twice
/// more, each within `window` seconds of the previous one, after an answer that no retry can
/// change, and answered the same way each time (a different refusal means the server's state
/// changed in between). A lookup's 404 (GET or HEAD) is an answer, not a failure, so it is left out.
public struct RepeatAfterClientError: CheckRule {
    /// The rule's id.
    public static let id = "repeat-after-4xx"
    /// Seconds within which a repeat counts.
    public static let window = 10.0
    /// Repeats that make a finding.
    public static let repeats = 2
    /// Statuses that say the request itself is wrong (429, 408, 409 and 425 may pass on retry).
    public static let statuses: Set<Int> = [400, 401, 403, 404, 405, 410, 413, 414, 415, 422]

    /// The rule as findings show it.
    public let definition = RuleDefinition(
        id: id, platform: nil, severity: .warning, title: "The same request repeated after a client error",
        ruleText: "A 4xx answer such as 400, 401, 403, 404, 413 or 422 says the request itself is wrong: sending it again unchanged gets the "
            + "same answer. The app must change the request (new credentials, corrected input) or report the error, not repeat it.")

    /// Creates the rule.
    public init() {}

    /// Remembers the fingerprint of a refused request and counts its identical repeats.
    public func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard !memory.isEmpty || (400..<500).contains(request.status) else { return nil }
        guard let key = request.target, let device = request.device else { return nil }
        let isLookup = (request.method == .get || request.method == .head) && (request.status == 404 || request.status == 410)
        let refused = Self.statuses.contains(request.status) && !isLookup
        // The fingerprint hashes the body: computed only when a refusal is remembered or made.
        guard refused || memory[key] != nil else { return nil }
        let fingerprint = request.exchangeFingerprint() // a repeat must match the request and the answer it got
        guard var trace = memory[key], trace.fingerprint == fingerprint, request.time - trace.time <= Self.window else {
            if refused {
                var trace = Trace(request)
                trace.fingerprint = fingerprint
                memory[key] = trace
            } else {
                memory.removeValue(forKey: key)
            }
            return nil
        }
        let first = trace.status
        trace.count += 1
        trace.advance(to: request)
        var violation: Violation?
        if trace.count >= Self.repeats {
            let sent = Array(trace.evidence.suffix(Self.repeats + 1))
            violation = Violation(
                device: device,
                whatTheAppDid: "Sent the same \(request.line) \(sent.count) times, each within \(CheckedRequest.seconds(Self.window)) of the "
                    + "last, after it was answered \(first); the last answer was \(request.status).",
                evidence: sent)
            trace.count = 0
            trace.evidence = [request.journalID]
        }
        if refused { memory[key] = trace } else { memory.removeValue(forKey: key) }
        return violation
    }
}
