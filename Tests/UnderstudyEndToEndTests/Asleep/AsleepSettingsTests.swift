import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Asleep settings")
struct AsleepSettingsTests {
    @Test("a held session stays CLOSED past the SDK's 30 s poll; completing it releases it")
    func hold() async throws {
        try await AsleepFixture.with { fixture in
            _ = try await fixture.projectAdmin.freezeClock()
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            try await fixture.admin.updateSession(session, ["hold": true])
            _ = try await fixture.asleep.stopTracking(config: config, sessionId: session)
            _ = try await fixture.projectAdmin.advanceClock(by: 60)
            #expect(try await fixture.asleep.report(config: config, sessionId: session).session.state == "CLOSED")
            try await fixture.admin.completeSession(session)
            let report = try await fixture.asleep.report(config: config, sessionId: session)
            #expect(report.session.state == "COMPLETE" && report.peculiarities.contains("TOO_SHORT_FOR_ANALYSIS"))
            #expect(try await fixture.asleep.user(config: config).lastSessionInfo?.completeTime != nil)
        }
    }

    @Test("completion delay, terminateOnJoin, strict mode and the 403 close option follow the settings")
    func options() async throws {
        try await AsleepFixture.with { fixture in
            _ = try await fixture.projectAdmin.freezeClock()
            let settings = try await fixture.admin.updateSettings(["completionDelaySeconds": 10, "terminateOnJoin": true, "closeEndedStatus": 403])
            #expect(settings["completionDelaySeconds"]?.double == 10 && settings["maxSessionSeconds"]?.double == 86_400)
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            // Joining again (GET user) closes the OPEN session.
            _ = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: config.userId)
            #expect(try await fixture.admin.session(session)["state"]?.string == "CLOSED")
            await #expect { _ = try await fixture.asleep.stopTracking(config: config, sessionId: session) } throws: {
                let error = $0 as? UnderstudyClientError
                return error?.asleepStatus == 403 && error?.asleepDetail == "Sleep session has already been closed"
            }
            _ = try await fixture.projectAdmin.advanceClock(by: 9)
            #expect(try await fixture.asleep.report(config: config, sessionId: session).session.state == "CLOSED")
            _ = try await fixture.projectAdmin.advanceClock(by: 1)
            #expect(try await fixture.asleep.report(config: config, sessionId: session).session.state == "COMPLETE")

            try await fixture.admin.updateSettings(["strict": true, "terminateOnJoin": false])
            let next = try await fixture.asleep.startTracking(config: config)
            let noAgent = try await fixture.asleep.raw("GET", "/ai/v1/users/\(config.userId)", apiKey: fixture.apiKey, headers: ["User-Agent": ""])
            #expect(noAgent.status == 401 && noAgent.text.contains("user_agent is empty"))
            await #expect { _ = try await fixture.asleep.uploadChunk(config: config, sessionId: next, seqNum: nil, chunk: AsleepClient.melChunk()) } throws: {
                ($0 as? UnderstudyClientError)?.asleepDetail == "Not valid parameter"
            }
            try await fixture.admin.updateSettings(["strict": false])
            #expect(try await fixture.asleep.uploadChunk(config: config, sessionId: next, seqNum: nil, chunk: AsleepClient.melChunk()).seqNum == 0)
            #expect(try await fixture.asleep.uploadChunk(config: config, sessionId: next, seqNum: nil, chunk: AsleepClient.melChunk()).seqNum == 1)
            await #expect { _ = try await fixture.asleep.uploadChunk(config: config, sessionId: next, seqNum: 1_000_000, chunk: AsleepClient.melChunk()) } throws: {
                ($0 as? UnderstudyClientError)?.asleepStatus == 422
            }
            try await fixture.admin.updateSession(next, ["snoringDetected": [2]])
            #expect(try await fixture.asleep.uploadChunk(config: config, sessionId: next, seqNum: 2, chunk: AsleepClient.melChunk()).snoringDetected)

            try await fixture.admin.updateSettings(["validationErrorStyle": "list"])
            let listForm = try await fixture.asleep.raw("POST", "/ai/v1/users", apiKey: fixture.apiKey, body: Data(#"{"metadata":{"birth_month":13}}"#.utf8))
            #expect(listForm.status == 422)
            let item = try listForm.json()["detail"]?[0]
            #expect(item?["loc"] == ["body", "metadata", "birth_month"] && item?["type"]?.string == "value_error")

            let bad = try await fixture.projectAdmin.platformRequest("asleep", "PATCH", "/settings", json: ["conflictMode": "maybe"])
            #expect(bad.status == 400)
        }
    }
}
