import EmulatorCore
import Foundation
import Storage

/// Seeding users and sessions in any state (control plane and demo fixtures).
extension AsleepAdmin {
    // MARK: Seeding

    /// The customer of `apiKey`, or of the project's own API key.
    static func customer(_ store: AsleepStore, project: ProjectID, apiKey: String?) throws -> (customer: String, apiKey: String?) {
        if let apiKey {
            // A well-formed body naming a key that is not there: the key is what is missing (404), as for a path.
            guard let key = try store.apiKey(apiKey, project: project) else {
                throw AdminError(status: 404, code: "not_found", message: "Unknown `apiKey` for this project.")
            }
            return (key.customer, apiKey)
        }
        if let main = try store.provisionedAPIKey(project: project), let key = try store.apiKey(main) {
            return (key.customer, main)
        }
        guard let key = try store.firstAPIKey(project: project) else { throw AdminError.badRequest("The project has no Asleep API key.") }
        return (key.customer, key.apiKey)
    }

    /// Seeds a user (`POST …/users` and fixtures).
    func seedUser(_ body: UserBody, project: ProjectID, service: AsleepService, year: Int) throws -> JSONValue {
        let store = service.store
        let customer: String
        if let given = body.customer { customer = given } else { customer = try Self.customer(store, project: project, apiKey: body.apiKey).customer }
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
        guard try store.user(project: project, customer: nil, id: id) == nil, try !store.userIDExists(id) else {
            throw AdminError(status: 409, code: "conflict", message: "User `\(id)` already exists.")
        }
        try store.insertUser(id: id, project: project, customer: customer, metadata: metadata, now: service.now)
        guard let user = try store.user(project: project, customer: nil, id: id) else { throw AdminError.notFound("User") } // just written
        return Self.render(user)
    }

    /// Seeds a session in any state (`POST …/sessions` and fixtures).
    func seedSession(_ body: SessionBody, project: ProjectID, service: AsleepService, now: Date) throws -> JSONValue {
        let store = service.store
        guard let user = try store.user(project: project, customer: nil, id: body.userId) else {
            throw AdminError(status: 404, code: "not_found", message: "Unknown `userId` `\(body.userId)`; seed the user first.")
        }
        guard let state = SessionState(rawValue: body.state ?? "COMPLETE") else { throw AdminError.badRequest("`state` must be OPEN, CLOSED or COMPLETE.") }
        let chunks = body.chunks ?? 0
        guard (0...2880 * 2).contains(chunks) else { throw AdminError.badRequest("`chunks` must be 0–5760.") }
        func time(_ text: String?, _ name: String) throws -> Date? {
            guard let text else { return nil }
            guard let date = WireTime.parseInstant(text) else { throw AdminError.badRequest("`\(name)` must be an ISO 8601 date-time.") }
            return date
        }
        let whole = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let givenEnd = try time(body.endTime, "endTime")
        let length = Double(max(chunks, 1) * SleepAnalysis.epochSeconds)
        // Without a start, a session that ended at `endTime` started its chunks before it; else it ends a minute ago.
        var start =
            try time(body.startTime, "startTime")
            ?? givenEnd.map { $0.addingTimeInterval(-length) }
            ?? whole.addingTimeInterval(-length - (state == .open ? 0 : 60))
        start = Date(timeIntervalSince1970: start.timeIntervalSince1970.rounded(.down))
        var end = givenEnd
        if state != .open, end == nil { end = start.addingTimeInterval(Double(chunks * SleepAnalysis.epochSeconds)) }
        if state == .open, end != nil { throw AdminError.badRequest("An OPEN session has no `endTime`.") }
        if let end, end < start { throw AdminError.badRequest("`endTime` is before `startTime`.") }
        let zone = body.timezone ?? "UTC"
        guard WireTime.isValidZone(zone) else { throw AdminError.badRequest("`timezone` must be an IANA zone name.") }
        let inference = body.inferenceType ?? "MELSPECTROGRAM"
        guard ["MELSPECTROGRAM", "AUDIO"].contains(inference) else { throw AdminError.badRequest("`inferenceType` must be MELSPECTROGRAM or AUDIO.") }
        if let url = body.callbackUrl, !AsleepService.isValidCallbackURL(url) { throw AdminError.badRequest("`callbackUrl` must be an absolute http(s) URL.") }
        let known: Set<String> = [
            "IN_PROGRESS", "NEVER_SLEPT", "TOO_SHORT_FOR_ANALYSIS", "TOO_LONG_FOR_ANALYSIS",
            "TOO_MANY_DEFECTS_IN_SLEEP_STAGES", "NO_BREATHING_STABILITY", "NO_REALTIME_POLLING",
        ]
        for name in body.peculiarities ?? [] where !known.contains(name) { throw AdminError.badRequest("Unknown peculiarity `\(name)`.") }
        if let stat = body.stat, stat.objectValue == nil { throw AdminError.badRequest("`stat` must be an object of stat overrides.") }
        if state == .open, try !store.openSessions(project: project, user: user.id).isEmpty {
            throw AdminError(status: 409, code: "conflict", message: "The user already has an OPEN session.")
        }
        let id = body.sessionId ?? WireTime.compactUTC(start) + "_" + service.draw(.lowerAlphanumeric(5))
        guard !id.isEmpty, try !store.sessionIDExists(id) else {
            throw AdminError(status: 409, code: "conflict", message: "Session `\(id)` already exists.")
        }
        var session = SessionRecord.empty(id: id, project: project, customer: user.customer, userID: user.id, start: start, now: now)
        session.state = state
        session.end = end
        session.unexpectedEnd = body.unexpected == true ? end : nil
        session.closedAt = state == .open ? nil : (state == .closed ? now : end)
        let completeTime = try time(body.completeTime, "completeTime")
        session.completeTime = state == .complete ? (completeTime ?? end) : nil
        session.hold = body.hold ?? false
        session.createdTimezone = zone
        session.service = body.service ?? "NOSERVICE"
        session.inferenceType = inference
        session.callbackURL = body.callbackUrl
        session.apiKey = try Self.customer(store, project: project, apiKey: nil).apiKey
        let missing = Set(body.missingSeqNums ?? [])
        session.lastSeqNum = chunks > 0 ? chunks - 1 : nil
        Self.applyOverrides(
            &session, sleep: body.sleepStages, snoring: body.snoringStages, breath: body.breathStages, peculiarities: body.peculiarities,
            stat: body.stat, snoringDetected: body.snoringDetected, breathDetected: body.breathDetected)
        try store.insertSession(session)
        for seq in 0..<chunks where !missing.contains(seq) {
            _ = try store.insertChunk(project: project, session: id, seqNum: seq, size: 0, sha256: ChunkRecord.seededHash, now: now)
        }
        return Self.render(session, received: try store.receivedChunks(session: id), now: now)
    }

    static func applyOverrides(
        _ session: inout SessionRecord, sleep: [Int]?, snoring: [Int]?, breath: [Int]?, peculiarities: [String]?,
        stat: JSONValue?, snoringDetected: [Int]?, breathDetected: [Int]?
    ) {
        var overrides = session.overrides.objectValue ?? [:]
        if let sleep { overrides["sleepStages"] = StageArrays.json(sleep) }
        if let snoring { overrides["snoringStages"] = StageArrays.json(snoring) }
        if let breath { overrides["breathStages"] = StageArrays.json(breath) }
        if let peculiarities { overrides["peculiarities"] = .array(peculiarities.map(JSONValue.string)) }
        if let stat { overrides["stat"] = stat }
        if let snoringDetected { overrides["snoringDetected"] = StageArrays.json(snoringDetected) }
        if let breathDetected { overrides["breathDetected"] = StageArrays.json(breathDetected) }
        session.overrides = .object(overrides)
    }

    /// Loads `Config/fixtures/asleep.json`.
    func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: any StoreConnection, now: Date) throws {
        let store = AsleepStore(connection: connection)
        if let settings = fixtures["settings"], !settings.isNull {
            // Read as settings first, so a fixture with a wrong field fails loudly instead of being stored.
            try store.saveSettingsDocument(project: project, try JSONValue.from(try settings.decode(AsleepSettings.self)))
        }
        var generator = IDGenerator(seed: 20)
        let service = AsleepService(store: store, now: now, realNow: Date(), configuration: configuration) { generator.draw($0) }
        for user in fixtures["users"]?.arrayValue ?? [] {
            _ = try seedUser(try user.decode(UserBody.self), project: project, service: service, year: WireTime.year(now))
        }
        for session in fixtures["sessions"]?.arrayValue ?? [] {
            _ = try seedSession(try session.decode(SessionBody.self), project: project, service: service, now: now)
        }
    }
}
