import EmulatorCore
import Foundation

/// The data API: single report, session list and average stats.
extension AsleepService {
    // MARK: Reports

    /// The `result` of `GET /data/v3/sessions/{id}` with times in `zone`, as a tree (average stats
    /// read members of it; the SDK route prints `SessionReport` directly).
    func report(_ session: SessionRecord, settings: AsleepSettings, zone: TimeZone) throws -> JSONValue {
        try reportContent(session, settings: settings, zone: zone).json
    }

    /// What the report of `session` shows, with times in `zone`.
    func reportContent(_ session: SessionRecord, settings: AsleepSettings, zone: TimeZone) throws -> SessionReport {
        let received = try store.receivedChunks(session: session.id)
        let arrays = SleepAnalysis.assemble(sessionID: session.id, lastSeqNum: session.lastSeqNum, received: received, explicit: StageArrays.explicit(in: session.overrides))
        let total = (session.lastSeqNum ?? -1) + 1
        let missingRatio = total > 0 ? SleepAnalysis.ratio(Double(total - received.count(below: total)) / Double(total)) : 0
        var peculiarities: [String] = []
        var stat: SessionReport.Statistics?
        var shown = arrays
        if session.state != .complete {
            peculiarities.append("IN_PROGRESS")
            shown = received.count >= settings.realtime ? arrays.prefix(total / 10 * 10) : arrays.prefix(0)
        } else {
            let forced = Set((session.overrides["peculiarities"]?.arrayValue ?? []).compactMap(\.stringValue))
            if received.count < settings.tooShort { peculiarities.append("TOO_SHORT_FOR_ANALYSIS") }
            if total > 0, Double(received.count(below: total)) / Double(total) < 0.7 { peculiarities.append("TOO_MANY_DEFECTS_IN_SLEEP_STAGES") }
            for name in ["TOO_LONG_FOR_ANALYSIS", "NO_REALTIME_POLLING"] where forced.contains(name) { peculiarities.append(name) }
            let blocked = peculiarities.contains { ["TOO_SHORT_FOR_ANALYSIS", "TOO_MANY_DEFECTS_IN_SLEEP_STAGES", "NO_REALTIME_POLLING"].contains($0) }
            if !blocked {
                let computed = SleepAnalysis.stat(
                    arrays, start: session.start, end: session.end ?? session.start, snoring: settings.snoringEnabled,
                    breathing: settings.breathingEnabled)
                if computed.neverSlept { peculiarities.append("NEVER_SLEPT") }
                stat = SessionReport.Statistics(
                    computed: computed, sleepCycleTime: Self.sleepCycleTime(settings: settings, arrays: arrays),
                    overrides: session.overrides["stat"]?.objectValue ?? [:])
            }
            if !settings.breathingEnabled { peculiarities.append("NO_BREATHING_STABILITY") }
            for name in forced.sorted() where !peculiarities.contains(name) { peculiarities.append(name) }
        }
        return SessionReport(
            session: session, zone: zone, stages: shown, snoring: settings.snoringEnabled, breathing: settings.breathingEnabled,
            peculiarities: peculiarities, missingDataRatio: missingRatio, stat: stat)
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
    func getReport(_ caller: Caller, presented: Presented, sessionID: String) throws -> SessionReport {
        let (session, zone) = try reportSession(caller, presented: presented, sessionID: sessionID)
        return try reportContent(session, settings: caller.settings, zone: zone)
    }

    /// The checks of `GET /data/v3/sessions/{id}` (zone, user, the session and who may read it),
    /// and what its report is made of.
    func reportSession(_ caller: Caller, presented: Presented, sessionID: String) throws -> (SessionRecord, TimeZone) {
        let zone = try WireTime.zone(presented.timezone)
        let userID = try userIDHeader(presented)
        _ = try user(caller, userID)
        return (try session(caller, presented: presented, id: sessionID, missing: .sessionDoesNotExist), zone)
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
            case "limit":
                guard let number = Int(value), (0...100).contains(number) else { throw AsleepError.validation("limit", "must be an integer between 0 and 100") }; limit = number
            default: continue
            }
        }
        try advance(project: caller.project, settings: caller.settings)
        let window = WireTime.startWindow(firstDay: from, lastDay: to)
        let page: [SessionRecord]
        if from == nil, to == nil {
            // Every night is listed, so the page can be cut in SQL.
            page = try store.sessions(project: caller.project, user: userID, startingIn: window, descending: descending, page: (offset, limit))
        } else {
            // The window has a day of slack either side; each night's local day decides.
            let sessions = try store.sessions(project: caller.project, user: userID, startingIn: window, descending: descending).filter { session in
                let day = WireTime.dayNumber(session.start, in: zone)
                return (from.map { day >= $0 } ?? true) && (to.map { day <= $0 } ?? true)
            }
            page = Array(sessions.dropFirst(offset).prefix(limit))
        }
        let list = page.map { AsleepWire.sleepSession($0, zone: zone) }
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
        // "At most 100 days" between the two dates: 2026-01-01 to 2026-04-11 is exactly 100 days.
        guard endDay - startDay <= 100 else { throw AsleepError.periodTooLong }
        _ = try user(caller, userID, missing: .unknownUser(userID))
        try advance(project: caller.project, settings: caller.settings)
        var slept: [JSONValue] = []
        var neverSlept: [JSONValue] = []
        var stats: [[String: JSONValue]] = []
        var clocks: [String: [Int]] = [:]
        let window = WireTime.startWindow(firstDay: startDay, lastDay: endDay)
        for session in try store.sessions(project: caller.project, user: userID, startingIn: window) where session.state == .complete {
            let day = WireTime.dayNumber(session.start, in: zone)
            guard day >= startDay, day <= endDay else { continue }
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
        return Int((Double(shifted.reduce(0, +)) / Double(shifted.count)).rounded()) % 86_400 // checked: a mean of seconds within a day
    }
}
