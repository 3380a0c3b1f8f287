import EmulatorCore
import Foundation

/// Queuing webhooks for the delivery worker.
extension AsleepService {
    /// Queues a webhook (and its outbox entry); the worker delivers it on the wall clock.
    func enqueueWebhook(session: SessionRecord, event: String, url: String, data: JSONValue, settings: AsleepSettings) throws {
        let body = WebhookPayload.body(event: event, data: data, settings: settings)
        try store.insertWebhook(
            id: "wh_" + draw(.lowerAlphanumeric(16)), session: session, event: event, url: url, body: body,
            maxAttempts: settings.webhookAttempts, firstAttempt: realNow, now: now)
    }

    /// SESSION_COMPLETE's data for `session` as it stands.
    func sessionCompleteData(_ session: SessionRecord, settings: AsleepSettings) throws -> JSONValue {
        WebhookPayload.sessionComplete(report: try report(session, settings: settings, zone: WireTime.utc), session: session)
    }

    /// INFERENCE_COMPLETE's data for chunk `seq` of `session`.
    func inferenceCompleteData(_ session: SessionRecord, seq: Int, settings: AsleepSettings) throws -> JSONValue {
        let received = try store.receivedChunks(session: session.id)
        let arrays = SleepAnalysis.assemble(sessionID: session.id, lastSeqNum: seq, received: received, explicit: StageArrays.explicit(in: session.overrides))
        return WebhookPayload.inferenceComplete(session: session, seq: seq, arrays: arrays, settings: settings)
    }
}
