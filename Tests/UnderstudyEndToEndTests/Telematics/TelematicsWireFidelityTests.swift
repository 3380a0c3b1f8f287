import EmulatorCore
import Foundation
import TelematicsEmulator
import Testing
import UnderstudyClient
import UnderstudyTesting

@testable import UnderstudyServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where Understudy must match what the Telematics SDK and its users actually send and read:
/// date offsets as Foundation encodes them, repeated uploads, the demo's SDK settings, the idle
/// rule for seeded periods, and settings that cannot be read.
@Suite("Telematics wire fidelity")
struct TelematicsWireFidelityTests {
    /// A GET of `path` (below the API root) with `query` encoded by `URLQueryItem`, as an SDK built on Foundation does.
    /// With `encodedQuery`, that query is sent exactly as given instead.
    static func foundationGET(
        _ server: UnderstudyTestServer, _ token: String, _ path: String, _ query: [URLQueryItem] = [],
        encodedQuery: String? = nil
    ) async throws -> (status: Int, body: JSONValue, url: String) {
        var components = URLComponents(string: server.client.telematics.baseURL + "/api/v1" + path)
        if let encodedQuery { components?.percentEncodedQuery = encodedQuery } else { components?.queryItems = query }
        let url = try #require(components?.url)
        var request = URLRequest(url: url)
        request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, try JSONValue.parse(data), url.absoluteString)
    }

    @Test("a date with a literal + offset, as URLQueryItem sends it, is read as the offset")
    func plusOffsetInDates() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let pair = try await admin.mintTokens(userId: 7)
            // 2026-11-03 00:30Z and 02:30Z; 09:00+09:00 is 00:00Z and 10:00+09:00 is 01:00Z.
            for (start, end) in [("2026-11-03T00:30:00Z", "2026-11-03T00:50:00Z"), ("2026-11-03T02:30:00Z", "2026-11-03T02:50:00Z")] {
                _ = try await admin.seedTrip(["userId": 7, "startedAt": .string(start), "endedAt": .string(end), "distanceKm": 10])
            }
            let range = [URLQueryItem(name: "startTs", value: "2026-11-03T09:00:00+09:00"), URLQueryItem(name: "endTs", value: "2026-11-03T10:00:00+09:00")]
            let trips = try await Self.foundationGET(server, pair.token, "/trips", range)
            #expect(trips.url.contains("+09:00"), "Foundation sends the plus sign unescaped: \(trips.url)")
            #expect(trips.status == 200, "\(trips.body)")
            #expect(trips.body.arrayValue?.map { $0["startedAt"] } == ["2026-11-03T00:30:00.000000Z"])
            let metrics = try await Self.foundationGET(server, pair.token, "/metrics/summary", range)
            #expect(metrics.status == 200 && metrics.body["from"] == "2026-11-03T00:00:00.000000Z" && metrics.body["to"] == "2026-11-03T01:00:00.000000Z")
            let periods = try await Self.foundationGET(server, pair.token, "/telematics-periods", [URLQueryItem(name: "startTs", value: "2026-11-03T11:00:00+09:00")])
            #expect(periods.status == 200 && periods.body["totalItems"] == 1)
            // A percent-encoded plus means the same; an offset with a space is still no date.
            let escaped = try await Self.foundationGET(server, pair.token, "/trips", encodedQuery: "from=2026-11-03T11:00:00%2B09:00")
            #expect(escaped.status == 200 && escaped.body.arrayValue?.count == 1)
            let spaced = try await Self.foundationGET(server, pair.token, "/trips", [URLQueryItem(name: "startTs", value: "2026-11-03T09:00:00 09:00")])
            #expect(spaced.status == 400 && spaced.body["code"] == "INVALID_DATE")
        }
    }

    @Test("a repeated attention-event batch answers 200 with every event counted as a duplicate; a partly new one stays 202")
    func repeatedAttentionBatch() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let sdk = server.client.telematics.session(try await admin.mintTokens(userId: 7), deviceClock: { TelematicsFixture.epochDate })
            let events = [
                TelematicsAttentionEvent(startTimestampMs: TelematicsFixture.epochMs, confidence: 0.8),
                TelematicsAttentionEvent(startTimestampMs: TelematicsFixture.epochMs + 5_000, confidence: 0.6),
            ]
            let token = try await admin.mintTokens(userId: 7).token
            func upload(_ events: [TelematicsAttentionEvent]) async throws -> (status: Int, body: JSONValue) {
                var request = URLRequest(url: try #require(URL(string: server.client.telematics.baseURL + "/api/v1/attention-events")))
                request.httpMethod = "POST"
                request.httpBody = try JSONEncoder().encode(["events": events])
                request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization")
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                let (data, response) = try await URLSession.shared.data(for: request)
                return ((response as? HTTPURLResponse)?.statusCode ?? 0, try JSONValue.parse(data))
            }
            let first = try await upload(events)
            #expect(first.status == 202 && first.body == ["accepted": 2, "duplicates": 0])
            let repeated = try await upload(events)
            #expect(repeated.status == 200 && repeated.body == ["accepted": 0, "duplicates": 2])
            // One new event among repeats is not a retry.
            let mixed = try await upload(events + [TelematicsAttentionEvent(startTimestampMs: TelematicsFixture.epochMs + 10_000, confidence: 0.5)])
            #expect(mixed.status == 202 && mixed.body == ["accepted": 1, "duplicates": 2])
            // The client library takes both answers.
            let again = try await sdk.uploadAttentionEvents(events)
            #expect(again.accepted == 0 && again.duplicates == 2)
            let stored = try await admin.attentionEvents(userId: 7)["events"]?.array ?? []
            // Stored once each; the two first events were repeated by the last three uploads.
            #expect(stored.compactMap { $0["duplicateCount"]?.int }.sorted() == [0, 3, 3])
        }
    }

    @Test("the demo's SDK settings and banner give TelematicsTokenInitOptions a working pair, and no tenant key")
    func demoSDKSettings() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let demo = try await server.client.admin.project("demo").get()
            let settings = try #require(demo.sdkSettings["telematics"])
            #expect(settings["tenantKey"] == nil && !settings.values.contains(demo.credentials["telematics"]?["tenantKey"] ?? "-"))
            #expect(settings["baseURL"] == server.client.telematics.baseURL)
            let token = try #require(settings["token"]), refreshToken = try #require(settings["refreshToken"])
            let sdk = server.client.telematics.session(TelematicsTokenInitOptions(baseURL: settings["baseURL"] ?? "", token: token, refreshToken: refreshToken))
            #expect(try await sdk.initSDK().userName == "Ana Silva")
            try await sdk.renewTokens() // the refresh token works too

            let record = try #require(try await server.server.emulator.projects.list().first(where: \.isDemo))
            let banner = StartupBanner(project: record, platforms: server.server.emulator.platforms, addresses: server.server.emulator.services.addresses).text
            // The telematics section: its first line names it, the next lines are indented under it.
            let lines = banner.split(separator: "\n")
            let start = try #require(lines.firstIndex { $0.hasPrefix("  telematics ") })
            let section = [lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix("                ") }
            #expect(section.contains { $0.hasSuffix("token=\(token)") } && section.contains { $0.hasSuffix("refreshToken=\(refreshToken)") })
            #expect(section.contains { $0.contains("not an SDK setting: tenantKey=") })
            #expect(!section.contains { $0.contains("tenantKey") && !$0.contains("not an SDK setting") })

            // A reset reloads the fixtures over the kept credentials: the same pair works again.
            let reset = try await server.client.admin.project("demo").reset()
            #expect(reset.sdkSettings["telematics"]?["token"] == token)
            #expect(try await server.client.telematics.session(TelematicsTokenInitOptions(baseURL: settings["baseURL"] ?? "", token: token)).initSDK().userId == 1001)
        }
    }

    @Test("a project without a demo session shows only baseURL and serviceCode")
    func plainProjectSDKSettings() async throws {
        try await TelematicsFixture.with { server, project, _ in
            #expect(Set(project.sdkSettings["telematics"].map { Array($0.keys) } ?? []) == ["baseURL", "serviceCode"])
        }
    }

    @Test("a seeded open period closes by the idle rule, 600 s after its start on the project clock")
    func seededOpenPeriodIdles() async throws {
        try await TelematicsFixture.with { server, project, admin in
            let sdk = server.client.telematics.session(try await admin.mintTokens(userId: 7), deviceClock: { TelematicsFixture.epochDate })
            // Started 5 minutes before the frozen 12:00: open until 12:05.
            let seeded = try await admin.seedPeriods(userId: 7, startedAt: "2026-11-03T11:55:00Z", endedAt: nil)
            #expect(seeded.count == 1 && seeded[0].endedAt == nil)
            #expect(try await sdk.getTelematicsPeriod(id: seeded[0].id).endedAt == nil)
            _ = try await server.client.admin.project(project.id).advanceClock(by: 301)
            let closed = try await sdk.getTelematicsPeriod(id: seeded[0].id)
            #expect(closed.endedAt == closed.startedAt && closed.isProcessed && closed.tripCount == 0)
            // One started long before the clock is idle at once.
            let old = try await admin.seedPeriods(userId: 7, startedAt: "2026-11-03T08:00:00Z", endedAt: nil)
            #expect(try await sdk.getTelematicsPeriods(isProcessed: false).items.contains { $0.id == old[0].id } == false)
        }
    }

    @Test("stored settings that no longer read are a 503, on the SDK routes and the control plane; a PATCH repairs them")
    func unreadableStoredSettings() async throws {
        try await TelematicsFixture.with { server, project, admin in
            let sdk = server.client.telematics.session(try await admin.mintTokens(userId: 7), deviceClock: { TelematicsFixture.epochDate })
            _ = try await admin.updateSettings(["tripGapSeconds": 120])
            let projectID = project.id
            // As if written by another version or by hand: a setting of the wrong type.
            try await server.server.emulator.services.database.write { connection in
                try connection.run("UPDATE telematics_settings SET settings = ? WHERE project_id = ?", #"{"tripGapSeconds": "soon"}"#, projectID)
            }
            await #expect { try await sdk.getFuelTypes() } throws: { TelematicsFixture.errorCode($0).map { $0 == (503, "SERVICE_UNAVAILABLE") } ?? false }
            let read = try await admin.raw("GET", "/settings")
            #expect(read.status == 503 && read.text.contains("storage_unavailable") && read.text.contains("tripGapSeconds"))
            // A change of another key cannot be blamed for the stored one: still 503, not 400.
            #expect(try await admin.raw("PATCH", "/settings", json: ["rotationGraceSeconds": 30]).status == 503)
            #expect(try await admin.raw("PATCH", "/settings", json: ["tripGapSeconds": "later"]).status == 400)
            #expect(try await admin.raw("PATCH", "/settings", json: ["tripGapSeconds": .null]).status == 200)
            #expect(try await sdk.getFuelTypes()["Diesel"] == 1)
        }
    }

    @Test("a telematics configuration section the server cannot use stops it from starting, naming the setting")
    func configurationChecked() async throws {
        let sections: [(JSONValue, String)] = [
            (["settings": ["tripGapSeconds": "soon"]], "tripGapSeconds"),
            (["settings": ["tripGapSeconds": -5]], "tripGapSeconds must be positive"),
            (["settings": ["tripGap": 5]], "telematics.settings.tripGap"),
            (["hosts": "telematics.example.com"], "telematics.hosts"),
            (["apiRoot": "api/v1"], "telematics.apiRoot"),
            (["rotation": "fixed"], "telematics.rotation"),
        ]
        for (section, named) in sections {
            do {
                let server = try await UnderstudyTestServer.start { $0.platforms[.telematics] = section }
                await server.stop()
                Issue.record("started with \(section)")
            } catch let error as TelematicsConfigurationError {
                #expect(error.description.contains(named), "\(error)")
            }
        }
        let server = try await UnderstudyTestServer.start { $0.platforms[.telematics] = ["settings": ["tripGapSeconds": 120], "apiRoot": "/api/v1"] }
        await server.stop()
    }
}
