import EmulatorCore
import Foundation

/// Rules from WarpLink's iOS API reference and the SDKs' wire behaviour: an SDK key in the app,
/// one definitive deferred check per install, a tap id per tap retried only after a server
/// failure, and links resolved only for URLs the SDK claims. Findings name the installation
/// (`WarpLinkChecks`) or, for a request that names none, the key it presented.
enum WarpLinkRules {
    /// The five of them.
    static let all: [any CheckRule] = [APIKeyInApp(), DeferredCheckRepeated(), TapIDReused(), TapRetriedAfterClientError(), ResolveDomainNotAHost()]

    /// An answer that took this long may have been abandoned by the SDK (its shortest attempt
    /// timeout is 3 s; a second is left for the network), so it is not taken as received.
    static let slow = 2.0

    /// What a finding names: the installation, or else the key the request presented (masked).
    static func subject(_ request: CheckedRequest) -> String { request.device ?? keyLabel(request) }

    /// The presented key, masked as the SDK's logs print it; made only for a finding.
    static func keyLabel(_ request: CheckedRequest) -> String { request.presented("key").map(WarpLinkChecks.masked) ?? "no key" }
}

/// `warplink.api-key-in-app`: an SDK request made with an API key. An API key validates and
/// resolves links, but install attribution refuses it whatever its scopes, so no install is ever
/// recorded.
struct APIKeyInApp: CheckRule {
    let definition = RuleDefinition(
        id: "warplink.api-key-in-app", platform: .warplink, severity: .error, title: "The app is configured with an API key, not an SDK key",
        ruleText: "configure(apiKey:) takes an SDK key (wl_live_ or wl_test_ and 32 letters and digits), created in the dashboard under "
            + "Keys > SDK keys. An API key passes key validation and resolves links, but install attribution refuses it whatever scopes it "
            + "holds: deferred deep links fail with invalidApiKey and no install is recorded.")

    var supersedes: [String] { [RepeatAfterClientError.id] }

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard request.fact(WarpLinkChecks.apiKeyFact) != nil else { return nil }
        let key = WarpLinkRules.keyLabel(request)
        let outcome = WarpLinkChecks.isMatch(request.route) ? "; the deferred check was refused with \(request.status)" : ""
        return Violation(
            device: WarpLinkRules.subject(request), whatTheAppDid: "Sent \(request.line) with an API key (\(key))\(outcome).",
            evidence: [request.journalID])
    }
}

/// `warplink.deferred-check-repeated`: a deferred check from an installation (its `device_id`)
/// that says it is no reinstall (`is_reinstall: false`), after the same device had a definitive
/// answer: a no-match or a routable match. A check without `is_reinstall` (older SDKs) is left
/// out, since a reinstall cannot be told from a repeat; so is an answer that took `slow` seconds
/// or more, which the SDK may have abandoned.
struct DeferredCheckRepeated: CheckRule {
    let definition = RuleDefinition(
        id: "warplink.deferred-check-repeated", platform: .warplink, severity: .warning,
        title: "Deferred deep link check repeated after its definitive answer",
        ruleText: "The deferred deep link check runs on the first launch of an install, and again on later launches only until it gets a "
            + "definitive answer: no match, or a match with a link. After that the SDK returns the cached result without a request; only "
            + "a new install (a reinstall, sent with is_reinstall: true) checks again.")

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard WarpLinkChecks.isMatch(request.route), let device = request.device else { return nil }
        var violation: Violation?
        if let trace = memory[device], request.fact(WarpLinkChecks.reinstallFact) == "false" {
            violation = Violation(
                device: device,
                whatTheAppDid: "Sent the deferred check of \(device) (is_reinstall: false) again \(CheckedRequest.seconds(request.time - trace.time)) "
                    + "after it was answered definitively.",
                evidence: trace.evidence + [request.journalID])
        }
        if request.succeeded, request.fact(WarpLinkChecks.definitiveFact) != nil, request.duration < WarpLinkRules.slow {
            memory[device] = Trace(request)
        }
        return violation
    }
}

/// `warplink.tap-id-reused`: one `X-WarpLink-Tap-Id` on requests for different things (another
/// link, or a link and a deferred check). The SDK mints an id per tap and per deferred check and
/// repeats it only on the retries of that one request.
struct TapIDReused: CheckRule {
    let definition = RuleDefinition(
        id: "warplink.tap-id-reused", platform: .warplink, severity: .warning, title: "One tap id sent for different requests",
        ruleText: "The SDK makes a new X-WarpLink-Tap-Id for every tap and every deferred check, and sends the same id again only when it "
            + "retries that request. The server takes the tap id as the click's id, so a second link opened under an old tap id is not "
            + "counted as a click.")

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard let tap = request.fact(WarpLinkChecks.tapFact), let ask = request.fact(WarpLinkChecks.askFact) else { return nil }
        var hasher = Hasher()
        hasher.combine(ask)
        let fingerprint = hasher.finalize()
        defer {
            var trace = Trace(request)
            trace.fingerprint = fingerprint
            memory[tap] = trace
        }
        guard let trace = memory[tap], trace.fingerprint != fingerprint else { return nil }
        return Violation(
            device: WarpLinkRules.subject(request),
            whatTheAppDid: "Sent tap id \(tap) on \(request.line) \(CheckedRequest.seconds(request.time - trace.time)) after it was sent for "
                + "another request.",
            evidence: trace.evidence + [request.journalID])
    }
}

/// `warplink.tap-retried-after-client-error`: a request sent again with its tap id after it was
/// answered with a 4xx. The SDK retries only server failures (5xx) and dropped connections; a
/// 4xx, 429 included, is final. An answer that took `slow` seconds or more is left out.
struct TapRetriedAfterClientError: CheckRule {
    let definition = RuleDefinition(
        id: "warplink.tap-retried-after-client-error", platform: .warplink, severity: .warning,
        title: "Request retried after a client error",
        ruleText: "The SDK retries a link resolution or a deferred check only after a 5xx answer or a dropped connection, with the same "
            + "X-WarpLink-Tap-Id. A 4xx (400, 401, 403, 404, 410, 429) is final: it reaches the app as an error (linkNotFound, "
            + "invalidApiKey, passwordRequired, serverError) and sent again it gets the same answer.")

    var supersedes: [String] { [RepeatAfterClientError.id] }

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        let refused = (400..<500).contains(request.status)
        guard !memory.isEmpty || refused, let tap = request.fact(WarpLinkChecks.tapFact) else { return nil }
        var violation: Violation?
        if let trace = memory[tap] {
            violation = Violation(
                device: WarpLinkRules.subject(request),
                whatTheAppDid: "Sent \(request.line) with tap id \(tap) again \(CheckedRequest.seconds(request.time - trace.time)) after it was "
                    + "answered \(trace.status).",
                evidence: trace.evidence + [request.journalID])
        }
        if refused, request.duration < WarpLinkRules.slow { memory[tap] = Trace(request) } else { memory.removeValue(forKey: tap) }
        return violation
    }
}

/// `warplink.resolve-domain-not-a-host`: a link resolution whose `domain` is missing or is no
/// URL host (empty, or with a scheme, a path, user info or a port). The SDK resolves only URLs on
/// its link domains and always sends the tapped URL's host.
struct ResolveDomainNotAHost: CheckRule {
    let definition = RuleDefinition(
        id: "warplink.resolve-domain-not-a-host", platform: .warplink, severity: .warning,
        title: "Link resolved without the tapped URL's host",
        ruleText: "The SDK resolves a link only for a URL on a WarpLink domain (aplnk.to, the declared linkDomains and WarpLinkDomains, "
            + "and the domains key validation returns) with a single path segment, and always sends that URL's host as domain: never "
            + "empty, never with a scheme, a path or a port. Other URLs fail locally with invalidURL.")

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard WarpLinkChecks.isResolve(request.route) else { return nil }
        let domain = request.fact(WarpLinkChecks.domainFact)
        guard let problem = Self.problem(domain) else { return nil }
        return Violation(
            device: WarpLinkRules.subject(request), whatTheAppDid: "Resolved \(request.line) with \(problem).", evidence: [request.journalID])
    }

    /// What is wrong with a sent `domain`; nil for a host.
    static func problem(_ domain: String?) -> String? {
        guard let domain else { return "no domain" }
        guard !domain.isEmpty else { return "an empty domain" }
        let shown = "domain \"" + domain.prefix(100) + "\""
        if domain.contains(where: { $0 == "/" || $0 == "@" || $0 == "?" || $0 == "#" || $0.isWhitespace }) { return shown }
        // One colon is host:port; an IPv6 literal has several.
        if domain.utf8.filter({ $0 == UInt8(ascii: ":") }).count == 1 { return shown }
        return nil
    }
}
