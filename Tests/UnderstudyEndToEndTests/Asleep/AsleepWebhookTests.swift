import AsleepEmulator
import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Asleep webhooks", .timeLimit(.minutes(1)))
struct AsleepWebhookTests {
    @Test("INFERENCE_COMPLETE at seq 39 and SESSION_COMPLETE reach the callback URL, with a retry after a 500")
    func delivery() async throws {
        try await AsleepFixture.with { fixture in
            try await WebhookReceiver.with(statuses: [500]) { receiver in
                // Retries are opt-in (the real service does not retry); this test is about the retry.
                _ = try await fixture.admin.updateSettings(["webhookMaxAttempts": 3])
                let (config, session) = try await fixture.trackNight(callbackUrl: receiver.url)

                // First INFERENCE_COMPLETE attempt (500), its retry, and SESSION_COMPLETE.
                await receiver.waitFor(3)
                let requests = receiver.requests
                for request in requests {
                    #expect(request.headers["x-api-key"] == fixture.apiKey)
                    #expect(request.headers["x-user-id"] == config.userId)
                    #expect(request.headers["content-type"] == "application/json")
                    #expect(request.path == "/hooks/asleep")
                }
                let bodies = try requests.map { try JSONDecoder().decode(AnyJSON.self, from: $0.body) }
                let inference = try #require(bodies.first { $0["event"]?.string == "INFERENCE_COMPLETE" })
                #expect(inference["version"]?.string == "V3")
                #expect(inference["data"]?["seq_num"]?.int == 39)
                #expect(inference["data"]?["inference_seq_num"]?.int == 3)
                #expect(inference["data"]?["sleep_stages"]?.array?.count == 40)
                #expect(inference["data"]?["breath_stages"]?.isNull == true)
                #expect(inference["data"]?["session_id"]?.string == session)
                #expect(bodies.filter { $0["event"]?.string == "INFERENCE_COMPLETE" }.count == 2)
                let complete = try #require(bodies.first { $0["event"]?.string == "SESSION_COMPLETE" })
                #expect(complete["data"]?["session"]?["state"]?.string == "COMPLETE")
                #expect(complete["data"]?["timezone"]?.string == "UTC")
                #expect(complete["data"]?["user_id"]?.string == config.userId)
                #expect(complete["data"]?["stat"]?["time_in_bed"]?.int == 1200)

                // Fired on demand; since deliveries run in order, its arrival means the others are recorded.
                try await fixture.admin.fireWebhook(session, event: "SESSION_COMPLETE")
                await receiver.waitFor(4)
                let deliveries = try await fixture.admin.webhooks(sessionId: session)
                let first = try #require(deliveries.first)
                #expect(first["event"]?.string == "INFERENCE_COMPLETE")
                #expect(first["attempts"]?.int == 2 && first["status"]?.string == "delivered" && first["lastStatus"]?.int == 200)
                #expect(deliveries.count == 3)
                let outbox = try await fixture.projectAdmin.outbox(platform: "asleep", kind: "webhook")
                #expect(outbox.count == 3)
                #expect(outbox.first?.attempts == 2 && outbox.first?.status == "delivered" && outbox.first?.recipient == receiver.url)
            }
        }
    }

    @Test("with no webhook due, the delivery worker's ticks leave the writer alone")
    func idleTicksDoNotWrite() async throws {
        try await AsleepFixture.with { fixture in
            let database = fixture.server.server.emulator.services.database
            guard let before = database.committedWrites else {
                #expect(database.dialect == .postgres) // SQLite always counts
                return
            }
            // Five of the delivery loop's ticks: each used to claim (a write job) to find nothing.
            let services = fixture.server.server.emulator.services
            let start = services.backgroundRounds(AsleepWorker.webhooksLoop)
            #expect(await eventually(timeout: 30) { services.backgroundRounds(AsleepWorker.webhooksLoop) >= start + 5 }, "the delivery loop stopped ticking")
            #expect(database.committedWrites?.writes == before.writes)
        }
    }

    @Test("an invalid callback URL is a 400 and changes nothing")
    func invalidCallback() async throws {
        try await AsleepFixture.with { fixture in
            var config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            config.callbackUrl = "ftp://example.com/hook"
            await #expect { _ = try await fixture.asleep.startTracking(config: config) } throws: {
                ($0 as? UnderstudyClientError)?.asleepDetail == "Not valid callback_url"
            }
            #expect(try await fixture.admin.sessions()["sessions"]?.array?.isEmpty == true)
        }
    }
}
