import EmulatorCore
import Foundation

/// Rules from the Telematics iOS usage guide (tokens and their renewal, the session lifecycle,
/// vehicles, kilometers, uploads), each on one user (`TelematicsChecks`). Each reads the facts the
/// routes noted, so an answer a fault made up never counts as the server refusing something.
enum TelematicsRules {
    /// The five of them.
    static let all: [any CheckRule] = [
        RefreshTokenReused(), SessionUsedAfterInvalidation(), VehicleCodeNotInCatalogue(), KilometersWithoutVehicle(), BatchReuploaded(),
    ]

    /// An answer that took this long (seconds) may have reached an app that had given up on it.
    static let slow = 10.0
    /// A request sent less than this long (seconds) after an answer may have been on its way before it.
    static let inFlight = 5.0

    /// Seconds from `time` to when `request` was sent (its answer's time less the server's time on it).
    static func sent(_ request: CheckedRequest, after time: Double) -> Double { request.time - request.duration - time }

    /// The refusal the route itself answered with, when the app saw it.
    static func refusal(_ request: CheckedRequest, status: Int) -> String? {
        request.status == status ? request.fact(TelematicsChecks.refusalFact) : nil
    }
}

/// `telematics.refresh-token-reused`: a refresh token presented again after it was exchanged for
/// a new pair and its grace period had passed. Only once the app got the new pair (a refresh of
/// it answered 200 in under `TelematicsRules.slow` seconds): an SDK whose answer was lost retries
/// with the old token, which is what the grace period is for; so does a renewal sent before the
/// new pair arrived, racing it (with a grace period of 0 s, it is rejected too).
struct RefreshTokenReused: CheckRule {
    let definition = RuleDefinition(
        id: "telematics.refresh-token-reused", platform: .telematics, severity: .error, title: "Refresh token used again after it was renewed",
        ruleText: "Each renewal answers with a new access token and a new refresh token, and the SDK keeps renewing with the newest one on "
            + "its own. The refresh token it renewed with stays usable only for a short grace period, so that renewals racing each other "
            + "get the same answer; after that the server rejects it and the SDK destroys the session (refreshTokenRejected). Tokens "
            + "stored by the app at login are stale once the SDK has renewed them.")

    var supersedes: [String] { [RepeatAfterClientError.id] }

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard request.fact(TelematicsChecks.refreshFact) != nil, let pair = request.fact(TelematicsChecks.pairFact), let device = request.device
        else { return nil }
        if request.succeeded {
            if memory[pair] == nil, request.duration < TelematicsRules.slow { memory[pair] = Trace(request) }
            return nil
        }
        guard request.status == 401, let grace = request.fact(TelematicsChecks.reusedFact), let trace = memory[pair],
            TelematicsRules.sent(request, after: trace.time) >= TelematicsRules.inFlight
        else { return nil }
        return Violation(
            device: device,
            whatTheAppDid: "Renewed with a refresh token \(CheckedRequest.seconds(request.time - trace.time)) after the same token had been "
                + "exchanged for a new pair (the grace period is \(grace)); the server rejected it.",
            evidence: trace.evidence + [request.journalID])
    }
}

/// `telematics.session-used-after-invalidation`: a token of a session the server destroyed,
/// presented again in a request sent `TelematicsRules.inFlight` seconds or more later. A session
/// is destroyed when its renewal is refused (`REFRESH_TOKEN_EXPIRED`, `REFRESH_TOKEN_REJECTED`) or when the access token of a pair
/// without a refresh token is rejected. Requests sent sooner may have been on their way already.
struct SessionUsedAfterInvalidation: CheckRule {
    /// Why a session was destroyed: the refusal, whether it answered a renewal, and the reason in
    /// words; a trace keeps the index (`count`).
    static let causes: [(refusal: String, renewal: Bool, reason: String)] = [
        ("REFRESH_TOKEN_EXPIRED", true, "its refresh token had expired"), ("REFRESH_TOKEN_REJECTED", true, "its refresh token was rejected"),
        ("ACCESS_TOKEN_REJECTED", false, "its access token was rejected and it had no refresh token"),
    ]

    let definition = RuleDefinition(
        id: "telematics.session-used-after-invalidation", platform: .telematics, severity: .error,
        title: "Tokens of a destroyed session used again",
        ruleText: "When onAuthenticationInvalidated reports a reason that invalidates the session (refreshTokenExpired, "
            + "refreshTokenRejected, accessTokenRejected), the SDK has stopped telemetry and removed the user and the vehicle, and its "
            + "tokens will not work again. To restore the session, obtain new tokens from your authentication backend, call initSDK with "
            + "them, set the vehicle again and start the telematics service again.")

    var supersedes: [String] { [RepeatAfterClientError.id, RefreshTokenReused().definition.id] }

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard !memory.isEmpty || request.status == 401 else { return nil }
        guard let pair = request.fact(TelematicsChecks.pairFact), let device = request.device else { return nil }
        if let trace = memory[pair] {
            let sent = TelematicsRules.sent(request, after: trace.time)
            guard sent >= TelematicsRules.inFlight else { return nil }
            return Violation(
                device: device,
                whatTheAppDid: "Sent \(request.line) with a token of a session destroyed \(CheckedRequest.seconds(sent)) earlier, "
                    + "when \(Self.causes[trace.count].reason).",
                evidence: trace.evidence + [request.journalID])
        }
        guard let refusal = TelematicsRules.refusal(request, status: 401) else { return nil }
        let renewal = request.fact(TelematicsChecks.refreshFact) != nil
        // An access token the SDK can renew is renewed, not given up: only a pair without a refresh token ends there.
        guard let cause = Self.causes.firstIndex(where: { $0.refusal == refusal && $0.renewal == renewal }),
            renewal || request.fact(TelematicsChecks.renewableFact) == "0"
        else { return nil }
        var trace = Trace(request)
        trace.count = cause
        memory[pair] = trace
        return nil
    }
}

/// `telematics.vehicle-code-not-in-catalogue`: a vehicle set with a type, fuel type or add
/// reason code that the project's catalogues do not have (`UNKNOWN_…`).
struct VehicleCodeNotInCatalogue: CheckRule {
    /// The member each refusal names.
    static let members = ["UNKNOWN_VEHICLE_TYPE": "type", "UNKNOWN_FUEL_TYPE": "fuelType", "UNKNOWN_ADD_REASON": "addReason"]

    let definition = RuleDefinition(
        id: "telematics.vehicle-code-not-in-catalogue", platform: .telematics, severity: .error,
        title: "Vehicle set with a code that is not in the catalogue",
        ruleText: "The type, fuel type and add reason of setVehicle are identifier codes returned by getVehicleTypes, getFuelTypes and "
            + "getAddVehicleReasons, each a dictionary from name to code. Codes written into the app may not exist on the platform; a "
            + "vehicle that is not set keeps the telematics service from starting.")

    var supersedes: [String] { [RepeatAfterClientError.id] }

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard let refusal = TelematicsRules.refusal(request, status: 422), let member = Self.members[refusal], let device = request.device else { return nil }
        return Violation(
            device: device, whatTheAppDid: "Sent setVehicle (\(request.line)) with a `\(member)` code the catalogue does not have (\(refusal)).",
            evidence: [request.journalID])
    }
}

/// `telematics.kilometers-without-vehicle`: kilometers reported or corrected for the current
/// vehicle while the user had none (`NO_CURRENT_VEHICLE`).
struct KilometersWithoutVehicle: CheckRule {
    let definition = RuleDefinition(
        id: "telematics.kilometers-without-vehicle", platform: .telematics, severity: .error, title: "Kilometers reported with no vehicle set",
        ruleText: "reportKilometers and correctKilometers apply to the vehicle set with setVehicle: set the vehicle first (after every "
            + "initSDK that restored a destroyed session, too). Without one the report is refused (TelematicsSDKMissingVehicleException) "
            + "and the reading is lost.")

    var supersedes: [String] { [RepeatAfterClientError.id] }

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard request.method == .post, TelematicsRules.refusal(request, status: 404) == "NO_CURRENT_VEHICLE", let device = request.device else { return nil }
        return Violation(
            device: device, whatTheAppDid: "Sent \(request.line) while the user had no vehicle set; the report was refused.",
            evidence: [request.journalID])
    }
}

/// `telematics.batch-reuploaded`: a telemetry batch uploaded again (same `batchId`) after the
/// server accepted it (202 in under `TelematicsRules.slow` seconds). A batch whose acceptance the
/// app never saw (a dropped connection, a slow answer) is the SDK's to send again.
struct BatchReuploaded: CheckRule {
    let definition = RuleDefinition(
        id: "telematics.batch-reuploaded", platform: .telematics, severity: .warning, title: "Telemetry batch uploaded again after it was accepted",
        ruleText: "The SDK keeps collected telemetry on the device only until it has been sent: data that could not be sent (no network, "
            + "a destroyed session, a logout) is kept and sent later, automatically; a batch the platform accepted is not sent again.")

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard let batch = request.fact(TelematicsChecks.batchFact), let device = request.device else { return nil }
        let key = device + " " + batch
        if request.status == 202 {
            if request.duration < TelematicsRules.slow { memory[key] = Trace(request) }
            return nil
        }
        // 200 is the answer to a batch the server already has.
        guard request.status == 200, let trace = memory[key] else { return nil }
        return Violation(
            device: device,
            whatTheAppDid: "Uploaded telemetry batch \(batch.prefix(40)) again \(CheckedRequest.seconds(request.time - trace.time)) after it was accepted.",
            evidence: trace.evidence + [request.journalID])
    }
}
