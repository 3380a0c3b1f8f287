import EmulatorCore
import Foundation
import Testing

@testable import AsleepEmulator

@Suite("Session report bytes are the JSONValue tree's bytes")
struct SessionReportTests {
    static let start = Date(timeIntervalSince1970: 1_764_540_000) // 2025-11-30T22:00:00Z

    static func session(
        state: SessionState, chunks: Int?, end: Date?, unexpected: Date?, timezone: String, overrides: JSONValue,
        id: String = "session-1"
    ) -> SessionRecord {
        SessionRecord(
            id: id, project: "p1", customer: "c", userID: "u", state: state, start: start, end: end, unexpectedEnd: unexpected,
            closedAt: end, completeTime: state == .complete ? end : nil, hold: false, createdTimezone: timezone,
            inferenceType: "MELSPECTROGRAM", service: "app", callbackURL: nil, apiKey: nil, productID: nil, lastSeqNum: chunks.map { $0 - 1 },
            overrides: overrides, createdAt: start)
    }

    /// A report as the service assembles it, for one session and one set of switches.
    static func report(
        _ session: SessionRecord, received: ReceivedChunks, zone: TimeZone, snoring: Bool, breathing: Bool, peculiarities: [String],
        withStat: Bool, cycleTime: JSONValue
    ) -> SessionReport {
        let arrays = SleepAnalysis.assemble(
            sessionID: session.id, lastSeqNum: session.lastSeqNum, received: received,
            explicit: StageArrays.explicit(in: session.overrides))
        let stat =
            withStat
            ? SessionReport.Statistics(
                computed: SleepAnalysis.stat(arrays, start: session.start, end: session.end ?? session.start, snoring: snoring, breathing: breathing),
                sleepCycleTime: cycleTime, overrides: session.overrides["stat"]?.objectValue ?? [:]) : nil
        let total = (session.lastSeqNum ?? -1) + 1
        let missing = total > 0 ? SleepAnalysis.ratio(Double(total - received.count(below: total)) / Double(total)) : 0
        return SessionReport(
            session: session, zone: zone, stages: arrays, snoring: snoring, breathing: breathing, peculiarities: peculiarities,
            missingDataRatio: missing, stat: stat)
    }

    static func expectSameBytes(_ report: SessionReport, _ label: String) {
        let tree = AsleepRoutes.envelope(report.json, detail: "OK").body
        let direct = report.envelope(detail: "OK")
        #expect(direct == tree, "\(label): \(String(decoding: direct.prefix(600), as: UTF8.self))")
    }

    @Test("every state, zone, switch and override combination prints the same bytes")
    func combinations() throws {
        let zones = try ["UTC", "Europe/Berlin", "Asia/Kolkata", "America/St_Johns", "Pacific/Chatham"].map { try #require(TimeZone(identifier: $0)) }
        let eight = Self.start.addingTimeInterval(8 * 3600)
        let overrides: [JSONValue] = [
            .null, [:],
            ["stat": ["sleep_index": 99, "extra_metric": 0.25, "sleep_ratio": .null, "wake_ratio": 1.0, "breathing_pattern": "é \"quoted\""]],
            ["stat": [:], "peculiarities": ["NO_REALTIME_POLLING"], "sleepStages": [0, 1, 2, 3, 3, 2]],
            ["sleepStages": [3, 3, 3], "snoringStages": [1], "breathStages": [1, 1]],
        ]
        var cases = 0
        for zone in zones {
            for (state, end, unexpected) in [
                (SessionState.open, nil, nil), (.closed, eight, nil), (.complete, eight, Self.start.addingTimeInterval(3600)),
                (.complete, Self.start.addingTimeInterval(0.5), nil),
            ] as [(SessionState, Date?, Date?)] {
                for chunks in [nil, 0, 1, 7, 960] as [Int?] {
                    for override in overrides {
                        let session = Self.session(state: state, chunks: chunks, end: end, unexpected: unexpected, timezone: "Asia/Seoul ✓", overrides: override)
                        let all = Set(0..<(chunks ?? 0))
                        let holes = all.filter { $0 % 3 != 1 }
                        for (received, switches) in [(all, (true, true)), (holes, (false, true)), (all, (true, false)), ([], (false, false))] {
                            let cycle: JSONValue = chunks == 960 ? [1800, 5400] : (switches.0 ? ["1800"] : [])
                            for (peculiarities, stat) in [([], true), (["IN_PROGRESS"], false), (["NEVER_SLEPT", "NO_BREATHING_STABILITY"], true)] {
                                Self.expectSameBytes(
                                    Self.report(
                                        session, received: ReceivedChunks(received), zone: zone, snoring: switches.0, breathing: switches.1,
                                        peculiarities: peculiarities, withStat: stat, cycleTime: cycle),
                                    "\(zone.identifier) \(state) \(String(describing: chunks)) \(override)")
                                cases += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(cases == 5 * 4 * 5 * 5 * 4 * 3)
    }

    @Test("a hand-made statistics block with every member absent, then every member present with awkward numbers")
    func statistics() throws {
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let session = Self.session(state: .complete, chunks: 3, end: Self.start.addingTimeInterval(90), unexpected: nil, timezone: "UTC", overrides: .null)
        var report = Self.report(session, received: [0, 1, 2], zone: zone, snoring: true, breathing: true, peculiarities: [], withStat: true, cycleTime: [])
        report.stat?.computed = SleepAnalysis.Stat()
        Self.expectSameBytes(report, "empty stat")
        var full = SleepAnalysis.Stat()
        let doubles: [Double] = [0.1, 1e-7, 0, 1, 180, 1e16, -0.5, 2.0 / 3, 0.999_5, 1e-300, 123_456_789.125, 5, 0.25, 3]
        var next = 0
        func double() -> Double { next += 1; return doubles[next % doubles.count] }
        func int() -> Int { next += 1; return [0, -1, 1_000_000, Int(Int32.max), 7, Int.max, Int.min][next % 7] }
        full.timeInBed = int(); full.sleepTime = Self.start; full.wakeTime = Self.start.addingTimeInterval(28_799.9)
        full.sleepLatency = int(); full.wakeupLatency = int(); full.lightLatency = int(); full.deepLatency = int(); full.remLatency = int()
        full.timeInSleepPeriod = int(); full.timeInSleep = int(); full.timeInWake = int(); full.timeInLight = int(); full.timeInDeep = int()
        full.timeInRem = int(); full.timeInStableBreath = int(); full.timeInUnstableBreath = int(); full.timeInSnoring = int(); full.timeInNoSnoring = int()
        full.sleepEfficiency = double(); full.sleepRatio = double(); full.wakeRatio = double(); full.lightRatio = double(); full.deepRatio = double()
        full.remRatio = double(); full.stableBreathRatio = double(); full.unstableBreathRatio = double(); full.snoringRatio = double()
        full.noSnoringRatio = double(); full.breathingIndex = double(); full.breathingPattern = "line\nbreak"
        full.wasoCount = int(); full.longestWaso = int(); full.sleepCycleCount = int(); full.sleepCycle = int(); full.snoringCount = int()
        full.unstableBreathCount = int(); full.sleepIndex = int()
        report.stat?.computed = full
        Self.expectSameBytes(report, "full stat")
        report.missingDataRatio = 1e-7
        report.stat?.sleepCycleTime = ["a\u{1}", 2.5, .null, [:]]
        Self.expectSameBytes(report, "odd cycle time")
        let text = String(decoding: report.envelope(detail: "OK"), as: UTF8.self)
        #expect(text.hasPrefix(#"{"detail":"OK","result":{"missing_data_ratio":1e-07,"#))
    }
}
