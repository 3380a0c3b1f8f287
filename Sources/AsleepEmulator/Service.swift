import EmulatorCore
import Foundation
import SQLiteStore

/// The credentials and identity headers a request carries.
struct Presented: Sendable, Equatable {
    var apiKey: String?
    var bearer: String?
    var productKey: String?
    var userAgent: String?
    var userID: String?
    var timezone: String?

    init(apiKey: String? = nil, bearer: String? = nil, productKey: String? = nil, userAgent: String? = nil, userID: String? = nil, timezone: String? = nil) {
        self.apiKey = apiKey
        self.bearer = bearer
        self.productKey = productKey
        self.userAgent = userAgent
        self.userID = userID
        self.timezone = timezone
    }
}

/// Who is calling: the project and customer behind the credential, and its plan.
struct Caller: Sendable, Equatable {
    var project: ProjectID
    var customer: String
    var apiKey: String?
    var productBilling: Bool
    var productID: String?
    var settings: AsleepSettings
}

/// What a new id is drawn from.
enum Draw: Sendable {
    case alphanumeric(Int)
    case lowerAlphanumeric(Int)
    case uuid
}

/// Asleep's rules over one database transaction: credentials and customers, users, products, the
/// session state machine (OPEN → CLOSED → COMPLETE), uploads, reports and webhook scheduling.
/// `now` is the project's clock; ids come from `draw` (the project's seeded generator when it has one).
struct AsleepService {
    let connection: SQLiteConnection
    let now: Date
    /// Settings from the configuration file, under each project's own.
    let defaults: AsleepSettings
    let draw: (Draw) -> String

    // MARK: Credentials

    /// Resolves the credential to a caller, or throws the documented 401/403.
    func authenticate(_ presented: Presented) throws(AsleepError) -> Caller {
        do {
            var caller: Caller
            if let key = presented.apiKey, !key.isEmpty {
                guard let row = try connection.queryOne("SELECT * FROM asleep_api_keys WHERE api_key = ?", key) else { throw AsleepError.unauthorized }
                try Self.check(state: row.string("state") ?? "active")
                caller = Caller(project: row.string("project_id") ?? "", customer: row.string("customer") ?? "", apiKey: key,
                                productBilling: row.bool("product_billing") ?? true, productID: nil, settings: AsleepSettings())
            } else if let token = presented.bearer, !token.isEmpty {
                guard let row = try connection.queryOne("SELECT * FROM asleep_tokens WHERE token = ? AND kind = 'access'", token),
                      let app = try connection.queryOne("SELECT * FROM asleep_apps WHERE app_id = ?", row.string("app_id") ?? "") else {
                    throw AsleepError.unauthorized
                }
                guard (row.double("expires_at") ?? 0) > now.timeIntervalSince1970 else { throw AsleepError.tokenInvalid }
                try Self.check(state: app.string("state") ?? "active")
                caller = Caller(project: row.string("project_id") ?? "", customer: app.string("customer") ?? "", apiKey: nil,
                                productBilling: app.bool("product_billing") ?? true, productID: nil, settings: AsleepSettings())
            } else {
                throw AsleepError.unauthorized
            }
            caller.settings = defaults.merged(with: try AsleepStore.settings(connection, project: caller.project))
            if caller.settings.isStrict, (presented.userAgent ?? "").isEmpty { throw AsleepError.userAgentEmpty }
            if let productKey = presented.productKey, !productKey.isEmpty {
                guard let product = try connection.queryOne(
                    "SELECT product_id FROM asleep_products WHERE product_key = ? AND project_id = ? AND revoked = 0", productKey, caller.project) else {
                    throw AsleepError.invalidProductKey
                }
                caller.productID = product.string("product_id")
            }
            return caller
        } catch let error as AsleepError {
            throw error
        } catch {
            throw AsleepError(500, "Internal Server Error")
        }
    }

    private static func check(state: String) throws(AsleepError) {
        switch state {
        case "plan_expired": throw .planExpired
        case "rate_limited": throw .rateLimited
        case "quota_exceeded": throw .quotaExceeded
        case "revoked": throw .unauthorized
        default: return
        }
    }

    /// The `x-user-id` header, or 401 `x-user-id is invalid`.
    func userIDHeader(_ presented: Presented) throws(AsleepError) -> String {
        guard let id = presented.userID?.trimmingCharacters(in: .whitespaces), !id.isEmpty else { throw .userIDHeaderInvalid }
        return id
    }

    // MARK: Session clock

    /// Applies the time-based transitions that are due on the project clock: OPEN sessions past
    /// the maximum duration close, CLOSED sessions past the completion delay complete (and their
    /// SESSION_COMPLETE webhook is queued). Idempotent; every request that reads sessions runs it.
    func advance(project: ProjectID, settings: AsleepSettings) throws {
        let nowSeconds = now.timeIntervalSince1970
        for row in try connection.query("SELECT * FROM asleep_sessions WHERE project_id = ? AND state = 'OPEN' AND start_time + ? <= ?",
                                         project, settings.maxSession, nowSeconds) {
            var session = SessionRecord(row: row)
            let limit = session.start.addingTimeInterval(settings.maxSession)
            session.state = "CLOSED"
            session.end = limit
            session.closedAt = limit
            try AsleepStore.updateSession(connection, session)
        }
        for row in try connection.query("""
            SELECT * FROM asleep_sessions WHERE project_id = ? AND state = 'CLOSED' AND hold = 0 AND closed_at + ? <= ?
            """, project, settings.completionDelay, nowSeconds) {
            var session = SessionRecord(row: row)
            try complete(&session, at: (session.closedAt ?? now).addingTimeInterval(settings.completionDelay), settings: settings)
        }
    }

    /// Whether `advance` would change anything for the project at `now`.
    static func hasDueTransitions(_ connection: SQLiteConnection, project: ProjectID, now: Date, settings: AsleepSettings) throws -> Bool {
        try connection.queryOne("""
            SELECT 1 FROM asleep_sessions WHERE project_id = ? AND (
                (state = 'OPEN' AND start_time + ? <= ?) OR (state = 'CLOSED' AND hold = 0 AND closed_at + ? <= ?)) LIMIT 1
            """, project, settings.maxSession, now.timeIntervalSince1970, settings.completionDelay, now.timeIntervalSince1970) != nil
    }

    /// Moves a CLOSED (or OPEN) session to COMPLETE and queues SESSION_COMPLETE.
    func complete(_ session: inout SessionRecord, at time: Date, settings: AsleepSettings) throws {
        if session.state == "OPEN" {
            session.end = session.end ?? now
            session.closedAt = now
        }
        session.state = "COMPLETE"
        session.completeTime = min(time, now)
        session.hold = false
        try AsleepStore.updateSession(connection, session)
        if let url = session.callbackURL {
            let result = try report(session, settings: settings, zone: WireTime.utc)
            var data = result.objectValue ?? [:]
            data["user_id"] = .string(session.userID)
            data["session_id"] = .string(session.id)
            try enqueueWebhook(session: session, event: "SESSION_COMPLETE", url: url, data: .object(data), settings: settings)
        }
    }

    /// Closes a session (end time `end`).
    func close(_ session: inout SessionRecord, end: Date, unexpected: Bool) throws {
        session.state = "CLOSED"
        session.end = end
        session.unexpectedEnd = unexpected ? end : nil
        session.closedAt = now
        try AsleepStore.updateSession(connection, session)
    }

    // MARK: Users

    /// `POST /ai/v1/users`.
    func createUser(_ caller: Caller, body: Data) throws -> String {
        let metadata = try Self.metadata(fromBody: body, required: false, year: WireTime.year(now))
        let id = try uniqueID(table: "asleep_users", column: "user_id") { "G-" + WireTime.compactUTC(now) + "-" + draw(.alphanumeric(20)) }
        try AsleepStore.insertUser(connection, id: id, project: caller.project, customer: caller.customer, metadata: metadata, now: now)
        return id
    }

    /// The user of `caller`'s customer, or the given 404.
    func user(_ caller: Caller, _ id: String, missing: AsleepError = .userDoesNotExist) throws -> UserRecord {
        guard let user = try AsleepStore.user(connection, project: caller.project, customer: caller.customer, id: id) else { throw missing }
        return user
    }

    /// `GET /ai/v1/users/{id}`.
    func getUser(_ caller: Caller, id: String) throws -> JSONValue {
        let user = try user(caller, id)
        try advance(project: caller.project, settings: caller.settings)
        if caller.settings.terminateOnJoin ?? false {
            for var open in try AsleepStore.openSessions(connection, project: caller.project, user: id) {
                try close(&open, end: now, unexpected: false)
            }
        }
        var last: JSONValue = .null
        if let session = try AsleepStore.latestSession(connection, project: caller.project, user: id) {
            last = [
                "session_id": .string(session.id), "inference_type": .string(session.inferenceType), "service": .string(session.service),
                "start_time": .string(WireTime.formatUTC(session.start)), "end_time": session.end.map { .string(WireTime.formatUTC($0)) } ?? .null,
                "state": .string(session.state), "complete_time": session.completeTime.map { .string(WireTime.formatUTC($0)) } ?? .null,
            ]
        }
        return ["user_id": .string(user.id), "to_be_deleted": false, "last_session_info": last, "metadata": user.metadata]
    }

    /// `PUT /ai/v1/users/{id}`.
    func updateUser(_ caller: Caller, id: String, body: Data) throws -> JSONValue {
        _ = try user(caller, id, missing: .userNotExist)
        let metadata = try Self.metadata(fromBody: body, required: true, year: WireTime.year(now))
        try connection.run("UPDATE asleep_users SET metadata = ? WHERE user_id = ? AND project_id = ?",
                           metadata.isNull ? nil : String(decoding: metadata.encoded(), as: UTF8.self), id, caller.project)
        return ["user_id": .string(id), "metadata": metadata]
    }

    /// `DELETE /ai/v1/users/{id}`: immediate, with every session.
    func deleteUser(_ caller: Caller, id: String) throws {
        _ = try user(caller, id)
        try AsleepStore.deleteUser(connection, project: caller.project, id: id)
    }

    static let genders: Set<String> = ["male", "female", "non_binary", "other", "prefer_not_to_say"]

    /// Validates the `metadata` of a create/update body ([A-U1]); returns it (null when absent).
    static func metadata(fromBody body: Data, required: Bool, year currentYear: Int) throws(AsleepError) -> JSONValue {
        let isBlank = body.allSatisfy { $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }
        if isBlank {
            if required { throw AsleepError.validation("metadata", "field required") }
            return .null
        }
        guard let document = try? JSONValue.parse(body) else { throw AsleepError(422, "body: invalid JSON") }
        guard case .object(let members) = document else { throw AsleepError(422, "body: must be an object") }
        guard let metadata = members["metadata"] else {
            if required { throw AsleepError.validation("metadata", "field required") }
            return .null
        }
        if metadata.isNull {
            if required { throw AsleepError.validation("metadata", "must be an object") }
            return .null
        }
        guard case .object(let fields) = metadata else { throw AsleepError.validation("metadata", "must be an object") }
        var result: [String: JSONValue] = [:]
        func integer(_ name: String, _ range: ClosedRange<Int>) throws(AsleepError) -> Int? {
            guard let value = fields[name], !value.isNull else { result[name] = .null; return nil }
            guard case .int(let raw) = value else { throw AsleepError.validation("metadata.\(name)", "must be an integer") }
            guard range.contains(Int(raw)) else { throw AsleepError.validation("metadata.\(name)", "must be between \(range.lowerBound) and \(range.upperBound)") }
            result[name] = value
            return Int(raw)
        }
        func decimal(_ name: String, _ range: ClosedRange<Double>) throws(AsleepError) {
            guard let value = fields[name], !value.isNull else { result[name] = .null; return }
            guard let number = value.doubleValue, value.boolValue == nil else { throw AsleepError.validation("metadata.\(name)", "must be a number") }
            guard range.contains(number) else { throw AsleepError.validation("metadata.\(name)", "must be between \(Int(range.lowerBound)) and \(Int(range.upperBound))") }
            guard abs((number * 10).rounded() - number * 10) < 1e-6 else { throw AsleepError.validation("metadata.\(name)", "must have at most one decimal place") }
            result[name] = .double(number)
        }
        let year = try integer("birth_year", 1900...currentYear)
        let month = try integer("birth_month", 1...12)
        if let day = try integer("birth_day", 1...31), let month {
            let limit = WireTime.daysIn(month: month, year: year ?? 2000)
            guard day <= limit else { throw AsleepError.validation("metadata.birth_day", "day \(day) does not exist in month \(month)") }
        }
        if let gender = fields["gender"], !gender.isNull {
            guard let text = gender.stringValue, genders.contains(text) else {
                throw AsleepError.validation("metadata.gender", "must be one of male, female, non_binary, other, prefer_not_to_say")
            }
            result["gender"] = gender
        } else {
            result["gender"] = .null
        }
        try decimal("height", 0...300)
        try decimal("weight", 0...1000)
        return .object(result)
    }

    // MARK: Products

    /// `POST /ai/v1/products`: returns the result and whether the product is new.
    func registerProduct(_ caller: Caller, body: Data) throws -> (result: JSONValue, created: Bool) {
        let status = caller.settings.productValidationStatus ?? 422
        guard let document = try? JSONValue.parse(body), case .object(let fields) = document else { throw AsleepError(status, "invalid model") }
        guard let model = fields["model"]?.stringValue, (1...100).contains(model.count) else { throw AsleepError(status, "invalid model") }
        let rawType = fields["identifier_type"]?.stringValue ?? fields["identifierType"]?.stringValue
        guard let type = rawType.flatMap(Self.identifierType) else { throw AsleepError(status, "invalid identifier_type") }
        guard let value = (fields["identifier_value"] ?? fields["identifierValue"])?.stringValue, (1...255).contains(value.count) else {
            throw AsleepError(status, "invalid identifier_value")
        }
        guard caller.productBilling else { throw AsleepError.productNotAllowed }
        if let row = try connection.queryOne("""
            SELECT * FROM asleep_products WHERE project_id = ? AND customer = ? AND model = ? AND identifier_type = ? AND identifier_value = ?
            """, caller.project, caller.customer, model, type, value) {
            if row.bool("revoked") == true {
                // A revoked credential is replaced: re-registering is how a device recovers.
                let key = "pk_" + draw(.alphanumeric(40))
                try connection.run("UPDATE asleep_products SET product_key = ?, revoked = 0 WHERE product_id = ?", key, row.string("product_id") ?? "")
                return (["product_id": .string(row.string("product_id") ?? ""), "product_key": .string(key), "created": false], false)
            }
            return (["product_id": .string(row.string("product_id") ?? ""), "product_key": .string(row.string("product_key") ?? ""), "created": false], false)
        }
        let id = "P-" + draw(.uuid)
        let key = "pk_" + draw(.alphanumeric(40))
        try connection.run("""
            INSERT INTO asleep_products (product_id, project_id, customer, product_key, model, identifier_type, identifier_value, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, id, caller.project, caller.customer, key, model, type, value, now.timeIntervalSince1970)
        return (["product_id": .string(id), "product_key": .string(key), "created": true], true)
    }

    /// `SERIAL` / `MAC_ADDRESS` from any of the SDKs' spellings.
    static func identifierType(_ text: String) -> String? {
        switch text.lowercased().replacingOccurrences(of: "_", with: "") {
        case "serial": return "SERIAL"
        case "macaddress": return "MAC_ADDRESS"
        default: return nil
        }
    }

    // MARK: Sessions

    /// Whether `text` is an absolute http(s) URL with a host.
    static func isValidCallbackURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty else { return false }
        return true
    }

    /// `POST /ai/v1/sessions`.
    func createSession(_ caller: Caller, presented: Presented, body: Data) throws -> String {
        let userID = try userIDHeader(presented)
        _ = try user(caller, userID)
        var fields: [String: JSONValue] = [:]
        if !body.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) {
            guard let document = try? JSONValue.parse(body), case .object(let members) = document else { throw AsleepError.invalidParameter }
            fields = members.filter { !$0.value.isNull }
        }
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
        for var open in try AsleepStore.openSessions(connection, project: caller.project, user: userID) {
            if caller.settings.rejectsConflicts { throw AsleepError.previousNotClosed }
            try close(&open, end: now, unexpected: false)
        }
        let id = try uniqueID(table: "asleep_sessions", column: "session_id") { WireTime.compactUTC(now) + "_" + draw(.lowerAlphanumeric(5)) }
        var row = SessionRecord.empty(id: id, project: caller.project, customer: caller.customer, userID: userID, start: start, now: now)
        row.createdTimezone = zoneName
        row.inferenceType = inferenceType
        row.service = fields["service"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "NOSERVICE"
        row.callbackURL = callback
        row.apiKey = caller.apiKey
        row.productID = caller.productID
        try AsleepStore.insertSession(connection, row)
        return id
    }

    /// The session `id` of the `x-user-id` user, after due transitions, or `missing`.
    func session(_ caller: Caller, presented: Presented, id: String, missing: AsleepError) throws -> SessionRecord {
        let userID = try userIDHeader(presented)
        try advance(project: caller.project, settings: caller.settings)
        guard let session = try AsleepStore.session(connection, project: caller.project, id: id),
              session.customer == caller.customer, session.userID == userID,
              try AsleepStore.user(connection, project: caller.project, customer: caller.customer, id: userID) != nil else { throw missing }
        return session
    }

    /// An upload as read from the wire.
    struct Upload: Sendable {
        var seqNum: Int?
        var callbackURL: String?
        var file: Data
    }

    /// `POST /ai/v1/sessions/{id}/upload`.
    func upload(_ caller: Caller, presented: Presented, sessionID: String, upload: Upload) throws -> JSONValue {
        var session = try session(caller, presented: presented, id: sessionID, missing: .sessionDoesNotExistUpload)
        guard session.state == "OPEN" else { throw AsleepError.sessionTerminated }
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
        let isNew = try AsleepStore.insertChunk(connection, project: caller.project, session: session.id, seqNum: seq, size: upload.file.count,
                                                sha256: SHA256Digest.hex(upload.file), now: now)
        session.lastSeqNum = max(session.lastSeqNum ?? -1, seq)
        session.apiKey = caller.apiKey ?? session.apiKey
        try AsleepStore.updateSession(connection, session)
        let interval = caller.settings.inferenceInterval
        if isNew, seq >= 39, (seq - 39) % interval == 0, let url = session.callbackURL {
            let received = try AsleepStore.receivedChunks(connection, session: session.id)
            let arrays = SleepAnalysis.assemble(sessionID: session.id, lastSeqNum: seq, received: received, explicit: Self.explicitStages(session))
            let window = seq / 10
            let from = max(0, (window - 3) * 10)
            let to = min(arrays.sleep.count, (window + 1) * 10)
            let data: JSONValue = [
                "user_id": .string(session.userID), "session_id": .string(session.id), "seq_num": .int(Int64(seq)),
                "inference_seq_num": .int(Int64(window)),
                "sleep_stages": Self.ints(Array(arrays.sleep[from..<to])),
                "snoring_stages": caller.settings.snoringEnabled ? Self.ints(Array(arrays.snoring[from..<to])) : .null,
                "breath_stages": caller.settings.breathingEnabled ? Self.ints(Array(arrays.breath[from..<to])) : .null,
            ]
            try enqueueWebhook(session: session, event: "INFERENCE_COMPLETE", url: url, data: data, settings: caller.settings)
        }
        let detected = session.overrides
        func flagged(_ key: String) -> Bool { detected[key]?.arrayValue?.contains(.int(Int64(seq))) ?? false }
        return ["session_id": .string(session.id), "seq_num": .int(Int64(seq)),
                "snoring_detected": .bool(flagged("snoringDetected")), "breath_detected": .bool(flagged("breathDetected"))]
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
        var fields: [String: JSONValue] = [:]
        if !body.allSatisfy({ $0 == 32 || $0 == 10 || $0 == 13 || $0 == 9 }) {
            guard let document = try? JSONValue.parse(body), case .object(let members) = document else { throw AsleepError.invalidEndTime }
            fields = members.filter { !$0.value.isNull }
        }
        var end = now
        if let value = fields["session_end_time"] {
            guard let text = value.stringValue, let parsed = WireTime.parseInstant(text) else { throw AsleepError.invalidEndTime }
            end = parsed
        }
        var unexpected = false
        if let value = fields["unexpected"] {
            switch value {
            case .bool(let flag): unexpected = flag
            case .int(let number) where number == 0 || number == 1: unexpected = number == 1
            default: throw AsleepError.invalidParameter
            }
        }
        var callback: String?
        if let value = fields["callback_url"] {
            guard let text = value.stringValue, Self.isValidCallbackURL(text) else { throw AsleepError.invalidCallbackURL }
            callback = text
        }
        var session = try session(caller, presented: presented, id: sessionID, missing: .sessionDoesNotExist)
        guard session.state == "OPEN" else {
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
        try AsleepStore.deleteSession(connection, project: caller.project, id: session.id)
    }

    /// `DELETE /ai/v1/sessions`.
    func deleteAllSessions(_ caller: Caller, presented: Presented) throws {
        let userID = try userIDHeader(presented)
        _ = try user(caller, userID)
        try connection.run("DELETE FROM asleep_chunks WHERE session_id IN (SELECT session_id FROM asleep_sessions WHERE project_id = ? AND user_id = ?)",
                           caller.project, userID)
        try connection.run("DELETE FROM asleep_sessions WHERE project_id = ? AND user_id = ?", caller.project, userID)
    }

    // MARK: Reports

    static func ints(_ values: [Int]) -> JSONValue { .array(values.map { .int(Int64($0)) }) }

    /// Control-plane stage arrays of a session, if any.
    static func explicitStages(_ session: SessionRecord) -> StageArrays? {
        func array(_ key: String) -> [Int]? { session.overrides[key]?.arrayValue?.compactMap(\.intValue) }
        let sleep = array("sleepStages"), snoring = array("snoringStages"), breath = array("breathStages")
        if sleep == nil && snoring == nil && breath == nil { return nil }
        return StageArrays(sleep: sleep ?? [], snoring: snoring ?? [], breath: breath ?? [])
    }

    /// The `result` of `GET /data/v3/sessions/{id}` with times in `zone`.
    func report(_ session: SessionRecord, settings: AsleepSettings, zone: TimeZone) throws -> JSONValue {
        let received = try AsleepStore.receivedChunks(connection, session: session.id)
        let arrays = SleepAnalysis.assemble(sessionID: session.id, lastSeqNum: session.lastSeqNum, received: received, explicit: Self.explicitStages(session))
        let total = (session.lastSeqNum ?? -1) + 1
        let missingRatio = total > 0 ? SleepAnalysis.ratio(Double(total - received.filter { $0 < total }.count) / Double(total)) : 0
        var peculiarities: [String] = []
        var stat: JSONValue = .null
        var shown = arrays
        if session.state != "COMPLETE" {
            peculiarities.append("IN_PROGRESS")
            shown = received.count >= settings.realtime ? arrays.prefix(total / 10 * 10) : arrays.prefix(0)
        } else {
            let forced = Set((session.overrides["peculiarities"]?.arrayValue ?? []).compactMap(\.stringValue))
            if received.count < settings.tooShort { peculiarities.append("TOO_SHORT_FOR_ANALYSIS") }
            if total > 0, Double(received.filter { $0 < total }.count) / Double(total) < 0.7 { peculiarities.append("TOO_MANY_DEFECTS_IN_SLEEP_STAGES") }
            for name in ["TOO_LONG_FOR_ANALYSIS", "NO_REALTIME_POLLING"] where forced.contains(name) { peculiarities.append(name) }
            let blocked = peculiarities.contains { ["TOO_SHORT_FOR_ANALYSIS", "TOO_MANY_DEFECTS_IN_SLEEP_STAGES", "NO_REALTIME_POLLING"].contains($0) }
            if !blocked {
                let computed = SleepAnalysis.stat(arrays, start: session.start, end: session.end ?? session.start, snoring: settings.snoringEnabled,
                                                  breathing: settings.breathingEnabled)
                if computed.neverSlept { peculiarities.append("NEVER_SLEPT") }
                var object = computed.json(in: zone, sleepCycleTime: Self.sleepCycleTime(settings: settings, arrays: arrays)).objectValue ?? [:]
                for (key, value) in session.overrides["stat"]?.objectValue ?? [:] { object[key] = value }
                stat = .object(object)
            }
            if !settings.breathingEnabled { peculiarities.append("NO_BREATHING_STABILITY") }
            for name in forced.sorted() where !peculiarities.contains(name) { peculiarities.append(name) }
        }
        let sessionObject: JSONValue = [
            "id": .string(session.id), "state": .string(session.state),
            "start_time": .string(WireTime.format(session.start, in: zone)),
            "end_time": session.state == "OPEN" ? .null : session.end.map { .string(WireTime.format($0, in: zone)) } ?? .null,
            "unexpected_end_time": session.unexpectedEnd.map { .string(WireTime.format($0, in: zone)) } ?? .null,
            "created_timezone": .string(session.createdTimezone),
            "sleep_stages": Self.ints(shown.sleep),
            "snoring_stages": settings.snoringEnabled ? Self.ints(shown.snoring) : .null,
            "breath_stages": settings.breathingEnabled ? Self.ints(shown.breath) : .null,
        ]
        return ["timezone": .string(WireTime.name(zone)), "peculiarities": .array(peculiarities.map(JSONValue.string)),
                "missing_data_ratio": .double(missingRatio), "session": sessionObject, "stat": stat]
    }

    static func sleepCycleTime(settings: AsleepSettings, arrays: StageArrays) -> JSONValue {
        switch settings.sleepCycleTime {
        case "numbers", "strings":
            let ends = SleepAnalysis.runEnds(arrays.sleep.map { $0 == 3 })
            let seconds = ends.map { ($0 + 1) * SleepAnalysis.epochSeconds }
            return .array(seconds.map { settings.sleepCycleTime == "numbers" ? .int(Int64($0)) : .string(String($0)) })
        default:
            return .array([])
        }
    }

    /// `GET /data/v3/sessions/{id}`.
    func getReport(_ caller: Caller, presented: Presented, sessionID: String) throws -> JSONValue {
        let zone = try WireTime.zone(presented.timezone)
        let userID = try userIDHeader(presented)
        _ = try user(caller, userID)
        let session = try session(caller, presented: presented, id: sessionID, missing: .sessionDoesNotExist)
        return try report(session, settings: caller.settings, zone: zone)
    }

    /// `GET /data/v1/sessions`.
    func listSessions(_ caller: Caller, presented: Presented, query: [(name: String, value: String)]) throws -> JSONValue {
        let zone = try WireTime.zone(presented.timezone)
        let userID = try userIDHeader(presented)
        _ = try user(caller, userID)
        var from: Int?, to: Int?, descending = true, offset = 0, limit = 20
        for (name, value) in query {
            switch name {
            case "date_gte": guard let day = WireTime.parseDay(value) else { throw AsleepError.validation("date_gte", "must be a date YYYY-MM-DD") }; from = day
            case "date_lte": guard let day = WireTime.parseDay(value) else { throw AsleepError.validation("date_lte", "must be a date YYYY-MM-DD") }; to = day
            case "order_by":
                switch value.uppercased() {
                case "ASC": descending = false
                case "DESC": descending = true
                default: throw AsleepError.validation("order_by", "must be ASC or DESC")
                }
            case "offset": guard let number = Int(value), number >= 0 else { throw AsleepError.validation("offset", "must be a non-negative integer") }; offset = number
            case "limit": guard let number = Int(value), (0...100).contains(number) else { throw AsleepError.validation("limit", "must be an integer between 0 and 100") }; limit = number
            default: continue
            }
        }
        try advance(project: caller.project, settings: caller.settings)
        var sessions = try AsleepStore.sessions(connection, project: caller.project, user: userID).filter { session in
            guard let day = WireTime.parseDay(WireTime.day(session.start, in: zone)) else { return false }
            return (from.map { day >= $0 } ?? true) && (to.map { day <= $0 } ?? true)
        }
        if descending { sessions.reverse() }
        let page = sessions.dropFirst(offset).prefix(limit)
        let list: [JSONValue] = page.map { session in
            let timeInBed: Int
            if session.state != "OPEN", let end = session.end {
                timeInBed = max(0, Int((end.timeIntervalSince1970 - session.start.timeIntervalSince1970).rounded(.down)))
            } else {
                timeInBed = ((session.lastSeqNum ?? -1) + 1) * SleepAnalysis.epochSeconds
            }
            return [
                "session_id": .string(session.id), "state": .string(session.state),
                "session_start_time": .string(WireTime.format(session.start, in: zone)),
                "session_end_time": session.state == "OPEN" ? .null : session.end.map { .string(WireTime.format($0, in: zone)) } ?? .null,
                "created_timezone": .string(session.createdTimezone),
                "unexpected_end_time": session.unexpectedEnd.map { .string(WireTime.format($0, in: zone)) } ?? .null,
                "last_received_seq_num": session.lastSeqNum.map { .int(Int64($0)) } ?? .null,
                "time_in_bed": .int(Int64(timeInBed)),
            ]
        }
        return ["timezone": .string(WireTime.name(zone)), "sleep_session_list": .array(list)]
    }

    /// `GET /data/v1/users/{id}/average-stats`.
    func averageStats(_ caller: Caller, userID: String, query: [(name: String, value: String)], timezoneHeader: String?) throws -> JSONValue {
        let zoneName = timezoneHeader.flatMap { $0.isEmpty ? nil : $0 } ?? query.first { $0.name == "timezone" }?.value
        let zone = try WireTime.zone(zoneName)
        guard let startText = query.first(where: { $0.name == "start_date" })?.value else { throw AsleepError.validation("start_date", "field required") }
        guard let endText = query.first(where: { $0.name == "end_date" })?.value else { throw AsleepError.validation("end_date", "field required") }
        guard let startDay = WireTime.parseDay(startText) else { throw AsleepError.validation("start_date", "must be a date YYYY-MM-DD") }
        guard let endDay = WireTime.parseDay(endText) else { throw AsleepError.validation("end_date", "must be a date YYYY-MM-DD") }
        guard endDay >= startDay else { throw AsleepError.invalidPeriod }
        guard endDay - startDay + 1 <= 100 else { throw AsleepError.periodTooLong }
        _ = try user(caller, userID, missing: .unknownUser(userID))
        try advance(project: caller.project, settings: caller.settings)
        var slept: [JSONValue] = []
        var neverSlept: [JSONValue] = []
        var stats: [[String: JSONValue]] = []
        var clocks: [String: [Int]] = [:]
        for session in try AsleepStore.sessions(connection, project: caller.project, user: userID) where session.state == "COMPLETE" {
            guard let day = WireTime.parseDay(WireTime.day(session.start, in: zone)), day >= startDay, day <= endDay else { continue }
            let result = try report(session, settings: caller.settings, zone: zone)
            let peculiarities = result["peculiarities"]?.arrayValue ?? []
            let times: [String: JSONValue] = [
                "id": .string(session.id), "start_time": .string(WireTime.format(session.start, in: zone)),
                "end_time": session.end.map { .string(WireTime.format($0, in: zone)) } ?? .null,
                "completed_time": session.completeTime.map { .string(WireTime.format($0, in: zone)) } ?? .null,
            ]
            if peculiarities.contains("NEVER_SLEPT") {
                neverSlept.append(.object(times))
            } else if case .object(let stat)? = result["stat"] {
                var entry = stat
                for (key, value) in times { entry[key] = value }
                entry["created_timezone"] = .string(session.createdTimezone)
                slept.append(.object(entry))
                stats.append(stat)
                clocks["start_time", default: []].append(WireTime.secondsOfDay(session.start, in: zone))
                if let end = session.end { clocks["end_time", default: []].append(WireTime.secondsOfDay(end, in: zone)) }
                for key in ["sleep_time", "wake_time"] {
                    if let text = stat[key]?.stringValue, let date = Timestamp.parse(text) {
                        clocks[key, default: []].append(WireTime.secondsOfDay(date, in: zone))
                    }
                }
            }
        }
        var average: JSONValue = .null
        if !stats.isEmpty {
            var members: [String: JSONValue] = [:]
            let skip: Set<String> = ["sleep_time", "wake_time", "breathing_pattern", "sleep_cycle_time"]
            for key in Set(stats.flatMap(\.keys)).subtracting(skip) {
                let numbers = stats.compactMap { $0[key]?.doubleValue }
                members[key] = numbers.isEmpty ? .null : .double(SleepAnalysis.ratio(numbers.reduce(0, +) / Double(numbers.count)))
            }
            for key in ["start_time", "end_time", "sleep_time", "wake_time"] {
                members[key] = clocks[key].map { .string(WireTime.clock(Self.averageClock($0))) } ?? .null
            }
            average = .object(members)
        }
        return [
            "period": ["timezone": .string(WireTime.name(zone)), "start_date": .string(startText), "end_date": .string(endText)],
            "peculiarities": caller.settings.breathingEnabled ? [] : ["NO_BREATHING_STABILITY"],
            "average_stats": average, "never_slept_sessions": .array(neverSlept), "slept_sessions": .array(slept),
        ]
    }

    /// Mean time of day for night-time clocks: times before noon count as after midnight.
    static func averageClock(_ seconds: [Int]) -> Int {
        guard !seconds.isEmpty else { return 0 }
        let shifted = seconds.map { $0 < 43_200 ? $0 + 86_400 : $0 }
        return Int((Double(shifted.reduce(0, +)) / Double(shifted.count)).rounded()) % 86_400
    }

    // MARK: Tokens

    /// `POST /customer/v1/app/token`.
    func issueToken(body: Data) throws -> JSONValue {
        guard let document = try? JSONValue.parse(body), let appID = document["app_id"]?.stringValue,
              let secret = document["app_secret"]?.stringValue,
              let app = try connection.queryOne("SELECT * FROM asleep_apps WHERE app_id = ?", appID),
              app.string("app_secret") == secret, app.string("state") != "revoked" else { throw AsleepError.unauthorized }
        return try tokens(project: app.string("project_id") ?? "", appID: appID)
    }

    /// `POST /customer/v1/app/refresh`.
    func refreshToken(body: Data) throws -> JSONValue {
        guard let document = try? JSONValue.parse(body), let token = document["refresh_token"]?.stringValue,
              let row = try connection.queryOne("SELECT * FROM asleep_tokens WHERE token = ? AND kind = 'refresh'", token),
              (row.double("expires_at") ?? 0) > now.timeIntervalSince1970 else { throw AsleepError.unauthorized }
        try connection.run("DELETE FROM asleep_tokens WHERE token = ?", token)
        return try tokens(project: row.string("project_id") ?? "", appID: row.string("app_id") ?? "")
    }

    private func tokens(project: ProjectID, appID: String) throws -> JSONValue {
        let settings = defaults.merged(with: try AsleepStore.settings(connection, project: project))
        let access = "at_" + draw(.alphanumeric(40))
        let refresh = "rt_" + draw(.alphanumeric(40))
        let nowSeconds = now.timeIntervalSince1970
        try connection.run("INSERT INTO asleep_tokens (token, project_id, kind, app_id, expires_at, created_at) VALUES (?, ?, 'access', ?, ?, ?)",
                           access, project, appID, nowSeconds + settings.accessTTL, nowSeconds)
        try connection.run("INSERT INTO asleep_tokens (token, project_id, kind, app_id, expires_at, created_at) VALUES (?, ?, 'refresh', ?, ?, ?)",
                           refresh, project, appID, nowSeconds + settings.refreshTTL, nowSeconds)
        return ["access_token": .string(access), "refresh_token": .string(refresh), "expires_in": .int(Int64(settings.accessTTL))]
    }

    // MARK: Webhooks

    /// Queues a webhook for the delivery worker and records it in the outbox.
    func enqueueWebhook(session: SessionRecord, event: String, url: String, data: JSONValue, settings: AsleepSettings) throws {
        let body: JSONValue = settings.webhookKeys == "callback"
            ? ["callback_event": .string(event), "callback_version": "V3", "callback_data": data]
            : ["event": .string(event), "version": "V3", "data": data]
        let outboxID = try Outbox.add(connection, project: session.project, platform: .asleep, kind: "webhook", recipient: url, subject: event,
                                      payload: body, status: "pending", now: now)
        try connection.run("""
            INSERT INTO asleep_webhooks (id, project_id, outbox_id, session_id, event, url, api_key, user_id, body, max_attempts, next_attempt_at, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, bindings: ["wh_" + draw(.lowerAlphanumeric(16)), session.project, outboxID, session.id, event, url, session.apiKey, session.userID,
                            String(decoding: body.encoded(), as: UTF8.self), settings.webhookAttempts, Date().timeIntervalSince1970,
                            now.timeIntervalSince1970])
    }

    // MARK: Ids

    private func uniqueID(table: String, column: String, _ make: () -> String) throws -> String {
        for _ in 0..<20 {
            let id = make()
            if try !AsleepStore.idExists(connection, table: table, column: column, id: id) { return id }
        }
        throw AsleepError(500, "could not allocate an id")
    }
}

extension SessionRecord {
    /// A fresh OPEN session.
    static func empty(id: String, project: ProjectID, customer: String, userID: String, start: Date, now: Date) -> SessionRecord {
        SessionRecord(id: id, project: project, customer: customer, userID: userID, state: "OPEN", start: start, end: nil, unexpectedEnd: nil,
                      closedAt: nil, completeTime: nil, hold: false, createdTimezone: "UTC", inferenceType: "MELSPECTROGRAM", service: "NOSERVICE",
                      callbackURL: nil, apiKey: nil, productID: nil, lastSeqNum: nil, overrides: [:], createdAt: now)
    }
}
