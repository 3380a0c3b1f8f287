import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// The contract points where Understudy used to differ from the real service: webhooks without
/// retries, product keys bound to their customer, the 100-day period, float ratios, UTF-8 bodies.
@Suite("Asleep contract", .timeLimit(.minutes(1)))
struct AsleepContractTests {
    /// Status and `detail` of a response.
    func answer(_ response: ClientResponse) -> (Int, String?) {
        (response.status, try? JSONDecoder().decode(AsleepErrorBody.self, from: response.body).detail)
    }

    /// A seeded COMPLETE session of 20 chunks calling back to `url`.
    func seedSession(_ fixture: AsleepFixture, user: String, callbackUrl: String) async throws -> String {
        _ = try await fixture.admin.seedUser(["userId": .string(user)])
        let session = try await fixture.admin.seedSession([
            "userId": .string(user), "state": "COMPLETE", "chunks": 20,
            "callbackUrl": .string(callbackUrl),
        ])
        return try #require(session["sessionId"]?.string)
    }

    @Test("a webhook is attempted once by default: a 500 leaves it failed, with no retry")
    func webhookWithoutRetries() async throws {
        try await AsleepFixture.with { fixture in
            try await WebhookReceiver.with(statuses: [500]) { receiver in
                #expect(try await fixture.admin.settings()["webhookMaxAttempts"]?.int == 1)
                let session = try await seedSession(fixture, user: "G-hook", callbackUrl: receiver.url)
                try await fixture.admin.fireWebhook(session, event: "INFERENCE_COMPLETE")
                await receiver.waitFor(1)
                // Deliveries run in order, so the second one's arrival means the first attempt is recorded.
                try await fixture.admin.fireWebhook(session, event: "SESSION_COMPLETE")
                await receiver.waitFor(2)
                let first = try #require(try await fixture.admin.webhooks(sessionId: session).first { $0["event"]?.string == "INFERENCE_COMPLETE" })
                #expect(first["status"]?.string == "failed" && first["attempts"]?.int == 1 && first["maxAttempts"]?.int == 1)
                #expect(first["lastStatus"]?.int == 500)
                #expect(
                    receiver.requests.map { try? JSONDecoder().decode(AnyJSON.self, from: $0.body)["event"]?.string }
                        == ["INFERENCE_COMPLETE", "SESSION_COMPLETE"])
                // The report inside SESSION_COMPLETE prints its ratio as a float too.
                #expect(String(decoding: receiver.requests[1].body, as: UTF8.self).contains(#""missing_data_ratio":0.0"#))
            }
        }
    }

    @Test("retries are opt-in: webhookMaxAttempts 3 retries a 500 and delivers")
    func webhookRetriesOptIn() async throws {
        try await AsleepFixture.with { fixture in
            try await WebhookReceiver.with(statuses: [500]) { receiver in
                _ = try await fixture.admin.updateSettings(["webhookMaxAttempts": 3])
                let session = try await seedSession(fixture, user: "G-hook", callbackUrl: receiver.url)
                try await fixture.admin.fireWebhook(session, event: "INFERENCE_COMPLETE")
                await receiver.waitFor(2) // the 500, then the retry a second later
                try await fixture.admin.fireWebhook(session, event: "SESSION_COMPLETE")
                await receiver.waitFor(3)
                let first = try #require(try await fixture.admin.webhooks(sessionId: session).first { $0["event"]?.string == "INFERENCE_COMPLETE" })
                #expect(first["status"]?.string == "delivered" && first["attempts"]?.int == 2 && first["maxAttempts"]?.int == 3)
            }
        }
    }

    @Test("a product key works only for the customer that registered it; other customers get 401 and no link")
    func productKeyBelongsToItsCustomer() async throws {
        try await AsleepFixture.with { fixture in
            let asleep = fixture.asleep
            let registration = try await asleep.setup(apiKey: fixture.apiKey, productInfo: AsleepProductInfo(model: "bed-2", identifierValue: "SN-1"))
            let owner = try await asleep.initAsleepConfig(apiKey: fixture.apiKey, productKey: registration.productKey)
            let ownSession = try await asleep.startTracking(config: owner)
            #expect(try await fixture.admin.session(ownSession)["productId"]?.string == registration.productId)

            // Another API key of the same project is another customer.
            let otherKey = try #require(try await fixture.admin.addKey()["apiKey"]?.string)
            let stranger = try await asleep.initAsleepConfig(apiKey: otherKey)
            var borrowed = stranger
            borrowed.productKey = registration.productKey
            #expect(answer(try await asleep.raw("POST", "/ai/v1/sessions", config: borrowed, body: Data("{}".utf8))) == (401, "invalid product key"))
            #expect(
                answer(
                    try await asleep.raw(
                        "POST", "/ai/v1/users", apiKey: otherKey, headers: ["x-product-key": registration.productKey],
                        body: Data("{}".utf8))) == (401, "invalid product key"))
            let strangerSession = try await asleep.startTracking(config: stranger)
            let (form, type) = AsleepClient.multipart(seqNum: 0, chunk: AsleepClient.melChunk())
            #expect(
                answer(
                    try await asleep.raw(
                        "POST", "/ai/v1/sessions/\(strangerSession)/upload", config: borrowed, body: form,
                        contentType: type)) == (401, "invalid product key"))
            let strangers = try await fixture.admin.sessions(userId: stranger.userId)["sessions"]?.array ?? []
            #expect(strangers.count == 1 && strangers.allSatisfy { $0["productId"]?.isNull == true })
            #expect(try await fixture.admin.session(strangerSession)["receivedChunks"]?.int == 0)

            // A key the control plane puts under the owner's customer shares the product.
            let groupedKey = try #require(try await fixture.admin.addKey(["customer": .string("key:" + fixture.apiKey)])["apiKey"]?.string)
            let grouped = try await asleep.initAsleepConfig(apiKey: groupedKey, userId: owner.userId, productKey: registration.productKey)
            let groupedSession = try await asleep.startTracking(config: grouped)
            #expect(try await fixture.admin.session(groupedSession)["productId"]?.string == registration.productId)
        }
    }

    @Test("average stats accept a period of exactly 100 days and refuse 101")
    func averagePeriodOfOneHundredDays() async throws {
        try await AsleepFixture.with { fixture in
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let path = "/data/v1/users/\(config.userId)/average-stats"
            func period(_ start: String, _ end: String) async throws -> (Int, String?) {
                answer(try await fixture.asleep.raw("GET", path, apiKey: fixture.apiKey, query: [("start_date", start), ("end_date", end)]))
            }
            #expect(try await period("2026-01-01", "2026-04-11").0 == 200) // 100 days after January 1
            #expect(try await period("2026-01-01", "2026-04-12") == (400, "The period should be less than or equal to 100 days"))
            #expect(try await period("2024-01-01", "2024-04-10").0 == 200) // a leap year: February has 29 days
            #expect(try await period("2024-01-01", "2024-04-11").0 == 400)
            #expect(try await period("2026-03-01", "2026-03-01").0 == 200)
        }
    }

    @Test("missing_data_ratio and other floats print with a fraction, even when whole")
    func floatsStayFloats() async throws {
        try await AsleepFixture.with { fixture in
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, metadata: AsleepUserMetadata(height: 180))
            let seeded = try await fixture.admin.seedSession(["userId": .string(config.userId), "state": "COMPLETE", "chunks": 20])
            let session = try #require(seeded["sessionId"]?.string)
            let report = try await fixture.asleep.raw("GET", "/data/v3/sessions/\(session)", config: config)
            #expect(report.status == 200)
            #expect(report.text.contains(#""missing_data_ratio":0.0"#), "\(report.text)")
            let user = try await fixture.asleep.raw("GET", "/ai/v1/users/\(config.userId)", config: config)
            #expect(user.text.contains(#""height":180.0"#), "\(user.text)")
            #expect(user.text.contains(#""birth_year":null"#))
        }
    }

    @Test("a JSON body that is not UTF-8 is a 400 in Asleep's format on every JSON route, and stores nothing")
    func invalidUTF8() async throws {
        try await AsleepFixture.with { fixture in
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            let session = try await fixture.asleep.startTracking(config: config)
            func body(_ prefix: String, _ suffix: String) -> Data { Data(prefix.utf8) + Data([0xFF, 0xFE]) + Data(suffix.utf8) }
            let requests: [(String, String, Data)] = [
                ("POST", "/ai/v1/users", body(#"{"metadata":{"gender":""#, #""}}"#)),
                ("PUT", "/ai/v1/users/\(config.userId)", body(#"{"metadata":{"gender":""#, #""}}"#)),
                ("POST", "/ai/v1/products", body(#"{"model":""#, #"","identifier_type":"SERIAL","identifier_value":"SN"}"#)),
                ("POST", "/ai/v1/sessions", body(#"{"service":""#, #""}"#)),
                ("POST", "/ai/v1/sessions/\(session)/close", body(#"{"callback_url":"https://example.com/"#, #""}"#)),
                ("POST", "/customer/v1/app/token", body(#"{"app_id":""#, #"","app_secret":"x"}"#)),
                ("POST", "/customer/v1/app/refresh", body(#"{"refresh_token":""#, #""}"#)),
            ]
            for (method, path, data) in requests {
                let response = try await fixture.asleep.raw(method, path, config: config, body: data)
                #expect(answer(response) == (400, "There was an error parsing the body"), "\(method) \(path): \(response.text)")
            }
            #expect(try await fixture.admin.users()["users"]?.array?.count == 1)
            #expect(try await fixture.admin.products()["products"]?.array?.isEmpty == true)
            let sessions = try await fixture.admin.sessions()["sessions"]?.array ?? []
            #expect(sessions.count == 1 && sessions.first?["state"]?.string == "OPEN")
        }
    }
}
