import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Asleep appId/appSecret tokens")
struct AsleepTokenTests {
    @Test("tokens are issued, used as Bearer, refreshed and expired on demand")
    func tokens() async throws {
        try await AsleepFixture.with { fixture in
            let appId = fixture.project.credential("asleep", "appId"), appSecret = fixture.project.credential("asleep", "appSecret")
            #expect(appId.hasPrefix("app_") && fixture.project.sdkSettings["asleep"]?["appId"] == appId)
            let (config, tokens) = try await fixture.asleep.initAsleepConfig(appId: appId, appSecret: appSecret)
            #expect(tokens.expiresIn == 36_000)
            #expect(try await fixture.asleep.user(config: config).userId == config.userId)
            await #expect { _ = try await fixture.asleep.issueToken(appId: appId, appSecret: "wrong") } throws: {
                ($0 as? UnderstudyClientError)?.asleepStatus == 401
            }
            // The app is its own customer: a user made with the API key is not visible to it.
            let keyUser = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
            await #expect { _ = try await fixture.asleep.user(config: config, userId: keyUser.userId) } throws: {
                ($0 as? UnderstudyClientError)?.asleepStatus == 404
            }

            let refreshed = try await fixture.asleep.refreshToken(tokens.refreshToken)
            #expect(refreshed.accessToken != tokens.accessToken)
            await #expect { _ = try await fixture.asleep.refreshToken(tokens.refreshToken) } throws: { ($0 as? UnderstudyClientError)?.asleepStatus == 401 }

            try await fixture.admin.expireTokens(kind: "access")
            var current = config
            current.accessToken = refreshed.accessToken
            await #expect { _ = try await fixture.asleep.user(config: current) } throws: {
                ($0 as? UnderstudyClientError)?.asleepDetail == "token invalid"
            }
            let again = try await fixture.asleep.refreshToken(refreshed.refreshToken)
            current.accessToken = again.accessToken
            #expect(try await fixture.asleep.user(config: current).userId == config.userId)
        }
    }
}
