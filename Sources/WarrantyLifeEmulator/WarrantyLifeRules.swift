import EmulatorCore
import Foundation

/// Rules from the WarrantyLife iOS integration guide's registration upload: the SDK reuses every
/// stage that already succeeded when the host retries `registerDevice` with unchanged data, and
/// retries readings and images itself with a fixed back-off. The guide's "build exactly once" is
/// not among them: key validation names no device, so two builds cannot be told from two phones.
enum WarrantyLifeRules {
    /// The six of them.
    static let all: [any CheckRule] = [
        ReusedStageSentAgain.sensorEvent, ReusedStageSentAgain.readings, ReusedStageSentAgain.audio, ReusedStageSentAgain.diagnostic,
        ReusedStageSentAgain.image, UploadRetriedWithoutBackoff(),
    ]
}

/// A registration stage the SDK stores as done, sent again after it succeeded: the app cleared
/// the SDK's state, built a second SDK, or uploads the stage itself. A success whose answer took
/// `slow` seconds or more is left out, since the SDK may have timed out and resent it.
struct ReusedStageSentAgain: CheckRule {
    static let slow = 10.0

    let definition: RuleDefinition
    /// The routes (templates) of the stage (one or two: compared in turn, cheaper than hashing).
    let routes: [String]
    /// What makes two uploads the same stage (nil: the request is not one, or lacks its facts).
    let key: @Sendable (CheckedRequest) -> String?
    /// The stage, in "Sent … again" sentences.
    let stage: @Sendable (CheckedRequest) -> String

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard request.method != .get, routes.contains(request.route), request.succeeded, let device = request.device, let key = key(request) else { return nil }
        defer { memory[key] = Trace(request) }
        guard let trace = memory[key], trace.duration < Self.slow else { return nil }
        return Violation(
            device: device,
            whatTheAppDid: "Sent \(stage(request)) again \(CheckedRequest.seconds(request.time - trace.time)) after the same upload succeeded.",
            evidence: trace.evidence + [request.journalID])
    }

    private static func parameter(_ request: CheckedRequest, _ name: String) -> String { request.parameters[name] ?? "" }

    /// `warrantylife.sensor-event-recreated`: a registration Sensor Event (type 1111) with an
    /// `eventAt` the item already has.
    static let sensorEvent = ReusedStageSentAgain(
        definition: RuleDefinition(
            id: "warrantylife.sensor-event-recreated", platform: .warrantylife, severity: .warning,
            title: "Sensor Event created again for the same Sensor Test",
            ruleText: "The registration Sensor Event is keyed by its eventAt: when registerDevice is retried for the same Sensor Test, the SDK "
                + "reuses the Sensor Event ID it stored instead of creating another. Only a new Sensor Test, with a new eventAt, makes a new "
                + "Sensor Event."),
        routes: [WarrantyLifeChecks.sensorEvent, WarrantyLifeChecks.sensorEventAlias],
        key: { request in
            guard request.fact(WarrantyLifeChecks.eventTypeFact) == "1111", let eventAt = request.fact(WarrantyLifeChecks.eventAtFact), let device = request.device
            else { return nil }
            return device + " " + eventAt
        },
        stage: { "a Sensor Event with eventAt \($0.fact(WarrantyLifeChecks.eventAtFact) ?? "")" })

    /// `warrantylife.readings-reuploaded`: a Sensor Event's readings after they were stored.
    static let readings = ReusedStageSentAgain(
        definition: RuleDefinition(
            id: "warrantylife.readings-reuploaded", platform: .warrantylife, severity: .warning, title: "Sensor Readings uploaded again",
            ruleText: "The SDK tracks the Sensor Readings upload of a Sensor Event separately: a retry of registerDevice uploads the readings "
                + "only if they have not been uploaded yet, and never twice for the same Sensor Event."),
        routes: [WarrantyLifeChecks.readings], key: { request in request.device.map { $0 + " " + request.path } },
        stage: { "the readings of Sensor Event \(parameter($0, "sensorEventId"))" })

    /// `warrantylife.audio-reuploaded`: a Sensor Event's audio after it was stored.
    static let audio = ReusedStageSentAgain(
        definition: RuleDefinition(
            id: "warrantylife.audio-reuploaded", platform: .warrantylife, severity: .warning, title: "Sensor audio uploaded again",
            ruleText: "Sensor audio is tracked by the Sensor Test's eventAt: once its upload succeeded, a later retry of registerDevice skips it."),
        routes: [WarrantyLifeChecks.audio], key: { request in request.device.map { $0 + " " + request.path } },
        stage: { "the audio of Sensor Event \(parameter($0, "sensorEventId"))" })

    /// `warrantylife.diagnostic-recreated`: a diagnostic report whose fingerprint the item's last
    /// report already had.
    static let diagnostic = ReusedStageSentAgain(
        definition: RuleDefinition(
            id: "warrantylife.diagnostic-recreated", platform: .warrantylife, severity: .warning,
            title: "Diagnostic report created again with unchanged data",
            ruleText: "The SDK fingerprints the diagnostic request (SHA-256 of its JSON with sorted keys). While the data is unchanged it "
                + "reuses the Diagnostic ID it stored; only changed data makes a new report."),
        routes: [WarrantyLifeChecks.diagnostics],
        key: { request in
            guard let hash = request.fact(WarrantyLifeChecks.fingerprintFact), let device = request.device else { return nil }
            return device + " " + hash
        },
        stage: { "a diagnostic report with fingerprint \(($0.fact(WarrantyLifeChecks.fingerprintFact) ?? "").prefix(12))…" })

    /// `warrantylife.image-reuploaded`: an image whose bytes the same report already has under the same kind.
    static let image = ReusedStageSentAgain(
        definition: RuleDefinition(
            id: "warrantylife.image-reuploaded", platform: .warrantylife, severity: .warning, title: "Image uploaded again to the same report",
            ruleText: "Front-glass, back-glass and receipt images are fingerprinted by their content (SHA-256) together with the current "
                + "Diagnostic ID. The SDK skips an image when both are unchanged; it uploads again only a changed photo or one for a new report."),
        routes: [WarrantyLifeChecks.images],
        key: { request in
            guard let hash = request.fact(WarrantyLifeChecks.fingerprintFact), let device = request.device else { return nil }
            return device + " " + request.path + " " + hash
        },
        stage: { "the same \(parameter($0, "kind")) image to diagnostic report \(parameter($0, "diagnosticId"))" })
}

/// `warrantylife.upload-retried-without-backoff`: a readings or image upload retried sooner than
/// the SDK's back-off after a transient failure (-1, 408, 429, 500, 502, 503, 504): 1 s after the
/// first, 2 s after the second and 4 s after the third in a row. After a fourth the SDK reports
/// `.uploadError`, and the host may call `registerDevice` again at once.
struct UploadRetriedWithoutBackoff: CheckRule {
    /// The SDK's waits after the first, second and third failure in a row.
    static let backoff = [1.0, 2.0, 4.0]
    /// What the SDK retries.
    static let transient: Set<Int> = [0, 408, 429, 500, 502, 503, 504]

    let definition = RuleDefinition(
        id: "warrantylife.upload-retried-without-backoff", platform: .warrantylife, severity: .warning,
        title: "Upload retried sooner than the SDK's back-off",
        ruleText: "Sensor Readings and diagnostic image uploads are retried by the SDK, up to 4 attempts in all, for transient errors "
            + "(no answer, 408, 429, 500, 502, 503, 504), waiting 1, 2 and then 4 seconds. Quicker retries do not come from the SDK: the app "
            + "uploads the stage itself or has rebuilt the SDK.")

    var supersedes: [String] { [RetryBurstAfterServerError.id] }

    func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
        guard request.method == .post, request.route == WarrantyLifeChecks.readings || request.route == WarrantyLifeChecks.images,
            let key = request.target, let device = request.device
        else { return nil }
        var violation: Violation?
        if let trace = memory[key] {
            // `count` failures in a row so far; after every fourth the SDK gives up and the host may start over at once.
            let position = (trace.count - 1) % 4
            if position < Self.backoff.count, request.time - trace.time < Self.backoff[position] {
                let failure = trace.status == 0 ? "no answer" : String(trace.status)
                violation = Violation(
                    device: device,
                    whatTheAppDid: "Retried \(request.line) \(CheckedRequest.seconds(request.time - trace.time)) after attempt \(trace.count) "
                        + "failed with \(failure); the SDK waits \(CheckedRequest.seconds(Self.backoff[position])) before attempt \(trace.count + 1).",
                    evidence: trace.evidence + [request.journalID])
            }
        }
        if Self.transient.contains(request.status) {
            var trace = memory[key] ?? Trace(request)
            if trace.evidence.last != request.journalID { trace.advance(to: request) }
            trace.count += 1
            memory[key] = trace
        } else {
            memory.removeValue(forKey: key)
        }
        return violation
    }
}
