import Foundation
import Storage
import Synchronization
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Asleep reports")
struct AsleepReportsTests {
    static let userID = "G-20260101000000-ABCDEFGHIJKLMNOPQRST"

    func seed(_ fixture: AsleepFixture, _ body: AnyJSON) async throws -> String {
        var members = body.object ?? [:]
        members["userId"] = .string(Self.userID)
        return try #require(try await fixture.admin.seedSession(.object(members))["sessionId"]?.string)
    }

    /// The arithmetic identities the wire reference lists for `stat`.
    func checkIdentities(_ report: AsleepReport) throws {
        let stat = try #require(report.stat)
        let start = try #require(asleepDate(report.session.startTime))
        let end = try #require(asleepDate(report.session.endTime))
        let sleepTime = try #require(asleepDate(stat.sleepTime))
        let wakeTime = try #require(asleepDate(stat.wakeTime))
        let period = try #require(stat.timeInSleepPeriod), asleep = try #require(stat.timeInSleep), bed = try #require(stat.timeInBed)
        #expect(sleepTime == start.addingTimeInterval(Double(try #require(stat.sleepLatency))))
        #expect(Double(try #require(stat.wakeupLatency)) == end.timeIntervalSince(wakeTime))
        #expect(Double(period) == wakeTime.timeIntervalSince(sleepTime))
        #expect(period == asleep + (stat.timeInWake ?? -1))
        #expect(asleep == (stat.timeInLight ?? 0) + (stat.timeInDeep ?? 0) + (stat.timeInRem ?? 0))
        #expect(Double(bed) == end.timeIntervalSince(start))
        #expect(abs((stat.sleepEfficiency ?? -1) - Double(asleep) / Double(bed)) <= 0.0005)
        let sleepRatio = try #require(stat.sleepRatio)
        #expect(abs(sleepRatio - Double(asleep) / Double(period)) <= 0.0005)
        #expect(abs((stat.wakeRatio ?? -1) - (1 - sleepRatio)) < 1e-9)
        #expect((stat.timeInSnoring ?? 0) + (stat.timeInNoSnoring ?? 0) == period)
        #expect((50...100).contains(stat.sleepIndex ?? 0))
    }

    @Test("a report fetched again is the same bytes until an upload or the control plane changes the night")
    func reportFollowsEveryChange() async throws {
        try await AsleepFixture.with { fixture in
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            try await fixture.uploadChunks(config, session: session, 0...29)
            func fetch() async throws -> String {
                let response = try await fixture.asleep.raw("GET", "/data/v3/sessions/\(session)", config: config)
                #expect(response.status == 200)
                return response.text
            }
            let first = try await fetch()
            #expect(try await fetch() == first)
            #expect(try await fixture.asleep.report(config: config, sessionId: session).session.sleepStages?.count == 30)
            try await fixture.uploadChunks(config, session: session, 30...39)
            #expect(try await fixture.asleep.report(config: config, sessionId: session).session.sleepStages?.count == 40, "the SDK's uploads show")
            _ = try await fixture.admin.updateSession(session, ["sleepStages": .array(Array(repeating: 2, count: 40))])
            let deep = try await fixture.asleep.report(config: config, sessionId: session)
            #expect(deep.session.sleepStages == Array(repeating: 2, count: 40), "the control plane's override shows")
            let seoul = try await fixture.asleep.report(config: AsleepConfig(apiKey: fixture.apiKey, userId: config.userId, timezone: "Asia/Seoul"), sessionId: session)
            #expect(seoul.session.startTime.hasSuffix("+09:00") && seoul.session.sleepStages == deep.session.sleepStages, "each zone has its own answer")
        }
    }

    @Test("a kept report answers only the caller it was made for: another user, or the same user id under another customer's key, is refused")
    func keptReportKeepsItsChecks() async throws {
        try await AsleepFixture.with { fixture in
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            try await fixture.uploadChunks(config, session: session, 0...9)
            // Made first: any write in between would leave nothing kept to test.
            let otherUser = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let otherKey = try #require(try await fixture.admin.addKey()["apiKey"]?.string)
            let path = "/data/v3/sessions/\(session)"
            let first = try await fixture.asleep.raw("GET", path, config: config)
            #expect(first.status == 200)
            #expect(try await fixture.asleep.raw("GET", path, config: config).text == first.text, "kept, and answered again")
            let refused = try await fixture.asleep.raw("GET", path, config: otherUser)
            #expect(refused.status == 404 && refused.text.contains("session does not exist"), "\(refused.text)")
            let stranger = try await fixture.asleep.raw("GET", path, config: AsleepConfig(apiKey: otherKey, userId: config.userId))
            #expect(stranger.status == 404 && stranger.text.contains("user does not exist"), "\(stranger.text)")
            #expect(try await fixture.asleep.raw("GET", path, config: config).text == first.text, "the owner still gets it")
        }
    }

    @Test("complete reports are deterministic, in the requested timezone, and their stats are consistent")
    func reportShape() async throws {
        try await AsleepFixture.with { fixture in
            try await AsleepFixture.with { other in
                for target in [fixture, other] {
                    try await target.admin.seedUser(["userId": .string(Self.userID)])
                    _ = try await seed(
                        target,
                        [
                            "sessionId": "20260110140000_abcde", "state": "COMPLETE", "chunks": 600,
                            "startTime": "2026-01-10T14:00:00Z", "timezone": "Asia/Seoul",
                        ])
                }
                let config = AsleepConfig(apiKey: fixture.apiKey, userId: Self.userID, timezone: "Asia/Seoul")
                let report = try await fixture.asleep.report(config: config, sessionId: "20260110140000_abcde")
                #expect(report.timezone == "Asia/Seoul")
                #expect(report.session.startTime == "2026-01-10T23:00:00+09:00")
                #expect(report.session.endTime == "2026-01-11T04:00:00+09:00")
                #expect(report.session.createdTimezone == "Asia/Seoul")
                #expect(report.missingDataRatio == 0)
                #expect(report.peculiarities == ["NO_BREATHING_STABILITY"])
                #expect(report.session.sleepStages?.count == 600)
                #expect(report.session.snoringStages?.count == 600)
                #expect(report.session.sleepStages?.allSatisfy { (0...3).contains($0) } == true)
                #expect(report.stat?.sleepTime?.hasSuffix("+09:00") == true)
                #expect(report.stat?.timeInStableBreath == nil)
                try checkIdentities(report)

                let twin = try await other.asleep.report(
                    config: AsleepConfig(apiKey: other.apiKey, userId: Self.userID, timezone: "Asia/Seoul"),
                    sessionId: "20260110140000_abcde")
                #expect(twin == report)

                // UTC rendering of the same session uses +00:00, never Z.
                let utc = try await fixture.asleep.report(config: AsleepConfig(apiKey: fixture.apiKey, userId: Self.userID), sessionId: "20260110140000_abcde")
                #expect(utc.session.startTime == "2026-01-10T14:00:00+00:00")

                // Breathing on: breath stages and stats appear and the peculiarity goes.
                try await fixture.admin.updateSettings(["breathing": true])
                let breathing = try await fixture.asleep.report(config: config, sessionId: "20260110140000_abcde")
                #expect(breathing.peculiarities.isEmpty)
                #expect(breathing.session.breathStages?.count == 600)
                #expect((breathing.stat?.timeInStableBreath ?? 0) + (breathing.stat?.timeInUnstableBreath ?? 0) == breathing.stat?.timeInSleepPeriod)
            }
        }
    }

    @Test("short, defective and sleepless sessions get their peculiarities")
    func peculiarities() async throws {
        try await AsleepFixture.with { fixture in
            try await fixture.admin.seedUser(["userId": .string(Self.userID)])
            let config = AsleepConfig(apiKey: fixture.apiKey, userId: Self.userID)
            let short = try await seed(fixture, ["chunks": 5])
            let shortReport = try await fixture.asleep.report(config: config, sessionId: short)
            #expect(shortReport.peculiarities.contains("TOO_SHORT_FOR_ANALYSIS") && shortReport.stat == nil)

            let defective = try await seed(fixture, ["chunks": 100, "missingSeqNums": .array((0..<40).map { .int($0 * 2) })])
            let defectiveReport = try await fixture.asleep.report(config: config, sessionId: defective)
            #expect(defectiveReport.peculiarities.contains("TOO_MANY_DEFECTS_IN_SLEEP_STAGES") && defectiveReport.stat == nil)
            #expect(defectiveReport.missingDataRatio == 0.4)
            #expect(defectiveReport.session.sleepStages?[0] == -1)

            let awake = try await seed(fixture, ["chunks": 40, "sleepStages": .array(Array(repeating: .int(0), count: 40))])
            let awakeReport = try await fixture.asleep.report(config: config, sessionId: awake)
            #expect(awakeReport.peculiarities.contains("NEVER_SLEPT"))
            #expect(awakeReport.stat != nil && awakeReport.stat?.sleepTime == nil && awakeReport.stat?.timeInBed == 1200)

            let forced = try await seed(fixture, ["chunks": 40, "peculiarities": ["NO_REALTIME_POLLING"]])
            let forcedReport = try await fixture.asleep.report(config: config, sessionId: forced)
            #expect(forcedReport.peculiarities.contains("NO_REALTIME_POLLING") && forcedReport.stat == nil)
        }
    }

    @Test("the session list filters by local date, orders and pages; average stats cover complete sessions")
    func listAndAverages() async throws {
        try await AsleepFixture.with { fixture in
            try await fixture.admin.seedUser(["userId": .string(Self.userID)])
            let first = try await seed(fixture, ["chunks": 500, "startTime": "2026-01-10T14:00:00Z"])
            let second = try await seed(fixture, ["chunks": 500, "startTime": "2026-01-10T16:00:00Z"])
            let awake = try await seed(fixture, ["chunks": 40, "startTime": "2026-01-12T16:00:00Z", "sleepStages": .array(Array(repeating: .int(0), count: 40))])
            let seoul = AsleepConfig(apiKey: fixture.apiKey, userId: Self.userID, timezone: "Asia/Seoul")
            let utc = AsleepConfig(apiKey: fixture.apiKey, userId: Self.userID)

            #expect(try await fixture.asleep.reports(config: seoul, fromDate: "2026-01-11", toDate: "2026-01-11").sleepSessionList.map(\.sessionId) == [second])
            #expect(try await fixture.asleep.reports(config: utc, fromDate: "2026-01-10", toDate: "2026-01-10").sleepSessionList.map(\.sessionId) == [second, first])
            #expect(try await fixture.asleep.reports(config: utc).sleepSessionList.map(\.sessionId) == [awake, second, first])
            #expect(try await fixture.asleep.reports(config: utc, orderBy: "ASC", offset: 1, limit: 1).sleepSessionList.map(\.sessionId) == [second])
            #expect(try await fixture.asleep.reports(config: utc, offset: 1).sleepSessionList.map(\.sessionId) == [second, first])
            #expect(try await fixture.asleep.reports(config: utc, limit: 2).sleepSessionList.map(\.sessionId) == [awake, second])
            let entry = try #require(try await fixture.asleep.reports(config: seoul, orderBy: "ASC").sleepSessionList.first)
            #expect(entry.sessionStartTime == "2026-01-10T23:00:00+09:00" && entry.timeInBed == 15_000 && entry.lastReceivedSeqNum == 499)

            let average = try await fixture.asleep.averageReport(config: seoul, fromDate: "2026-01-10", toDate: "2026-01-31")
            #expect(average.period == AsleepPeriod(timezone: "Asia/Seoul", startDate: "2026-01-10", endDate: "2026-01-31"))
            #expect(average.sleptSessions.compactMap { $0["id"]?.string }.sorted() == [first, second].sorted())
            #expect(average.neverSleptSessions.compactMap { $0["id"]?.string } == [awake])
            #expect(average.averageStats?["time_in_bed"]?.double == 15_000)
            #expect(average.averageStats?["start_time"]?.string == "00:00:00")
            #expect(average.peculiarities == ["NO_BREATHING_STABILITY"])
            let empty = try await fixture.asleep.averageReport(config: seoul, fromDate: "2025-01-01", toDate: "2025-01-31")
            #expect(empty.averageStats == nil && empty.sleptSessions.isEmpty)
        }
    }

    @Test("the session list, average stats and a report answer while the writer is held when nothing is due; a due session is moved along first")
    func listsReadWithoutWriting() async throws {
        try await AsleepFixture.with { fixture in
            try await fixture.admin.seedUser(["userId": .string(Self.userID)])
            let night = try await seed(fixture, ["chunks": 500, "startTime": "2026-01-10T14:00:00Z"])
            let config = AsleepConfig(apiKey: fixture.apiKey, userId: Self.userID)
            func readAll() async throws {
                #expect(try await fixture.asleep.reports(config: config).sleepSessionList.map(\.sessionId) == [night])
                let average = try await fixture.asleep.averageReport(config: config, fromDate: "2026-01-01", toDate: "2026-01-31")
                #expect(average.sleptSessions.compactMap { $0["id"]?.string } == [night])
                #expect(try await fixture.asleep.report(config: config, sessionId: night).session.id == night)
            }
            if let file = fixture.server.server.emulator.services.database as? SQLiteDatabase {
                // The writer stays held until the reads have answered; had one of them queued for it,
                // the hold would only end at its deadline, and the test fails on that.
                let held = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
                let releasedByReads = Mutex<Bool?>(nil)
                let holder = Thread {
                    let answered = try? file.withWriterBlocking { _ -> Bool in
                        held.signal()
                        return release.wait(timeout: .now() + 15) == .success
                    }
                    releasedByReads.withLock { $0 = answered ?? false }
                }
                holder.start()
                held.wait()
                try await readAll()
                release.signal()
                while releasedByReads.withLock({ $0 }) == nil { try await Task.sleep(nanoseconds: 1_000_000) }
                #expect(releasedByReads.withLock { $0 } == true, "a read with nothing due waited for the writer")
            } else {
                try await readAll()
            }
            // A session still OPEN long past the longest night is due to close: the list moves it
            // along before it answers (or finds the worker already has).
            let stale = try await seed(fixture, ["state": "OPEN", "startTime": "2026-01-20T22:00:00Z"])
            let listed = try await fixture.asleep.reports(config: config).sleepSessionList
            #expect(listed.map(\.sessionId) == [stale, night])
            #expect(listed.first?.state != "OPEN", "\(listed.map(\.state))")
        }
    }
}
