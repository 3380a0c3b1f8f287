import EmulatorCore
import Foundation

/// Asleep's response shapes exactly as on the wire: snake_case keys, every documented member
/// present, `null` where a value is absent (so they are built as JSON rather than synthesized
/// `Codable`, which would drop nil members).
enum AsleepWire {
    /// `result` of `GET /ai/v1/users/{id}`; user-API times are UTC with `Z`.
    static func user(_ user: UserRecord, lastSession session: SessionRecord?) -> JSONValue {
        var last: JSONValue = .null
        if let session {
            last = [
                "session_id": .string(session.id), "inference_type": .string(session.inferenceType), "service": .string(session.service),
                "start_time": .string(WireTime.formatUTC(session.start)), "end_time": utc(session.end),
                "state": .string(session.state.rawValue), "complete_time": utc(session.completeTime),
            ]
        }
        return ["user_id": .string(user.id), "to_be_deleted": false, "last_session_info": last, "metadata": user.metadata]
    }

    /// The `session` member of a report, with the stages shown so far.
    static func reportSession(_ session: SessionRecord, stages: StageArrays, snoring: Bool, breathing: Bool, zone: TimeZone) -> JSONValue {
        [
            "id": .string(session.id), "state": .string(session.state.rawValue),
            "start_time": .string(WireTime.format(session.start, in: zone)),
            "end_time": session.state == .open ? .null : local(session.end, zone),
            "unexpected_end_time": local(session.unexpectedEnd, zone),
            "created_timezone": .string(session.createdTimezone),
            "sleep_stages": StageArrays.json(stages.sleep),
            "snoring_stages": snoring ? StageArrays.json(stages.snoring) : .null,
            "breath_stages": breathing ? StageArrays.json(stages.breath) : .null,
        ]
    }

    /// One entry of `sleep_session_list`. `time_in_bed` is end − start once closed, received chunks × 30 s while OPEN.
    static func sleepSession(_ session: SessionRecord, zone: TimeZone) -> JSONValue {
        let timeInBed: Int
        if session.state != .open, let end = session.end {
            timeInBed = max(0, (end.timeIntervalSince1970 - session.start.timeIntervalSince1970).roundedInt(.down) ?? 0)
        } else {
            timeInBed = ((session.lastSeqNum ?? -1) + 1) * SleepAnalysis.epochSeconds
        }
        return [
            "session_id": .string(session.id), "state": .string(session.state.rawValue),
            "session_start_time": .string(WireTime.format(session.start, in: zone)),
            "session_end_time": session.state == .open ? .null : local(session.end, zone),
            "created_timezone": .string(session.createdTimezone),
            "unexpected_end_time": local(session.unexpectedEnd, zone),
            "last_received_seq_num": session.lastSeqNum.map { .int(Int64($0)) } ?? .null,
            "time_in_bed": .int(Int64(timeInBed)),
        ]
    }

    private static func utc(_ date: Date?) -> JSONValue { date.map { .string(WireTime.formatUTC($0)) } ?? .null }
    private static func local(_ date: Date?, _ zone: TimeZone) -> JSONValue { date.map { .string(WireTime.format($0, in: zone)) } ?? .null }
}
