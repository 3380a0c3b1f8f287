import EmulatorCore
import Foundation

/// Rules from Asleep's 3.3 product-registration guide (`setup(apiKey:productInfo:delegate:)`,
/// then `initAsleepConfig`, then tracking), each on one registered product (`AsleepChecks`).
/// The guide's "even if init fails, do not call setup again" is not among them: a setup call
/// after the first launch completes from the SDK's stored registration without a request, so the
/// server cannot see it.
enum AsleepRules {
    /// The five of them.
    static let all: [any CheckRule] = [SetupRepeated(), SetupRetriedAfterRejection(), SetupRetriedAtOnce(), JoinRepeated(), TrackingBeforeJoin()]

    /// Whether `request` registers a product.
    static func isRegistration(_ request: CheckedRequest) -> Bool { request.method == .post && request.route == AsleepChecks.registration }

    /// Whether `request` is `initAsleepConfig` connecting the user.
    static func isJoin(_ request: CheckedRequest) -> Bool {
        (request.method == .get && request.route == AsleepChecks.join) || (request.method == .post && request.route == AsleepChecks.newUser)
    }

    /// The product the request came from, when the device is one (not a user standing in for it).
    static func product(_ request: CheckedRequest) -> String? { request.fact(AsleepChecks.productFact) != nil ? request.device : nil }
}

/// `asleep.setup-repeated`: the same product registered successfully again less than `window`
/// seconds after its last successful registration, and answered with the same credential. A
/// registration whose answer took `slow` seconds or more is left out, since the SDK may have
/// timed out and retried it; so is one answered with a new credential (the stored one was
/// revoked, and registering again is how a device recovers).
struct SetupRepeated: CheckRule {
    static let window = 60.0
    static let slow = 10.0

    let definition = RuleDefinition(
        id: "asleep.setup-repeated", platform: .asleep, severity: .warning, title: "Product registered again moments after it was registered",
        ruleText: "Call Asleep.setup(apiKey:productInfo:delegate:) once per app launch, with the same ProductInfo every time. Only the first "
            + "launch sends a registration: afterwards the SDK reuses the registration it stored on the device and completes at once without "
            + "a request. Registering the same device again moments later means the app cleared or bypassed that stored registration, or "
            + "runs setup in a loop with initAsleepConfig.")

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard AsleepRules.isRegistration(request), request.succeeded, let device = AsleepRules.product(request) else { return nil }
        var hasher = Hasher()
        hasher.combine(request.fact(AsleepChecks.credentialFact))
        let credential = hasher.finalize()
        defer {
            var trace = Trace(request)
            trace.fingerprint = credential
            memory[device] = trace
        }
        guard let trace = memory[device], request.time - trace.time < Self.window, trace.duration < Self.slow, trace.fingerprint == credential else { return nil }
        return Violation(
            device: device,
            whatTheAppDid: "Registered product \(device) again \(CheckedRequest.seconds(request.time - trace.time)) after it was registered successfully.",
            evidence: trace.evidence + [request.journalID])
    }
}

/// `asleep.setup-retried-after-rejection`: a registration sent again, unchanged (same body and
/// credentials), less than `window` seconds after the server rejected it with a 4xx, and rejected
/// the same way again (a different answer means the server's state changed in between, such as
/// product billing turned on for the plan).
struct SetupRetriedAfterRejection: CheckRule {
    static let window = 60.0

    let definition = RuleDefinition(
        id: "asleep.setup-retried-after-rejection", platform: .asleep, severity: .error, title: "Registration retried after it was rejected",
        ruleText: "A registration the server rejects with a 4xx (bad ProductInfo, a wrong API key, a plan without product billing) reaches "
            + "setupDidFail as productRegisterRejected. The SDK does not retry it, and the app must not either: check the ProductInfo and "
            + "the API key. The same registration sent again is rejected again.")

    var supersedes: [String] { [RepeatAfterClientError.id] }

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard AsleepRules.isRegistration(request), let device = request.device else { return nil }
        let rejected = (400..<500).contains(request.status) && request.status != 408 && request.status != 429
        guard rejected || memory[device] != nil else { return nil }
        let fingerprint = request.exchangeFingerprint()
        var violation: Violation?
        if let trace = memory[device], trace.fingerprint == fingerprint, request.time - trace.time < Self.window {
            violation = Violation(
                device: device,
                whatTheAppDid: "Sent the same registration of \(device) again \(CheckedRequest.seconds(request.time - trace.time)) after it was "
                    + "rejected with \(trace.status).",
                evidence: trace.evidence + [request.journalID])
        }
        if rejected {
            var trace = Trace(request)
            trace.fingerprint = fingerprint
            memory[device] = trace
        } else {
            memory.removeValue(forKey: device)
        }
        return violation
    }
}

/// `asleep.setup-retried-at-once`: a registration sent less than `pause` seconds after the
/// previous registration of the same device failed with a 5xx or a dropped connection. The SDK
/// waits 2, 4 and 8 seconds between its own attempts; anything quicker is the app calling setup
/// again from the failure callback.
struct SetupRetriedAtOnce: CheckRule {
    static let pause = 2.0

    let definition = RuleDefinition(
        id: "asleep.setup-retried-at-once", platform: .asleep, severity: .error, title: "Setup called again at once after a failed registration",
        ruleText: "A registration that keeps failing (5xx or no answer) reaches setupDidFail as productRegisterFailed only after the SDK "
            + "retried it after 2, 4 and 8 seconds; call setup again after a while. Do not call setup right inside the failure callback: "
            + "while the cause remains, failure and call repeat endlessly.")

    var supersedes: [String] { [RetryBurstAfterServerError.id] }

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard AsleepRules.isRegistration(request), let device = request.device else { return nil }
        defer { memory[device] = Trace(request) }
        guard let trace = memory[device], trace.status == 0 || trace.status >= 500, request.time - trace.time < Self.pause else { return nil }
        let failure = trace.status == 0 ? "a dropped connection" : String(trace.status)
        return Violation(
            device: device,
            whatTheAppDid: "Sent a registration of \(device) \(CheckedRequest.seconds(request.time - trace.time)) after the previous one failed "
                + "with \(failure); the SDK's own retries wait 2 s or more.",
            evidence: trace.evidence + [request.journalID])
    }
}

/// `asleep.init-repeated`: the user connected (`initAsleepConfig`) successfully `times` times
/// within `window` seconds from one registered product: setup ↔ init in a loop.
struct JoinRepeated: CheckRule {
    static let window = 60.0
    static let times = 3

    let definition = RuleDefinition(
        id: "asleep.init-repeated", platform: .asleep, severity: .warning, title: "initAsleepConfig repeated in a loop",
        ruleText: "Call setup once per app launch and initAsleepConfig once setup completed; if init fails, retry init only. Calling setup "
            + "again on every init result, tracking callback or screen refresh completes at once from the stored registration, so setup "
            + "and init repeat rapidly.")

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard AsleepRules.isJoin(request), request.succeeded, let device = AsleepRules.product(request) else { return nil }
        var trace = memory[device].flatMap { request.time - $0.since <= Self.window ? $0 : nil } ?? Trace(request)
        if trace.evidence.last != request.journalID { trace.advance(to: request) }
        trace.count += 1
        guard trace.count >= Self.times else {
            memory[device] = trace
            return nil
        }
        memory.removeValue(forKey: device)
        return Violation(
            device: device,
            whatTheAppDid: "Connected the user (initAsleepConfig, \(request.line)) \(trace.count) times within "
                + "\(CheckedRequest.seconds(request.time - trace.since)) from \(device).",
            evidence: trace.evidence)
    }
}

/// `asleep.tracking-before-init`: a session created from a registered product whose latest
/// `initAsleepConfig` had failed, with no successful one since.
struct TrackingBeforeJoin: CheckRule {
    let definition = RuleDefinition(
        id: "asleep.tracking-before-init", platform: .asleep, severity: .error, title: "Tracking started although the user did not join",
        ruleText: "Start tracking only after setup completed and initAsleepConfig connected the user (userDidJoin): the configuration "
            + "tracking needs comes from that callback. After didFailUserJoin, retry initAsleepConfig; do not start tracking.")

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard let device = AsleepRules.product(request) else { return nil }
        if AsleepRules.isJoin(request) {
            memory[device] = Trace(request)
            return nil
        }
        guard request.method == .post, request.route == AsleepChecks.sessions, let trace = memory[device], !(200..<300).contains(trace.status) else { return nil }
        let failure = trace.status == 0 ? "a dropped connection" : String(trace.status)
        return Violation(
            device: device,
            whatTheAppDid: "Created a session from \(device) \(CheckedRequest.seconds(request.time - trace.time)) after its last initAsleepConfig "
                + "failed with \(failure), before one succeeded.",
            evidence: trace.evidence + [request.journalID])
    }
}
