import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Asleep tracking flow")
struct AsleepTrackingFlowTests {
    @Test("setup → initAsleepConfig → start → uploads → stop → COMPLETE, mapped to the product")
    func fullFlow() async throws {
        try await AsleepFixture.with { fixture in
            let asleep = fixture.asleep
            _ = try await fixture.projectAdmin.freezeClock(at: "2026-01-10T22:00:00Z")

            let product = AsleepProductInfo(model: "model-123", identifierType: "SERIAL", identifierValue: "SN-0001")
            let registration = try await asleep.setup(apiKey: fixture.apiKey, productInfo: product)
            #expect(registration.created)
            #expect(registration.productId.hasPrefix("P-"))

            let config = try await asleep.initAsleepConfig(apiKey: fixture.apiKey, productKey: registration.productKey, timezone: "Asia/Seoul", service: "SleepApp")
            #expect(config.userId.wholeMatch(of: /G-\d{14}-[A-Za-z0-9]{20}/) != nil)
            #expect(config.userId.hasPrefix("G-20260110220000-"))
            // A known user id validates (initAsleepConfig with userId).
            let rejoined = try await asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: config.userId)
            #expect(rejoined.userId == config.userId)

            let session = try await asleep.startTracking(config: config)
            #expect(session.wholeMatch(of: /\d{14}_[a-z0-9]{5}/) != nil)
            let seeded = try await fixture.admin.session(session)
            #expect(seeded["productId"]?.string == registration.productId)
            #expect(seeded["service"]?.string == "SleepApp")
            #expect(seeded["timezone"]?.string == "Asia/Seoul")

            try await fixture.uploadChunks(config, session: session, 0...29)
            let duplicate = try await asleep.uploadChunk(config: config, sessionId: session, seqNum: 5, chunk: AsleepClient.melChunk())
            #expect(duplicate.seqNum == 5)

            let live = try await asleep.report(config: config, sessionId: session)
            #expect(live.peculiarities == ["IN_PROGRESS"])
            #expect(live.stat == nil)
            #expect(live.session.state == "OPEN")
            #expect(live.session.endTime == nil)
            #expect(live.session.sleepStages?.count == 30)
            #expect(live.timezone == "Asia/Seoul")
            #expect(live.session.startTime == "2026-01-11T07:00:00+09:00")

            let user = try await asleep.user(config: config)
            #expect(user.lastSessionInfo?.sessionId == session)
            #expect(user.lastSessionInfo?.state == "OPEN")
            #expect(user.lastSessionInfo?.startTime == "2026-01-10T22:00:00Z")

            #expect(try await asleep.stopTracking(config: config, sessionId: session) == "CLOSED")
            let closed = try await asleep.report(config: config, sessionId: session)
            #expect(closed.session.state == "CLOSED")
            #expect(closed.peculiarities == ["IN_PROGRESS"])

            // The completion delay (default 2 s) runs on the project clock, well under the SDK's 30 s poll.
            _ = try await fixture.projectAdmin.advanceClock(by: 2)
            let complete = try await asleep.report(config: config, sessionId: session)
            #expect(complete.session.state == "COMPLETE")
            #expect(complete.session.endTime == "2026-01-11T07:15:00+09:00")
            #expect(complete.session.sleepStages?.count == 30)
            #expect(complete.peculiarities == ["NO_BREATHING_STABILITY"])
            #expect(complete.session.breathStages == nil)
            let stat = try #require(complete.stat)
            #expect(stat.timeInBed == 900)
            #expect(stat.sleepEfficiency != nil)

            let list = try await asleep.reports(config: config)
            #expect(list.sleepSessionList.map(\.sessionId) == [session])
            #expect(list.sleepSessionList.first?.lastReceivedSeqNum == 29)
            #expect(list.sleepSessionList.first?.timeInBed == 900)
            #expect(list.sleepSessionList.first?.state == "COMPLETE")
        }
    }

    @Test("a reinstall re-registers the same product; a changed device registers a new one")
    func reinstallAndNewDevice() async throws {
        try await AsleepFixture.with { fixture in
            let info = AsleepProductInfo(model: "bedside-1", identifierType: "MAC_ADDRESS", identifierValue: "AA:BB:CC:DD:EE:FF")
            let first = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: info)
            _ = try await fixture.projectAdmin.advanceClock(by: 300) // deleted, reinstalled and launched again
            let again = try await fixture.asleep.setup(
                apiKey: fixture.apiKey, productInfo: AsleepProductInfo(model: "bedside-1", identifierType: "macAddress", identifierValue: "AA:BB:CC:DD:EE:FF"))
            #expect(first.created && !again.created)
            #expect(first.productId == again.productId && first.productKey == again.productKey)
            let changed = try await fixture.asleep.setup(
                apiKey: fixture.apiKey, productInfo: AsleepProductInfo(model: "bedside-1", identifierType: "MAC_ADDRESS", identifierValue: "11:22:33:44:55:66"))
            #expect(changed.created && changed.productId != first.productId)
            #expect(try await fixture.admin.products()["products"]?.array?.count == 2)

            // Sessions created with the new credential map to the new product; without one, to none.
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, productKey: changed.productKey)
            let session = try await fixture.asleep.startTracking(config: config)
            #expect(try await fixture.admin.session(session)["productId"]?.string == changed.productId)
            var plain = config
            plain.productKey = nil
            let unmapped = try await fixture.asleep.startTracking(config: plain)
            #expect(try await fixture.admin.session(unmapped)["productId"]?.isNull == true)

            // A revoked credential is a 401, and re-registration issues a fresh one.
            try await fixture.admin.revokeProduct(changed.productId)
            await #expect { try await fixture.asleep.startTracking(config: config) } throws: { ($0 as? UnderstudyClientError)?.asleepDetail == "invalid product key" }
            let renewed = try await fixture.asleep.setup(
                apiKey: fixture.apiKey, productInfo: AsleepProductInfo(model: "bedside-1", identifierType: "MAC_ADDRESS", identifierValue: "11:22:33:44:55:66"))
            #expect(renewed.productId == changed.productId && renewed.productKey != changed.productKey)
        }
    }

    @Test("rejected registrations are 4xx with a detail; failures are 5xx or a dropped connection")
    func rejectedVersusFailed() async throws {
        try await AsleepFixture.with { fixture in
            let asleep = fixture.asleep
            func rejection(_ info: AsleepProductInfo, key: String? = nil) async -> (Int?, String?) {
                do {
                    _ = try await asleep.setup(apiKey: key ?? fixture.apiKey, productInfo: info)
                    return (nil, nil)
                } catch {
                    return (error.asleepStatus, error.asleepDetail)
                }
            }
            #expect(await rejection(AsleepProductInfo(model: "", identifierValue: "SN")) == (422, "invalid model"))
            #expect(await rejection(AsleepProductInfo(model: String(repeating: "m", count: 101), identifierValue: "SN")) == (422, "invalid model"))
            #expect(await rejection(AsleepProductInfo(model: "m", identifierType: "IMEI", identifierValue: "SN")) == (422, "invalid identifier_type"))
            #expect(await rejection(AsleepProductInfo(model: "m", identifierValue: "")) == (422, "invalid identifier_value"))
            #expect(await rejection(AsleepProductInfo(model: "m", identifierValue: String(repeating: "9", count: 256))) == (422, "invalid identifier_value"))
            #expect(await rejection(AsleepProductInfo(model: "m", identifierValue: "SN"), key: "not-a-key") == (401, "Unauthorized"))
            try await fixture.admin.updateKey(fixture.apiKey, ["productBilling": false])
            #expect(await rejection(AsleepProductInfo(model: "m", identifierValue: "SN")) == (403, "product registration not allowed for this plan"))
            try await fixture.admin.updateKey(fixture.apiKey, ["productBilling": true])
            #expect(try await fixture.admin.products()["products"]?.array?.isEmpty == true)

            // Transient: an injected 503 (in Asleep's format) four times running, then success.
            _ = try await fixture.projectAdmin.addFault(
                FaultRule(
                    match: .init(platform: "asleep", method: "POST", path: "/ai/v1/products"),
                    action: .init(type: "status", status: 503), times: 4))
            let info = AsleepProductInfo(model: "m", identifierValue: "SN-RETRY")
            for wait in [2.0, 4, 8, 60] { // the SDK's retries after 2, 4 and 8 s; then setup again after a while
                let failure = await rejection(info)
                #expect(failure.0 == 503)
                #expect(failure.1 != nil)
                _ = try await fixture.projectAdmin.advanceClock(by: wait)
            }
            #expect(try await asleep.setup(apiKey: fixture.apiKey, productInfo: info).created)

            // A dropped connection never yields an HTTP status.
            let dropped = try? await fixture.server.client.send(
                ClientRequest(
                    method: "POST", path: "/asleep/ai/v1/products",
                    headers: ["x-api-key": fixture.apiKey, "Content-Type": "application/json", "X-Understudy-Fault": "reset"],
                    body: Data(#"{"model":"m","identifier_type":"SERIAL","identifier_value":"SN-DROP"}"#.utf8), timeout: 3))
            #expect(dropped == nil)
            #expect(try await fixture.admin.products()["products"]?.array?.count == 1)
        }
    }

    @Test("starting a session elsewhere terminates the old one; its uploads get 403 and its close 404")
    func joinElsewhere() async throws {
        try await AsleepFixture.with { fixture in
            let phone1 = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let phone2 = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: phone1.userId)
            let first = try await fixture.asleep.startTracking(config: phone1)
            _ = try await fixture.asleep.uploadChunk(config: phone1, sessionId: first, seqNum: 0, chunk: AsleepClient.melChunk())
            let second = try await fixture.asleep.startTracking(config: phone2)
            #expect(first != second)
            await #expect { _ = try await fixture.asleep.uploadChunk(config: phone1, sessionId: first, seqNum: 1, chunk: AsleepClient.melChunk()) } throws: {
                let error = $0 as? UnderstudyClientError
                return error?.asleepStatus == 403 && error?.asleepDetail == "Session already terminated"
            }
            await #expect { _ = try await fixture.asleep.stopTracking(config: phone1, sessionId: first) } throws: {
                let error = $0 as? UnderstudyClientError
                return error?.asleepStatus == 404 && error?.asleepDetail == "session does not exist"
            }
            #expect(try await fixture.admin.session(first)["state"]?.string != "OPEN")
            #expect(try await fixture.admin.session(second)["state"]?.string == "OPEN")

            // The older v1 behaviour is a conflict instead.
            try await fixture.admin.updateSettings(["conflictMode": "reject"])
            await #expect { _ = try await fixture.asleep.startTracking(config: phone1) } throws: {
                ($0 as? UnderstudyClientError)?.asleepStatus == 409
            }
        }
    }

    @Test("sessions end at 24 h on the virtual clock; later uploads are rejected")
    func twentyFourHours() async throws {
        try await AsleepFixture.with { fixture in
            _ = try await fixture.projectAdmin.freezeClock(at: "2026-02-01T21:00:00Z")
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            _ = try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 0, chunk: AsleepClient.melChunk())
            _ = try await fixture.projectAdmin.advanceClock(by: 86_400 - 1)
            _ = try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 1, chunk: AsleepClient.melChunk())
            _ = try await fixture.projectAdmin.advanceClock(by: 1)
            await #expect { _ = try await fixture.asleep.uploadChunk(config: config, sessionId: session, seqNum: 2, chunk: AsleepClient.melChunk()) } throws: {
                ($0 as? UnderstudyClientError)?.asleepDetail == "Session already terminated"
            }
            let report = try await fixture.asleep.report(config: config, sessionId: session)
            #expect(report.session.endTime == "2026-02-02T21:00:00+00:00")
            #expect(report.session.state == "CLOSED")
            _ = try await fixture.projectAdmin.advanceClock(by: 2)
            #expect(try await fixture.asleep.report(config: config, sessionId: session).session.state == "COMPLETE")
        }
    }

    @Test("deleting a session or the user removes the data; later uploads get 404 Session does not exist")
    func deletion() async throws {
        try await AsleepFixture.with { fixture in
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let first = try await fixture.asleep.startTracking(config: config)
            try await fixture.asleep.deleteReport(config: config, sessionId: first)
            await #expect { _ = try await fixture.asleep.uploadChunk(config: config, sessionId: first, seqNum: 0, chunk: AsleepClient.melChunk()) } throws: {
                let error = $0 as? UnderstudyClientError
                return error?.asleepStatus == 404 && error?.asleepDetail == "Session does not exist"
            }
            await #expect { try await fixture.asleep.deleteReport(config: config, sessionId: first) } throws: {
                ($0 as? UnderstudyClientError)?.asleepDetail == "session does not exist"
            }
            let second = try await fixture.asleep.startTracking(config: config)
            _ = try await fixture.asleep.uploadChunk(config: config, sessionId: second, seqNum: 0, chunk: AsleepClient.melChunk())
            try await fixture.asleep.deleteAllReports(config: config)
            #expect(try await fixture.asleep.reports(config: config).sleepSessionList.isEmpty)
            let third = try await fixture.asleep.startTracking(config: config)
            try await fixture.asleep.deleteUser(config: config)
            await #expect { _ = try await fixture.asleep.uploadChunk(config: config, sessionId: third, seqNum: 0, chunk: AsleepClient.melChunk()) } throws: {
                ($0 as? UnderstudyClientError)?.asleepDetail == "Session does not exist"
            }
            await #expect { _ = try await fixture.asleep.user(config: config) } throws: { ($0 as? UnderstudyClientError)?.asleepDetail == "user does not exist" }
            #expect(try await fixture.admin.sessions()["sessions"]?.array?.isEmpty == true)
        }
    }
}
