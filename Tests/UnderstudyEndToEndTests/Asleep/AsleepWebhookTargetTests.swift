import Foundation
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// Listening on every interface, which needs the admin token.
private func beyondLoopback(_ configuration: inout ServerConfiguration) {
    configuration.host = "0.0.0.0"
    configuration.adminToken = "webhook-tests"
}

@Suite("Asleep webhook targets", .timeLimit(.minutes(2)))
struct AsleepWebhookTargetTests {
    /// The session's deliveries once `count` of them have been attempted (none pending), polled
    /// within a bound: the worker sends on its own 200 ms ticks, and there is no event to await.
    private func settled(_ fixture: AsleepFixture, _ session: String, count: Int) async throws -> [AnyJSON] {
        let deadline = Date().addingTimeInterval(20)
        while true {
            let deliveries = try await fixture.admin.webhooks(sessionId: session)
            if deliveries.count >= count && deliveries.allSatisfy({ $0["status"]?.string != "pending" }) { return deliveries }
            guard Date() < deadline else {
                Issue.record("deliveries did not settle: \(deliveries)")
                return deliveries
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    @Test("beyond loopback, an SDK's loopback callback URL (and a control-plane one) is refused with its reason and never sent; allowed, it is delivered")
    func loopbackTargetNeedsAllowing() async throws {
        try await AsleepFixture.with(configure: beyondLoopback) { fixture in
            try await WebhookReceiver.with { receiver in
                // A night the SDK starts with the callback URL and stops: SESSION_COMPLETE is queued by itself.
                _ = try await fixture.projectAdmin.freezeClock(at: "2026-03-01T22:00:00Z")
                let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, callbackUrl: receiver.url)
                let session = try await fixture.asleep.startTracking(config: config)
                _ = try await fixture.asleep.stopTracking(config: config, sessionId: session)
                _ = try await fixture.projectAdmin.advanceClock(by: 2)
                let refused = try await settled(fixture, session, count: 1)
                #expect(refused.count == 1)
                for delivery in refused {
                    #expect(delivery["status"]?.string == "refused" && delivery["attempts"]?.int == 1, "\(delivery)")
                    let reason = delivery["lastError"]?.string ?? ""
                    #expect(reason.contains("127.0.0.1") && reason.contains("loopback") && reason.contains("webhookAllowedOrigins"), "\(reason)")
                }
                let outbox = try await fixture.projectAdmin.outbox(platform: "asleep", kind: "webhook")
                #expect(outbox.count == 1 && outbox.allSatisfy { $0.status == "refused" && ($0.lastError ?? "").contains("webhookAllowedOrigins") })

                // The rule does not ask who set the URL: a control-plane one, by a name for loopback, is refused too.
                try await fixture.admin.fireWebhook(session, event: "SESSION_COMPLETE", callbackUrl: "http://localhost:\(receiver.port)/hooks/asleep")
                let second = try await settled(fixture, session, count: 2)
                #expect(second.last?["status"]?.string == "refused" && second.last?["url"]?.string?.contains("localhost") == true)
                #expect(receiver.requests.isEmpty)

                let settings = try await fixture.admin.updateSettings(["webhookAllowedOrigins": [.string("http://127.0.0.1:\(receiver.port)/")]])
                #expect(settings["webhookAllowedOrigins"]?.array?.count == 1)
                try await fixture.admin.fireWebhook(session, event: "SESSION_COMPLETE")
                await receiver.waitFor(1)
                #expect(receiver.requests.first?.headers["x-api-key"] == fixture.apiKey)
                #expect(receiver.requests.first?.path == "/hooks/asleep")
                let delivered = try await settled(fixture, session, count: 3)
                #expect(delivered.last?["status"]?.string == "delivered" && delivered.last?["lastStatus"]?.int == 200)
            }
        }
    }

    @Test("webhookAllowedOrigins takes origins only; it defaults to none")
    func allowedOriginsSetting() async throws {
        try await AsleepFixture.with { fixture in
            #expect(try await fixture.admin.settings()["webhookAllowedOrigins"]?.array?.isEmpty == true)
            for bad: AnyJSON in [["http://127.0.0.1:3000/hooks"], ["ftp://127.0.0.1"], ["http://user@127.0.0.1"], ["127.0.0.1:3000"], "http://127.0.0.1", [1]] {
                let reply = try await fixture.projectAdmin.platformRequest("asleep", "PATCH", "/settings", json: ["webhookAllowedOrigins": bad])
                #expect(reply.status == 400, "\(bad): \(reply.status)")
            }
            let fine = try await fixture.admin.updateSettings(["webhookAllowedOrigins": ["HTTP://LocalHost:3000", "https://10.0.0.5"]])
            #expect(fine["webhookAllowedOrigins"]?.array?.count == 2)
        }
    }
}
