import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// Telematics' integration checks end to end: for each rule, the sequence the iOS usage guide
/// calls correct raises no finding and the mistake exactly one. The project clock is frozen
/// (`TelematicsFixture`) and moved on by the control plane wherever time would pass.
@Suite("Telematics integration checks")
struct TelematicsChecksTests {
    /// The fixture, allowed to end with findings (each test asserts its own).
    static func with(_ body: (UnderstudyTestServer, Project, TelematicsAdminClient) async throws -> Void) async throws {
        try await TelematicsFixture.with(expectingFindings: true) { server, project, admin in try await body(server, project, admin) }
    }

    /// The project's findings, most recent first.
    static func findings(_ server: UnderstudyTestServer, _ project: Project) async throws -> [Finding] {
        try await server.client.admin.project(project.id).findings()
    }

    /// Moves the project clock on by `seconds`.
    static func advance(_ server: UnderstudyTestServer, _ project: Project, _ seconds: Double) async throws {
        _ = try await server.client.admin.project(project.id).advanceClock(by: seconds)
    }

    /// Makes the next `times` requests to `path` (below `/telematics`) get `action`.
    static func fault(_ server: UnderstudyTestServer, _ project: Project, _ method: String, _ path: String, _ action: FaultRule.Action, times: Int = 1) async throws {
        _ = try await server.client.admin.project(project.id).addFault(
            FaultRule(match: .init(platform: "telematics", method: method, path: path), action: action, times: times))
    }

    /// A request as an app would send it itself, outside the SDK.
    static func send(_ server: UnderstudyTestServer, _ method: String, _ path: String, bearer: String? = nil, json: String? = nil) async throws -> ClientResponse {
        var headers: [String: String] = [:]
        if let bearer { headers["Authorization"] = "Bearer " + bearer }
        if json != nil { headers["Content-Type"] = "application/json" }
        return try await server.client.send(ClientRequest(method: method, path: "/telematics/api/v1" + path, headers: headers, body: json.map { Data($0.utf8) }))
    }

    /// A session of `pair` whose device clock stands at the fixture's epoch (no early renewal).
    static func session(_ server: UnderstudyTestServer, _ pair: TelematicsTokenPair) -> TelematicsSession {
        server.client.telematics.session(pair, deviceClock: { TelematicsFixture.epochDate })
    }

    @Test("telematics.refresh-token-reused: renewals racing within the grace period and a lost answer raise nothing; stored tokens reused later one finding")
    func refreshTokenReused() async throws {
        try await Self.with { server, project, admin in
            let pair = try await admin.mintTokens(userId: 1)
            let sdk = Self.session(server, pair)
            try await sdk.renewTokens()
            let racing = try await Self.send(server, "POST", "/auth/refresh", json: #"{"refreshToken": "\#(pair.refreshToken!)"}"#)
            #expect(racing.status == 200) // a second renewal in flight gets the same new pair
            try await Self.advance(server, project, 600)
            try await sdk.renewTokens() // the SDK renews with the newest token
            _ = try await sdk.getCurrentUserInfo()

            // The answer of a renewal is lost: the SDK still holds the old token, and the next launch renews with it.
            let lost = try await admin.mintTokens(userId: 2)
            try await Self.fault(server, project, "POST", "/api/v1/auth/refresh", .closeAfterHeaders)
            await #expect(throws: UnderstudyClientError.self) { try await Self.session(server, lost).renewTokens() }
            try await Self.advance(server, project, 600)
            await #expect(throws: UnderstudyClientError.self) { try await Self.session(server, lost).renewTokens() }
            #expect(try await Self.findings(server, project).isEmpty)

            // The app kept the tokens of its login and starts a session with them again.
            let stale = Self.session(server, pair)
            await #expect { try await stale.renewTokens() } throws: { TelematicsFixture.errorCode($0)! == (401, "REFRESH_TOKEN_REJECTED") }
            let found = try await Self.findings(server, project)
            #expect(found.map(\.rule) == ["telematics.refresh-token-reused"])
            #expect(found.first?.device == "1" && found.first?.severity == "error" && found.first?.requests.count == 2 && found.first?.count == 1)
        }
    }

    @Test("telematics.session-used-after-invalidation: new tokens after an expired refresh token raise nothing; the old ones again one finding")
    func sessionUsedAfterRefreshRefused() async throws {
        try await Self.with { server, project, admin in
            let pair = try await admin.mintTokens(userId: 3, accessTtlSeconds: 60, refreshTtlSeconds: 120)
            let sdk = Self.session(server, pair)
            try await sdk.initSDK()
            try await Self.advance(server, project, 121)
            await #expect { try await sdk.getCurrentUserInfo() } throws: { TelematicsFixture.errorCode($0)! == (401, "REFRESH_TOKEN_EXPIRED") }
            #expect(await sdk.invalidations == [.refreshTokenExpired])
            // A request already on its way when the session ended.
            #expect(try await Self.send(server, "GET", "/trips", bearer: pair.token).status == 401)
            try await Self.advance(server, project, 30)
            let restored = Self.session(server, try await admin.mintTokens(userId: 3)) // new tokens from the app's backend
            try await restored.initSDK()
            #expect(try await Self.findings(server, project).isEmpty)

            try await Self.advance(server, project, 30)
            #expect(try await Self.send(server, "GET", "/users/me", bearer: pair.token).status == 401)
            let found = try await Self.findings(server, project)
            #expect(found.map(\.rule) == ["telematics.session-used-after-invalidation"])
            #expect(found.first?.device == "3" && found.first?.severity == "error" && found.first?.requests.count == 2 && found.first?.count == 1)
        }
    }

    @Test("telematics.session-used-after-invalidation: an access token rejected without a refresh token ends the session; using it again one finding")
    func sessionUsedAfterAccessTokenRejected() async throws {
        try await Self.with { server, project, admin in
            // With a refresh token, a rejected access token is renewed: nothing ends.
            let renewable = Self.session(server, try await admin.mintTokens(userId: 4, accessTtlSeconds: 60))
            try await renewable.initSDK()
            try await Self.advance(server, project, 61)
            _ = try await renewable.getCurrentUserInfo()
            #expect(await renewable.refreshCount == 1)

            let pair = try await admin.mintTokens(userId: 5, accessTtlSeconds: 60, withRefreshToken: false)
            let sdk = Self.session(server, pair)
            try await sdk.initSDK()
            try await Self.advance(server, project, 61)
            await #expect { try await sdk.getCurrentUserInfo() } throws: { TelematicsFixture.errorCode($0)! == (401, "ACCESS_TOKEN_REJECTED") }
            #expect(await sdk.invalidations == [.accessTokenRejected])
            #expect(try await Self.findings(server, project).isEmpty)

            try await Self.advance(server, project, 3_600) // the next launch, with the same token
            await #expect(throws: UnderstudyClientError.self) { try await Self.session(server, pair).initSDK() }
            let found = try await Self.findings(server, project)
            #expect(found.map(\.rule) == ["telematics.session-used-after-invalidation"])
            #expect(found.first?.device == "5" && found.first?.requests.count == 2 && found.first?.count == 1)
        }
    }

    @Test("telematics.vehicle-code-not-in-catalogue: codes from the catalogues raise nothing; a code of the app's own one finding")
    func vehicleCodeNotInCatalogue() async throws {
        try await Self.with { server, project, admin in
            let sdk = Self.session(server, try await admin.mintTokens(userId: 6))
            try await sdk.initSDK()
            let types = try await sdk.getVehicleTypes(), fuels = try await sdk.getFuelTypes(), reasons = try await sdk.getAddVehicleReasons()
            try await sdk.setVehicle(plate: "AA-00-01", internalPlate: nil, type: types.values.min()!, addReason: reasons.values.min()!, fuelType: fuels.values.min()!)
            #expect(try await Self.findings(server, project).isEmpty)

            await #expect { try await sdk.setVehicle(plate: "AA-00-02", internalPlate: nil, type: 99, addReason: reasons.values.min()!, fuelType: fuels.values.min()!) } throws: {
                TelematicsFixture.errorCode($0)! == (422, "UNKNOWN_VEHICLE_TYPE")
            }
            let found = try await Self.findings(server, project)
            #expect(found.map(\.rule) == ["telematics.vehicle-code-not-in-catalogue"])
            #expect(found.first?.device == "6" && found.first?.severity == "error" && found.first?.requests.count == 1)
            #expect(found.first?.whatTheAppDid.contains("`type`") == true)
        }
    }

    @Test("telematics.kilometers-without-vehicle: kilometers after setVehicle raise nothing; before it one finding")
    func kilometersWithoutVehicle() async throws {
        try await Self.with { server, project, admin in
            let sdk = Self.session(server, try await admin.mintTokens(userId: 7))
            try await sdk.initSDK()
            try await sdk.setVehicle(plate: "BB-00-01", internalPlate: nil, type: 1, addReason: 1, fuelType: 1)
            try await sdk.reportKilometers(kilometers: 1200, observations: "Routine check")
            try await sdk.correctKilometers(kilometers: 1210, correctionCount: 1)
            #expect(try await Self.findings(server, project).isEmpty)

            let other = Self.session(server, try await admin.mintTokens(userId: 8))
            try await other.initSDK()
            await #expect { try await other.reportKilometers(kilometers: 500) } throws: { TelematicsFixture.errorCode($0)! == (404, "NO_CURRENT_VEHICLE") }
            let found = try await Self.findings(server, project)
            #expect(found.map(\.rule) == ["telematics.kilometers-without-vehicle"])
            #expect(found.first?.device == "8" && found.first?.severity == "error" && found.first?.requests.count == 1)
        }
    }

    @Test("telematics.batch-reuploaded: a batch sent again after its answer was lost raises nothing; after it was accepted one finding")
    func batchReuploaded() async throws {
        try await Self.with { server, project, admin in
            let sdk = Self.session(server, try await admin.mintTokens(userId: 9))
            try await sdk.initSDK()
            try await sdk.setVehicle(plate: "CC-00-01", internalPlate: nil, type: 1, addReason: 1, fuelType: 1)
            let first = TelematicsTelemetryBatch(samples: TelematicsFixture.drive(startMs: TelematicsFixture.epochMs - 120_000, count: 20))
            try await sdk.uploadTelemetry(first)
            let second = TelematicsTelemetryBatch(samples: TelematicsFixture.drive(startMs: TelematicsFixture.epochMs - 60_000, count: 20))
            try await Self.fault(server, project, "POST", "/api/v1/telemetry", .closeAfterHeaders)
            await #expect(throws: UnderstudyClientError.self) { try await sdk.uploadTelemetry(second) }
            try await Self.advance(server, project, 30)
            #expect(try await sdk.uploadTelemetry(second).duplicate == true) // stored, but the SDK never heard so
            #expect(try await Self.findings(server, project).isEmpty)

            try await Self.advance(server, project, 30)
            #expect(try await sdk.uploadTelemetry(first).duplicate == true)
            let found = try await Self.findings(server, project)
            #expect(found.map(\.rule) == ["telematics.batch-reuploaded"])
            #expect(found.first?.device == "9" && found.first?.severity == "warning" && found.first?.requests.count == 2)
        }
    }
}
