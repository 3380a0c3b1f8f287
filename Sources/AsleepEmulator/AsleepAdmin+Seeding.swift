import EmulatorCore
import Foundation
import SQLiteStore

/// Seeding users and sessions in any state (control plane and demo fixtures).
extension AsleepAdmin {
    // MARK: Seeding

    /// The customer of `apiKey`, or of the project's own API key.
    static func customer(_ connection: SQLiteConnection, project: ProjectID, apiKey: String?) throws -> (customer: String, apiKey: String?) {
        if let apiKey {
            guard let row = try connection.queryOne("SELECT customer FROM asleep_api_keys WHERE api_key = ? AND project_id = ?", apiKey, project) else {
                throw AdminError.badRequest("Unknown `apiKey` for this project.")
            }
            return (row.string("customer") ?? "", apiKey)
        }
        let main = try connection.scalar("SELECT value FROM project_credentials WHERE project_id = ? AND platform = 'asleep' AND name = 'apiKey'", project).string
        if let main, let row = try connection.queryOne("SELECT customer FROM asleep_api_keys WHERE api_key = ?", main) {
            return (row.string("customer") ?? "", main)
        }
        guard let row = try connection.queryOne("SELECT api_key, customer FROM asleep_api_keys WHERE project_id = ? ORDER BY created_at LIMIT 1", project) else {
            throw AdminError.badRequest("The project has no Asleep API key.")
        }
        return (row.string("customer") ?? "", row.string("api_key"))
    }

    func seedUser(_ body: UserBody, project: ProjectID, service: AsleepService, connection: SQLiteConnection, year: Int) throws -> JSONValue {
        let customer: String
        if let given = body.customer { customer = given } else { customer = try Self.customer(connection, project: project, apiKey: body.apiKey).customer }
        var metadata: JSONValue = .null
        if let given = body.metadata, !given.isNull {
            do {
                metadata = try AsleepService.metadata(fromBody: JSONValue.object(["metadata": given]).encoded(), required: false, year: year)
            } catch {
                throw AdminError.badRequest("Invalid metadata: \(error.detail)")
            }
        }
        let id = body.userId ?? "G-" + WireTime.compactUTC(service.now) + "-" + service.draw(.alphanumeric(20))
        guard !id.isEmpty else { throw AdminError.badRequest("`userId` must not be empty.") }
        guard try AsleepStore.user(connection, project: project, customer: nil, id: id) == nil,
              try !AsleepStore.idExists(connection, table: "asleep_users", column: "user_id", id: id) else {
            throw AdminError(status: 409, code: "conflict", message: "User `\(id)` already exists.")
        }
        try AsleepStore.insertUser(connection, id: id, project: project, customer: customer, metadata: metadata, now: service.now)
        return Self.renderUser(try AsleepStore.user(connection, project: project, customer: nil, id: id)!)
    }

    func seedSession(_ body: SessionBody, project: ProjectID, service: AsleepService, connection: SQLiteConnection, now: Date) throws -> JSONValue {
        guard let user = try AsleepStore.user(connection, project: project, customer: nil, id: body.userId) else {
            throw AdminError.badRequest("Unknown `userId` `\(body.userId)`; seed the user first.")
        }
        let state = body.state ?? "COMPLETE"
        guard ["OPEN", "CLOSED", "COMPLETE"].contains(state) else { throw AdminError.badRequest("`state` must be OPEN, CLOSED or COMPLETE.") }
        let chunks = body.chunks ?? 0
        guard (0...2880 * 2).contains(chunks) else { throw AdminError.badRequest("`chunks` must be 0–5760.") }
        func time(_ text: String?, _ name: String) throws -> Date? {
            guard let text else { return nil }
            guard let date = WireTime.parseInstant(text) else { throw AdminError.badRequest("`\(name)` must be an ISO 8601 date-time.") }
            return date
        }
        let whole = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        var start = try time(body.startTime, "startTime") ?? whole.addingTimeInterval(-Double(max(chunks, 1) * SleepAnalysis.epochSeconds) - (state == "OPEN" ? 0 : 60))
        start = Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down))
        var end = try time(body.endTime, "endTime")
        if state != "OPEN", end == nil { end = start.addingTimeInterval(Double(chunks * SleepAnalysis.epochSeconds)) }
        if state == "OPEN", end != nil { throw AdminError.badRequest("An OPEN session has no `endTime`.") }
        if let end, end < start { throw AdminError.badRequest("`endTime` is before `startTime`.") }
        let zone = body.timezone ?? "UTC"
        guard WireTime.isValidZone(zone) else { throw AdminError.badRequest("`timezone` must be an IANA zone name.") }
        let inference = body.inferenceType ?? "MELSPECTROGRAM"
        guard ["MELSPECTROGRAM", "AUDIO"].contains(inference) else { throw AdminError.badRequest("`inferenceType` must be MELSPECTROGRAM or AUDIO.") }
        if let url = body.callbackUrl, !AsleepService.isValidCallbackURL(url) { throw AdminError.badRequest("`callbackUrl` must be an absolute http(s) URL.") }
        let known: Set<String> = ["IN_PROGRESS", "NEVER_SLEPT", "TOO_SHORT_FOR_ANALYSIS", "TOO_LONG_FOR_ANALYSIS",
                                  "TOO_MANY_DEFECTS_IN_SLEEP_STAGES", "NO_BREATHING_STABILITY", "NO_REALTIME_POLLING"]
        for name in body.peculiarities ?? [] where !known.contains(name) { throw AdminError.badRequest("Unknown peculiarity `\(name)`.") }
        if let stat = body.stat, stat.objectValue == nil { throw AdminError.badRequest("`stat` must be an object of stat overrides.") }
        if state == "OPEN", try !AsleepStore.openSessions(connection, project: project, user: user.id).isEmpty {
            throw AdminError(status: 409, code: "conflict", message: "The user already has an OPEN session.")
        }
        let id = body.sessionId ?? WireTime.compactUTC(start) + "_" + service.draw(.lowerAlphanumeric(5))
        guard !id.isEmpty, try !AsleepStore.idExists(connection, table: "asleep_sessions", column: "session_id", id: id) else {
            throw AdminError(status: 409, code: "conflict", message: "Session `\(id)` already exists.")
        }
        var session = SessionRecord.empty(id: id, project: project, customer: user.customer, userID: user.id, start: start, now: now)
        session.state = state
        session.end = end
        session.unexpectedEnd = body.unexpected == true ? end : nil
        session.closedAt = state == "OPEN" ? nil : (state == "CLOSED" ? now : end)
        let completeTime = try time(body.completeTime, "completeTime")
        session.completeTime = state == "COMPLETE" ? (completeTime ?? end) : nil
        session.hold = body.hold ?? false
        session.createdTimezone = zone
        session.service = body.service ?? "NOSERVICE"
        session.inferenceType = inference
        session.callbackURL = body.callbackUrl
        session.apiKey = try Self.customer(connection, project: project, apiKey: nil).apiKey
        let missing = Set(body.missingSeqNums ?? [])
        session.lastSeqNum = chunks > 0 ? chunks - 1 : nil
        Self.applyOverrides(&session, sleep: body.sleepStages, snoring: body.snoringStages, breath: body.breathStages, peculiarities: body.peculiarities,
                            stat: body.stat, snoringDetected: body.snoringDetected, breathDetected: body.breathDetected)
        try AsleepStore.insertSession(connection, session)
        for seq in 0..<chunks where !missing.contains(seq) {
            _ = try AsleepStore.insertChunk(connection, project: project, session: id, seqNum: seq, size: 0, sha256: "seeded", now: now)
        }
        return Self.renderSession(session, received: try AsleepStore.receivedChunks(connection, session: id), now: now)
    }

    static func applyOverrides(_ session: inout SessionRecord, sleep: [Int]?, snoring: [Int]?, breath: [Int]?, peculiarities: [String]?,
                               stat: JSONValue?, snoringDetected: [Int]?, breathDetected: [Int]?) {
        var overrides = session.overrides.objectValue ?? [:]
        if let sleep { overrides["sleepStages"] = AsleepService.ints(sleep) }
        if let snoring { overrides["snoringStages"] = AsleepService.ints(snoring) }
        if let breath { overrides["breathStages"] = AsleepService.ints(breath) }
        if let peculiarities { overrides["peculiarities"] = .array(peculiarities.map(JSONValue.string)) }
        if let stat { overrides["stat"] = stat }
        if let snoringDetected { overrides["snoringDetected"] = AsleepService.ints(snoringDetected) }
        if let breathDetected { overrides["breathDetected"] = AsleepService.ints(breathDetected) }
        session.overrides = .object(overrides)
    }

    /// Loads `Config/fixtures/asleep.json`.
    func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: SQLiteConnection, now: Date) throws {
        if let settings = fixtures["settings"], !settings.isNull {
            try AsleepStore.saveSettings(connection, project: project, try settings.decode(AsleepSettings.self))
        }
        var generator = IDGenerator(seed: 20)
        let service = AsleepService(connection: connection, now: now, defaults: defaults) { draw in
            switch draw {
            case .alphanumeric(let count): return generator.alphanumeric(count)
            case .lowerAlphanumeric(let count): return generator.lowerAlphanumeric(count)
            case .uuid: return generator.uuid()
            }
        }
        for user in fixtures["users"]?.arrayValue ?? [] {
            _ = try seedUser(try user.decode(UserBody.self), project: project, service: service, connection: connection, year: WireTime.year(now))
        }
        for session in fixtures["sessions"]?.arrayValue ?? [] {
            _ = try seedSession(try session.decode(SessionBody.self), project: project, service: service, connection: connection, now: now)
        }
    }
}
