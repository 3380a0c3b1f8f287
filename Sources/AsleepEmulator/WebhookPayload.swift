import EmulatorCore
import Foundation

/// The bodies of Asleep's two webhooks, built from values only.
enum WebhookPayload {
    /// The envelope: `event`/`version`/`data`, or `callback_event`/`callback_version`/`callback_data`
    /// when the project's `webhookKeys` setting says `callback`.
    static func body(event: String, data: JSONValue, settings: AsleepSettings) -> JSONValue {
        settings.webhookKeys == "callback"
            ? ["callback_event": .string(event), "callback_version": "V3", "callback_data": data]
            : ["event": .string(event), "version": "V3", "data": data]
    }

    /// SESSION_COMPLETE's data: the report `result` (times in UTC) with the user and session ids.
    static func sessionComplete(report: JSONValue, session: SessionRecord) -> JSONValue {
        var data = report.objectValue ?? [:]
        data["user_id"] = .string(session.userID)
        data["session_id"] = .string(session.id)
        return .object(data)
    }

    /// INFERENCE_COMPLETE's data for chunk `seq`: the stages of the 40-epoch window ending with
    /// the chunk's ten-epoch block.
    static func inferenceComplete(session: SessionRecord, seq: Int, arrays: StageArrays, settings: AsleepSettings) -> JSONValue {
        let window = seq / 10
        let from = max(0, (window - 3) * 10)
        let to = min(arrays.sleep.count, (window + 1) * 10)
        return [
            "user_id": .string(session.userID), "session_id": .string(session.id), "seq_num": .int(Int64(seq)),
            "inference_seq_num": .int(Int64(window)),
            "sleep_stages": StageArrays.json(Array(arrays.sleep[from..<to])),
            "snoring_stages": settings.snoringEnabled ? StageArrays.json(Array(arrays.snoring[from..<to])) : .null,
            "breath_stages": settings.breathingEnabled ? StageArrays.json(Array(arrays.breath[from..<to])) : .null,
        ]
    }
}
