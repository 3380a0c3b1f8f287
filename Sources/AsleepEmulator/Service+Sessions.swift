import EmulatorCore
import Foundation

/// Session create, upload, close and delete, and the webhooks they queue.
extension AsleepService {
    // MARK: Sessions

    /// What a callback URL looks like: http(s), a host name or IPv4 address, an optional port, then
    /// path and query characters of RFC 3986. The OpenAPI document states the same pattern.
    static let callbackURLPattern = #"^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?([/?]([A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$"#

    /// Whether `text` is an absolute http(s) URL with a host, in the documented shape.
    static func isValidCallbackURL(_ text: String) -> Bool {
        guard text.range(of: callbackURLPattern, options: .regularExpression) != nil,
            let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return false }
        return true
    }

    /// `POST /ai/v1/sessions`.
    func createSession(_ caller: Caller, presented: Presented, body: Data) throws -> String {
        let userID = try userIDHeader(presented)
        _ = try user(caller, userID)
        // A body that is not a JSON object is the documented 422 `Invalid parameter`; null members count as absent.
        let fields = (try RequestBody.optionalObject(body, unreadable: .invalidParameter) ?? [:]).filter { !$0.value.isNull }
        for name in ["session_start_time", "inference_type", "service", "callback_url", "timezone"] {
            if let value = fields[name], value.stringValue == nil { throw AsleepError.invalidParameter }
        }
        var start = now
        if let text = fields["session_start_time"]?.stringValue {
            guard let parsed = WireTime.parseInstant(text) else { throw AsleepError.invalidStartTime }
            start = parsed
        }
        start = Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down))
        let inferenceType = fields["inference_type"]?.stringValue?.uppercased() ?? "MELSPECTROGRAM"
        guard ["MELSPECTROGRAM", "AUDIO"].contains(inferenceType) else { throw AsleepError.invalidParameter }
        let callback = fields["callback_url"]?.stringValue
        if let callback, !Self.isValidCallbackURL(callback) { throw AsleepError.invalidCallbackURL }
        let zoneName = presented.timezone.flatMap { $0.isEmpty ? nil : $0 } ?? fields["timezone"]?.stringValue ?? "UTC"
        _ = try WireTime.zone(zoneName)
        try advance(project: caller.project, settings: caller.settings)
        for var open in try store.openSessions(project: caller.project, user: userID) {
            if caller.settings.rejectsConflicts { throw AsleepError.previousNotClosed }
            try close(&open, end: now, unexpected: false)
        }
        let id = try uniqueID(exists: store.sessionIDExists) { WireTime.compactUTC(now) + "_" + draw(.lowerAlphanumeric(5)) }
        var row = SessionRecord.empty(id: id, project: caller.project, customer: caller.customer, userID: userID, start: start, now: now)
        row.createdTimezone = zoneName
        row.inferenceType = inferenceType
        row.service = fields["service"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "NOSERVICE"
        row.callbackURL = callback
        row.apiKey = caller.apiKey
        row.productID = caller.productID
        try store.insertSession(row)
        return id
    }

    /// The session `id` of the `x-user-id` user, after due transitions, or `missing`.
    func session(_ caller: Caller, presented: Presented, id: String, missing: AsleepError) throws -> SessionRecord {
        let userID = try userIDHeader(presented)
        try advance(project: caller.project, settings: caller.settings)
        guard let session = try store.session(project: caller.project, id: id),
            session.customer == caller.customer, session.userID == userID,
            try store.user(project: caller.project, customer: caller.customer, id: userID) != nil
        else { throw missing }
        return session
    }

    /// An upload as read from the wire.
    struct Upload: Sendable {
        var seqNum: Int?
        var callbackURL: String?
        var file: Data
        /// The file's SHA-256, hex (stored to tell re-sent chunks apart).
        var sha256: String
    }

    /// `POST /ai/v1/sessions/{id}/upload`.
    func upload(_ caller: Caller, presented: Presented, sessionID: String, upload: Upload) throws -> JSONValue {
        var session = try session(caller, presented: presented, id: sessionID, missing: .sessionDoesNotExistUpload)
        guard session.state == .open else { throw AsleepError.sessionTerminated }
        if let callback = upload.callbackURL {
            guard Self.isValidCallbackURL(callback) else { throw AsleepError.invalidCallbackURL }
            session.callbackURL = callback
        }
        let kind = Self.sniff(upload.file)
        if session.inferenceType == "AUDIO", kind == "MELSPECTROGRAM" { throw AsleepError.melspectrogramToAudio }
        if session.inferenceType == "MELSPECTROGRAM", kind == "AUDIO" { throw AsleepError.audioToMelspectrogram }
        var seqNum = upload.seqNum
        if seqNum == nil {
            if caller.settings.isStrict { throw AsleepError.notValidParameter }
            seqNum = (session.lastSeqNum ?? -1) + 1
        }
        let seq = seqNum ?? 0
        let isNew = try store.insertChunk(
            project: caller.project, session: session.id, seqNum: seq, size: upload.file.count,
            sha256: upload.sha256, now: now)
        session.lastSeqNum = max(session.lastSeqNum ?? -1, seq)
        session.apiKey = caller.apiKey ?? session.apiKey
        try store.recordUpload(session)
        let interval = caller.settings.inferenceInterval
        if isNew, seq >= 39, (seq - 39) % interval == 0, let url = session.callbackURL {
            let data = try inferenceCompleteData(session, seq: seq, settings: caller.settings)
            try enqueueWebhook(session: session, event: "INFERENCE_COMPLETE", url: url, data: data, settings: caller.settings)
        }
        let detected = session.overrides
        func flagged(_ key: String) -> Bool { detected[key]?.arrayValue?.contains(.int(Int64(seq))) ?? false }
        return [
            "session_id": .string(session.id), "seq_num": .int(Int64(seq)),
            "snoring_detected": .bool(flagged("snoringDetected")), "breath_detected": .bool(flagged("breathDetected")),
        ]
    }

    /// `MELSPECTROGRAM` for NumPy arrays, `AUDIO` for WAV/MP3/M4A, nil when unrecognised.
    static func sniff(_ data: Data) -> String? {
        let head = Array(data.prefix(12))
        if head.starts(with: [0x93, 0x4E, 0x55, 0x4D, 0x50, 0x59]) { return "MELSPECTROGRAM" } // \x93NUMPY
        if head.starts(with: Array("RIFF".utf8)) || head.starts(with: Array("ID3".utf8)) { return "AUDIO" }
        if head.count >= 8, Array(head[4..<8]) == Array("ftyp".utf8) { return "AUDIO" }
        return nil
    }

    /// `POST /ai/v1/sessions/{id}/close`.
    func closeSession(_ caller: Caller, presented: Presented, sessionID: String, body: Data) throws -> JSONValue {
        // A body that is not a JSON object is the end-time 400 the SDK knows; null members count as absent.
        let fields = (try RequestBody.optionalObject(body, unreadable: .invalidEndTime) ?? [:]).filter { !$0.value.isNull }
        var end = now
        if let value = fields["session_end_time"] {
            guard let text = value.stringValue, let parsed = WireTime.parseInstant(text) else { throw AsleepError.invalidEndTime }
            end = parsed
        }
        var unexpected = false
        if let value = fields["unexpected"] {
            switch value {
            case .bool(let flag): unexpected = flag
            case .int, .double:
                guard let number = value.intValue, number == 0 || number == 1 else { throw AsleepError.invalidParameter }
                unexpected = number == 1
            default: throw AsleepError.invalidParameter
            }
        }
        var callback: String?
        if let value = fields["callback_url"] {
            guard let text = value.stringValue, Self.isValidCallbackURL(text) else { throw AsleepError.invalidCallbackURL }
            callback = text
        }
        var session = try session(caller, presented: presented, id: sessionID, missing: .sessionDoesNotExist)
        guard session.state == .open else {
            throw caller.settings.closeEndedStatus == 403 ? AsleepError.sessionAlreadyClosed : AsleepError.sessionDoesNotExist
        }
        end = Date(timeIntervalSince1970: end.timeIntervalSince1970.rounded(.down))
        guard end >= session.start else { throw AsleepError.invalidEndTime }
        if let callback { session.callbackURL = callback }
        session.apiKey = caller.apiKey ?? session.apiKey
        try close(&session, end: end, unexpected: unexpected)
        return ["session_id": .string(session.id), "state": "CLOSED"]
    }

    /// `DELETE /ai/v1/sessions/{id}`.
    func deleteSession(_ caller: Caller, presented: Presented, sessionID: String) throws {
        let userID = try userIDHeader(presented)
        _ = try user(caller, userID)
        let session = try session(caller, presented: presented, id: sessionID, missing: .sessionDoesNotExist)
        try store.deleteSession(project: caller.project, id: session.id)
    }

    /// `DELETE /ai/v1/sessions`.
    func deleteAllSessions(_ caller: Caller, presented: Presented) throws {
        let userID = try userIDHeader(presented)
        _ = try user(caller, userID)
        try store.deleteSessions(project: caller.project, user: userID)
    }
}
