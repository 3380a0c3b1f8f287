import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// Requests that the served OpenAPI document calls valid are accepted, and ones it calls invalid
/// are refused, where the server's own reading used to disagree with JSON Schema's.
@Suite("Asleep validation agrees with the OpenAPI document")
struct AsleepSchemaAlignmentTests {
    @Test("integral numbers written with a fraction are integers, as JSON Schema counts them")
    func integralFloats() async throws {
        try await AsleepFixture.with { fixture in
            let created = try await fixture.asleep.raw(
                "POST", "/ai/v1/users", apiKey: fixture.apiKey,
                body: Data(#"{"metadata":{"birth_year":1990.0,"birth_month":4.0}}"#.utf8))
            #expect(created.status == 201, "\(created.text)")
            let userID = try #require(try created.json()["result"]?["user_id"]?.string)
            let config = AsleepConfig(apiKey: fixture.apiKey, userId: userID)
            let user = try await fixture.asleep.raw("GET", "/ai/v1/users/\(userID)", config: config)
            #expect(user.text.contains(#""birth_year":1990,"#) && user.text.contains(#""birth_month":4,"#), "\(user.text)")
            let session = try await fixture.asleep.startTracking(config: config)
            let closed = try await fixture.asleep.raw("POST", "/ai/v1/sessions/\(session)/close", config: config, body: Data(#"{"unexpected":1.0}"#.utf8))
            #expect(closed.status == 200, "\(closed.text)")
            #expect(try await fixture.admin.session(session)["unexpectedEndTime"]?.isNull == false)
            let half = try await fixture.asleep.raw("POST", "/ai/v1/sessions/\(session)/close", config: config, body: Data(#"{"unexpected":0.5}"#.utf8))
            #expect(half.status == 422)
        }
    }

    @Test("callback URLs have the documented shape: a host of letters, digits, dots and hyphens")
    func callbackURLShape() async throws {
        try await AsleepFixture.with { fixture in
            var config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            for bad in ["HTTPS://0*", "https://exa mple.com/", "https://example.com/%zz"] {
                config.callbackUrl = bad
                await #expect(throws: UnderstudyClientError.self, "\(bad)") { _ = try await fixture.asleep.startTracking(config: config) }
            }
            config.callbackUrl = "https://hooks.example.com:8443/asleep?token=a%20b&x=1"
            _ = try await fixture.asleep.startTracking(config: config)
            #expect(try await fixture.admin.sessions()["sessions"]?.array?.count == 1)
        }
    }

    @Test("lengths count code points, as maxLength and the real service do")
    func lengthsInCodePoints() async throws {
        try await AsleepFixture.with { fixture in
            // 51 characters but 102 code points (e + combining acute): over the 100 allowed.
            let model = String(repeating: "e\u{301}", count: 51)
            let body = try JSONEncoder().encode(["model": model, "identifier_type": "SERIAL", "identifier_value": "SN"])
            let response = try await fixture.asleep.raw("POST", "/ai/v1/products", apiKey: fixture.apiKey, body: body)
            #expect(response.status == 422 && response.text.contains("invalid model"), "\(response.text)")
            let fits = try JSONEncoder().encode(["model": String(repeating: "e\u{301}", count: 50), "identifier_type": "SERIAL", "identifier_value": "SN"])
            #expect(try await fixture.asleep.raw("POST", "/ai/v1/products", apiKey: fixture.apiKey, body: fits).status == 201)
        }
    }

    @Test("the control plane: unknown state filters are 400, references to missing keys and users 404, token lifetimes bounded")
    func controlPlane() async throws {
        try await AsleepFixture.with { fixture in
            let admin = fixture.projectAdmin
            #expect(try await admin.platformRequest("asleep", "GET", "/sessions", query: [("state", "null")]).status == 400)
            #expect(try await admin.platformRequest("asleep", "GET", "/sessions", query: [("state", "CLOSED")]).status == 200)
            #expect(try await admin.platformRequest("asleep", "POST", "/users", json: ["userId": "G-x", "apiKey": "no-such-key"]).status == 404)
            #expect(try await admin.platformRequest("asleep", "POST", "/products", json: ["model": "m", "identifierValue": "v", "apiKey": "no-such-key"]).status == 404)
            #expect(try await admin.platformRequest("asleep", "POST", "/sessions", json: ["userId": "G-nobody"]).status == 404)
            // A session seeded with only an end time starts its chunks before it; one without a callback cannot fire (409).
            _ = try await fixture.admin.seedUser(["userId": "G-ended"])
            let ended = try await admin.platformRequest("asleep", "POST", "/sessions", json: ["userId": "G-ended", "endTime": "2000-01-01T00:00:00Z", "chunks": 2])
            #expect(ended.status == 201, "\(ended.text)")
            #expect(try ended.json()["startTime"]?.string?.hasPrefix("1999-12-31T23:59:00") == true, "\(ended.text)")
            let endedID = try #require(try ended.json()["sessionId"]?.string)
            #expect(try await admin.platformRequest("asleep", "POST", "/sessions/\(endedID)/webhooks", json: ["event": "SESSION_COMPLETE"]).status == 409)
            // A lifetime past 64 bits of seconds cannot be an integer `expires_in`.
            #expect(try await admin.platformRequest("asleep", "PATCH", "/settings", json: ["accessTokenSeconds": 1e19]).status == 400)
            #expect(try await admin.platformRequest("asleep", "PATCH", "/settings", json: ["refreshTokenSeconds": 3_153_600_001]).status == 400)
            #expect(try await admin.platformRequest("asleep", "PATCH", "/settings", json: ["accessTokenSeconds": 3_153_600_000]).status == 200)
            let appID = fixture.project.credential("asleep", "appId"), secret = fixture.project.credential("asleep", "appSecret")
            #expect(try await fixture.asleep.issueToken(appId: appID, appSecret: secret).expiresIn == 3_153_600_000)
        }
    }
}
