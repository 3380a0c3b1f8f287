import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("Telematics tokens and invalidation")
struct TelematicsAuthTests {
    @Test("proactive refresh: the SDK renews before tokenExpires on its own clock")
    func proactiveRefresh() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let pair = try await admin.mintTokens(userId: 1, accessTtlSeconds: 30, refreshTtlSeconds: 3600)
            #expect(pair.tokenExpires == "2026-11-03T12:00:30.000000Z" && pair.refreshTokenExpires == "2026-11-03T13:00:00.000000Z")
            let sdk = server.client.telematics.session(pair, deviceClock: { TelematicsFixture.epochDate.addingTimeInterval(45) })
            #expect(try await sdk.getCurrentUserInfo().userId == 1)
            #expect(await sdk.refreshCount == 1)
            let renewed = try #require(await sdk.currentTokens)
            #expect(renewed.token != pair.token && renewed.refreshToken != pair.refreshToken)
            let state = await sdk.getSessionState()
            #expect(state.status == .verified && state.isAutoRenewing)
            let chain = try await admin.tokens(userId: 1)
            #expect(chain.count == 2 && chain[0].refreshState == "rotated" && chain[0].successorId == chain[1].id && chain[1].parentId == chain[0].id)
        }
    }

    @Test("reactive refresh: a server-side expiry gives 401, one refresh, and the call is retried")
    func reactiveRefresh() async throws {
        try await TelematicsFixture.with { server, project, admin in
            let pair = try await admin.mintTokens(userId: 2, accessTtlSeconds: 60)
            let sdk = server.client.telematics.session(pair, deviceClock: { TelematicsFixture.epochDate })
            try await sdk.initSDK()
            _ = try await server.client.admin.project(project.id).advanceClock(by: 61)
            #expect(try await sdk.getCurrentUserInfo().userId == 2)
            let (refreshes, invalidations) = (await sdk.refreshCount, await sdk.invalidations)
            #expect(refreshes == 1 && invalidations.isEmpty)
            let journal = try await server.client.admin.project(project.id).requests(JournalQuery(path: "/telematics/api/v1/users/me"))
            #expect(journal.requests.map(\.status).sorted() == [200, 200, 401])
        }
    }

    @Test("rotation grace: the old refresh token returns the same successor for 60 s, then is rejected")
    func rotationGrace() async throws {
        // The late refresh is the mistake `telematics.refresh-token-reused` reports.
        try await TelematicsFixture.with(expectingFindings: true) { server, project, admin in
            let pair = try await admin.mintTokens(userId: 3)
            let body = try JSONEncoder().encode(["refreshToken": pair.refreshToken!])
            let request = ClientRequest(method: "POST", path: "/telematics/api/v1/auth/refresh", headers: ["Content-Type": "application/json"], body: body)
            let first = try await server.client.send(request)
            #expect(first.status == 200)
            let json = try first.json()
            #expect(json["tokenType"] == "Bearer" && json["expiresIn"] == 3600 && json["accessToken"] == json["token"])
            _ = try await server.client.admin.project(project.id).advanceClock(by: 59)
            let replay = try await server.client.send(request)
            #expect(try replay.json()["token"] == json["token"] && replay.status == 200)
            _ = try await server.client.admin.project(project.id).advanceClock(by: 2)
            let late = try await server.client.send(request)
            let lateCode = try late.decode(TelematicsErrorBody.self).code
            #expect(late.status == 401 && lateCode == "REFRESH_TOKEN_REJECTED")
            // The form style of RFC 6749 is accepted too.
            let form = ClientRequest(
                method: "POST", path: "/telematics/api/v1/auth/refresh", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data("grant_type=refresh_token&refresh_token=\(json["refreshToken"]!.string!)".utf8))
            #expect(try await server.client.send(form).status == 200)
        }
    }

    @Test("refresh token expired destroys the session")
    func refreshTokenExpired() async throws {
        try await TelematicsFixture.with { server, project, admin in
            let sdk = server.client.telematics.session(
                try await admin.mintTokens(userId: 4, accessTtlSeconds: 60, refreshTtlSeconds: 120),
                deviceClock: { TelematicsFixture.epochDate })
            try await sdk.initSDK()
            _ = try await server.client.admin.project(project.id).advanceClock(by: 121)
            await #expect { try await sdk.getCurrentUserInfo() } throws: { TelematicsFixture.errorCode($0)! == (401, "REFRESH_TOKEN_EXPIRED") }
            #expect(await sdk.invalidations == [.refreshTokenExpired])
            let state = await sdk.getSessionState()
            #expect(state.status == .invalid && state.invalidationReason?.invalidatesSession == true)
        }
    }

    @Test("refresh token revoked (rejected) destroys the session")
    func refreshTokenRejected() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let pair = try await admin.mintTokens(userId: 5)
            let sdk = server.client.telematics.session(pair, deviceClock: { TelematicsFixture.epochDate })
            try await admin.revokeToken(pair.refreshToken!)
            try await admin.expireToken(pair.token)
            await #expect { try await sdk.getCurrentUserInfo() } throws: { TelematicsFixture.errorCode($0)! == (401, "REFRESH_TOKEN_REJECTED") }
            #expect(await sdk.invalidations == [.refreshTokenRejected])
            #expect(await sdk.getSessionState().status == .invalid)
        }
    }

    @Test("access token rejected without a refresh token destroys the session; the header says invalid_token")
    func accessTokenRejected() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let pair = try await admin.mintTokens(userId: 6, withRefreshToken: false)
            #expect(pair.refreshToken == nil && pair.refreshTokenExpires == nil)
            let sdk = server.client.telematics.session(pair, deviceClock: { TelematicsFixture.epochDate })
            try await sdk.initSDK()
            try await admin.revokeToken(pair.token)
            await #expect { try await sdk.getCurrentUserInfo() } throws: { TelematicsFixture.errorCode($0)! == (401, "ACCESS_TOKEN_REJECTED") }
            #expect(await sdk.invalidations == [.accessTokenRejected])
            let state = await sdk.getSessionState()
            #expect(state.status == .invalid && !state.isAutoRenewing)

            let raw = try await server.client.send(ClientRequest(method: "GET", path: "/telematics/api/v1/users/me", headers: ["Authorization": "Bearer " + pair.token]))
            #expect(raw.status == 401 && raw.headers["www-authenticate"] == "Bearer error=\"invalid_token\"")
            let body = try raw.decode(TelematicsErrorBody.self)
            #expect(body.status == 401 && !body.traceId.isEmpty && raw.headers["x-understudy-trace"] == body.traceId)
        }
    }

    @Test("inactive account and denied access keep the session; reactivation recovers it")
    func nonDestroyingReasons() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let sdk = server.client.telematics.session(try await admin.mintTokens(userId: 8), deviceClock: { TelematicsFixture.epochDate })
            try await sdk.initSDK()

            try await admin.setAccountState(8, "INACTIVE")
            await #expect { try await sdk.getTripsList() } throws: { TelematicsFixture.errorCode($0)! == (403, "ACCOUNT_INACTIVE") }
            let (denied, refreshes) = (await sdk.getSessionState(), await sdk.refreshCount)
            #expect(denied.status == .denied && refreshes == 0)
            // The refresh endpoint also refuses an inactive account.
            let tokens = try #require(await sdk.currentTokens)
            await #expect { try await sdk.renewTokens() } throws: { TelematicsFixture.errorCode($0)! == (403, "ACCOUNT_INACTIVE") }
            #expect(await sdk.currentTokens?.token == tokens.token)

            try await admin.setAccountState(8, "DENIED")
            await #expect { try await sdk.getTripsList() } throws: { TelematicsFixture.errorCode($0)! == (403, "ACCESS_DENIED") }
            #expect(await sdk.invalidations == [.accountInactive, .accountInactive, .accessDenied])
            let reasons = await sdk.invalidations
            #expect(reasons.allSatisfy { !$0.invalidatesSession })

            try await admin.setAccountState(8, "ACTIVE")
            #expect(try await sdk.getTripsList().isEmpty)
            #expect(await sdk.getSessionState().status == .verified)

            // A feature switched off for the user denies only its routes.
            let user = try await admin.setDisabledFeatures(8, ["KILOMETERS"])
            #expect(user.disabledFeatures == ["KILOMETERS"] && user.state == "ACTIVE")
            await #expect { try await sdk.getEstimatedMileage() } throws: { TelematicsFixture.errorCode($0)! == (403, "ACCESS_DENIED") }
            #expect(try await sdk.getTripsList().isEmpty)
            try await admin.setDisabledFeatures(8, [])
            await #expect { try await sdk.getEstimatedMileage() } throws: { TelematicsFixture.errorCode($0)! == (404, "NO_CURRENT_VEHICLE") }
        }
    }

    @Test("a service code outside the allow-list is unknown to setServiceCode and denied for telemetry")
    func serviceCodeAllowList() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let sdk = server.client.telematics.session(try await admin.mintTokens(userId: 9), deviceClock: { TelematicsFixture.epochDate })
            #expect(try await sdk.setServiceCode("ANYTHING").valid)
            try await admin.setServiceCodes(["FLEET1"])
            await #expect { try await sdk.setServiceCode("NOPE") } throws: { TelematicsFixture.errorCode($0)! == (404, "SERVICE_CODE_UNKNOWN") }
            #expect(try await sdk.setServiceCode("FLEET1").code == "FLEET1")
            let samples = TelematicsFixture.drive(startMs: TelematicsFixture.epochMs - 60_000, count: 10)
            try await sdk.uploadTelemetry(TelematicsTelemetryBatch(samples: samples))
            await #expect { try await sdk.uploadTelemetry(TelematicsTelemetryBatch(samples: samples, serviceCode: "NOPE")) } throws: {
                TelematicsFixture.errorCode($0)! == (403, "ACCESS_DENIED")
            }
            #expect(await sdk.invalidations == [.accessDenied])
            #expect(try await admin.batches()["batches"]?.array?.count == 1)
        }
    }

    @Test("logout revokes the pair; the data upload before it is kept")
    func logout() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let pair = try await admin.mintTokens(userId: 10)
            let sdk = server.client.telematics.session(pair, deviceClock: { TelematicsFixture.epochDate })
            try await sdk.uploadTelemetry(TelematicsTelemetryBatch(samples: TelematicsFixture.drive(startMs: TelematicsFixture.epochMs - 60_000, count: 5)))
            try await sdk.logout()
            #expect(await sdk.getSessionState().status == .notAuthenticated)
            let chain = try await admin.tokens(userId: 10)
            #expect(chain[0].accessState == "revoked" && chain[0].refreshState == "revoked")
            #expect(try await admin.batches(userId: 10)["batches"]?[0]?["accepted"] == 5)
        }
    }
}
