import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Asleep project state")
struct AsleepProjectStateTests {
    @Test("the demo project serves the fixture sessions with its fixed credentials")
    func demo() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let demo = try await server.client.admin.project("demo").get()
            let key = demo.credential("asleep", "apiKey")
            #expect(key == "demo-asleep-api-key-0000000000000000000000")
            #expect(demo.credential("asleep", "appId") == "app_demo000000000000")
            let config = AsleepConfig(apiKey: key, userId: "G-20260101000000-DemoUser000000000001", timezone: "Asia/Seoul")
            let list = try await server.client.asleep.reports(config: config, orderBy: "ASC")
            #expect(list.sleepSessionList.map(\.sessionId) == ["20260105130000_demo1", "20260106130000_demo2"])
            let report = try await server.client.asleep.report(config: config, sessionId: "20260105130000_demo1")
            #expect(report.stat?.timeInBed == 27_000)
            #expect(report.session.startTime == "2026-01-05T22:00:00+09:00")
            #expect(try await server.client.asleep.report(config: config, sessionId: "20260106130000_demo2").peculiarities.contains("TOO_SHORT_FOR_ANALYSIS"))
            #expect(try await server.client.asleep.user(config: config).metadata?.height == 165.5)
        }
    }

    @Test("reset clears users and sessions but keeps the key working; snapshots restore them")
    func resetAndSnapshots() async throws {
        try await AsleepFixture.with { fixture in
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            _ = try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 0, chunk: AsleepClient.melChunk())
            _ = try await fixture.projectAdmin.saveSnapshot("tracking")

            _ = try await fixture.projectAdmin.reset()
            await #expect { _ = try await fixture.asleep.user(config: config) } throws: { ($0 as? UnderstudyClientError)?.asleepStatus == 404 }
            let fresh = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            #expect(fresh.userId != config.userId)

            try await fixture.projectAdmin.restoreSnapshot("tracking")
            #expect(try await fixture.asleep.user(config: config).lastSessionInfo?.sessionId == session)
            #expect(try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 1, chunk: AsleepClient.melChunk()).seqNum == 1)
            await #expect { _ = try await fixture.asleep.user(config: fresh) } throws: { ($0 as? UnderstudyClientError)?.asleepStatus == 404 }
        }
    }
}
