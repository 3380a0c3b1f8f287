import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// What running the real SDKs against the server showed: key format, impossible slugs,
/// constraint failures, and the confidence an offset-only client gets.
@Suite("WarpLink wire fidelity")
struct WarpLinkWireFidelityTests {
    /// Runs `body` against a fresh harness; the server is stopped whether or not `body` throws.
    private static func withHarness(_ body: (WarpLinkHarness) async throws -> Void) async throws {
        try await WarpLinkHarness.with(body)
    }

    /// The 1.1 SDKs' local key check: `wl_live_` + 32 alphanumerics.
    private static func passesSDK11Check(_ key: String) -> Bool {
        key.range(of: "^wl_live_[a-zA-Z0-9]{32}$", options: .regularExpression) != nil
    }

    /// Signs of SQL in a body: SQLite's own words and table names in any case, statement keywords
    /// in upper case (a message may well say "delete them first").
    private static func sqlMarkers(in text: String) -> [String] {
        ["sqlite", "constraint failed", "warplink_"].filter { text.range(of: $0, options: .caseInsensitive) != nil }
            + ["INSERT", "SELECT", "UPDATE", "DELETE", "WHERE", "VALUES"].filter { text.contains($0) }
    }

    /// An error answer: a 4xx whose body shows no SQL, no SQLite message and no table name.
    private static func expectCleanError(
        _ response: ClientResponse, status: Int, _ label: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(response.status == status, "\(label): \(response.status) \(response.text)", sourceLocation: sourceLocation)
        let markers = sqlMarkers(in: response.text)
        #expect(markers.isEmpty, "\(label) shows \(markers): \(response.text)", sourceLocation: sourceLocation)
    }

    /// A control-plane request under `/__admin/projects/{id}/warplink` with a raw JSON body.
    private static func admin(_ h: WarpLinkHarness, _ method: String, _ path: String, _ json: String? = nil) async throws -> ClientResponse {
        try await h.server.client.admin.raw(
            ClientRequest(
                method: method, path: "/__admin/projects/\(h.project.id)/warplink" + path,
                headers: json == nil ? [:] : ["Content-Type": "application/json"],
                body: json.map { Data($0.utf8) }))
    }

    private static func randomKey(_ prefix: String = "wl_live_") -> String {
        prefix + (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").prefix(32)
    }

    // MARK: Keys

    @Test("generated SDK and API keys are wl_live_ keys; an explicitly seeded wl_test_ key still validates and resolves")
    func generatedKeysAreLive() async throws {
        try await Self.withHarness { h in
            #expect(Self.passesSDK11Check(h.sdkKey), "\(h.sdkKey)")
            #expect(Self.passesSDK11Check(h.apiKey), "\(h.apiKey)")
            #expect(h.project.sdkSettings["warplink"]?["apiKey"] == h.sdkKey)
            let generated = try await h.admin.createKey(kind: "sdk")
            #expect(Self.passesSDK11Check(generated.value), "\(generated.value)")
            let generatedAPI = try await h.admin.createKey(kind: "api")
            #expect(Self.passesSDK11Check(generatedAPI.value), "\(generatedAPI.value)")

            let testKey = Self.randomKey("wl_test_")
            #expect(try await h.admin.createKey(kind: "sdk", value: testKey).value == testKey)
            #expect(try await h.warpLink.validate(apiKey: testKey).value?.valid == true)
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/t"))
            #expect(try await h.warpLink.resolve(slug: link.slug, apiKey: testKey).value?.id == link.id)
        }
    }

    @Test("the demo project's WarpLink keys (credentials and seeded keys) all pass the 1.1 SDK check")
    func demoKeysAreLive() async throws {
        let server = try await UnderstudyTestServer.start(demo: true)
        do {
            let demo = try await server.client.admin.project("demo").get()
            #expect(Self.passesSDK11Check(demo.credential("warplink", "sdkKey")))
            #expect(Self.passesSDK11Check(demo.credential("warplink", "apiKey")))
            let keys = try await server.client.warpLink.project("demo").keys()
            #expect(keys.count == 4)
            for key in keys { #expect(Self.passesSDK11Check(key.value), "\(key.value)") }
            let appKey = try #require(keys.first { $0.appID != nil && $0.state == "active" })
            #expect(try await server.client.warpLink.resolve(slug: "welcome", apiKey: appKey.value).status == 200)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }

    // MARK: Slugs

    @Test("a slug no link can have (outside the alphabet, over 128 characters) is a 404 NOT_FOUND on resolve and redirect, not a 400")
    func impossibleSlugsAreNotFound() async throws {
        try await Self.withHarness { h in
            let notFound = #"{"error":{"code":"NOT_FOUND","message":"Not found"}}"#
            for slug in ["sl%ug!", "bad!slug", "has space", "café", String(repeating: "a", count: 129), "a/b"] {
                let resolved = try await h.warpLink.resolve(slug: slug, apiKey: h.sdkKey)
                #expect(resolved.status == 404 && resolved.raw.text == notFound, "resolve \(slug): \(resolved.status) \(resolved.raw.text)")
                Self.expectCleanError(resolved.raw, status: 404, "resolve \(slug)")
                let viaPath = try await h.warpLink.tap(slug: slug)
                #expect(viaPath.status == 404 && viaPath.error?.code == "NOT_FOUND", "redirect \(slug): \(viaPath.status)")
                let viaHost = try await h.warpLink.tap(slug: slug, host: "aplnk.to")
                #expect(viaHost.status == 404 && viaHost.error?.code == "NOT_FOUND", "Host redirect \(slug): \(viaHost.status)")
            }
            // The longest possible slug is still a slug.
            let longest = String(repeating: "a", count: 120) + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(8).lowercased()
            #expect(longest.count == 128)
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: longest, destinationURL: "https://example.com/long"))
            #expect(try await h.warpLink.resolve(slug: longest, apiKey: h.sdkKey).value?.id == link.id)
            #expect(try await h.warpLink.tap(slug: longest).location == "https://example.com/long")
            // Bad params on a real slug are still the 400 they were.
            #expect(try await h.warpLink.resolve(slug: longest, tappedQuery: "a=%ZZ", apiKey: h.sdkKey).status == 400)
        }
    }

    // MARK: Constraint failures

    @Test("seeding an install with an existing id is a 409 conflict in the admin format, and stores nothing")
    func duplicateInstallIsConflict() async throws {
        try await Self.withHarness { h in
            let id = UUID().uuidString.lowercased()
            let body = #"{"id":"\#(id)","device_id":"\#(UUID().uuidString)","platform":"ios"}"#
            #expect(try await Self.admin(h, "POST", "/installs", body).status == 201)
            let again = try await Self.admin(h, "POST", "/installs", body)
            Self.expectCleanError(again, status: 409, "duplicate install")
            #expect(try again.decode(AnyJSON.self)["error"]?["code"] == "conflict")
            let upper = try await Self.admin(h, "POST", "/installs", body.replacingOccurrences(of: id, with: id.uppercased()))
            Self.expectCleanError(upper, status: 409, "duplicate install, upper-case id")
            #expect(try await h.admin.installs().count == 1)
        }
    }

    @Test("a project whose WarpLink credential is another project's seeded key is refused with a 409 that shows no SQL")
    func credentialHeldByAnotherProject() async throws {
        try await Self.withHarness { h in
            let taken = Self.randomKey()
            _ = try await h.admin.createKey(kind: "sdk", value: taken)
            let body = #"{"name":"clash","credentials":{"warplink":{"sdkKey":"\#(taken)"}}}"#
            let response = try await h.server.client.admin.raw(
                ClientRequest(
                    method: "POST", path: "/__admin/projects",
                    headers: ["Content-Type": "application/json"], body: Data(body.utf8)))
            Self.expectCleanError(response, status: 409, "credential held by another project")
            #expect(try await h.server.client.admin.projects().allSatisfy { $0.name != "clash" })
            #expect(try await h.warpLink.validate(apiKey: taken).value?.valid == true)
        }
    }

    @Test("no error answer of the control plane or the SDK routes shows SQL, SQLite messages or table names")
    func errorBodiesShowNoSQL() async throws {
        try await WarpLinkHarness.with(expectingFindings: true) { h in // an API key on the deferred check, on purpose
            let app = UUID().uuidString.lowercased()
            let handle = WarpLinkHarness.slug("h")
            let link = UUID().uuidString.lowercased()
            let slug = WarpLinkHarness.slug()
            let key = Self.randomKey()
            let install = UUID().uuidString.lowercased()
            let seeds: [(String, String)] = [
                ("/apps", #"{"id":"\#(app)","name":"Shop","handle":"\#(handle)"}"#),
                ("/keys", #"{"value":"\#(key)","kind":"sdk","app_id":"\#(app)"}"#),
                ("/domains", #"{"hostname":"\#(handle).example"}"#),
                ("/links", #"{"id":"\#(link)","slug":"\#(slug)","destination_url":"https://example.com/x","app_id":"\#(app)"}"#),
                ("/installs", #"{"id":"\#(install)"}"#),
            ]
            for (path, body) in seeds { #expect(try await Self.admin(h, "POST", path, body).status == 201, "\(path)") }
            let conflicts: [(String, String, String)] = [
                ("POST", "/apps", #"{"id":"\#(app)","name":"Again","handle":"\#(WarpLinkHarness.slug("o"))"}"#),
                ("POST", "/apps", #"{"name":"Same handle","handle":"\#(handle)"}"#),
                ("POST", "/keys", #"{"value":"\#(key)"}"#),
                ("POST", "/keys", #"{"value":"\#(h.sdkKey)"}"#),
                ("POST", "/domains", #"{"hostname":"\#(handle).example"}"#),
                ("POST", "/links", #"{"id":"\#(link)","slug":"\#(WarpLinkHarness.slug())","destination_url":"https://example.com/y"}"#),
                ("POST", "/links", #"{"slug":"\#(slug)","destination_url":"https://example.com/z"}"#),
                ("POST", "/installs", #"{"id":"\#(install)"}"#),
                ("DELETE", "/apps/\(app)", ""),
            ]
            for (method, path, body) in conflicts {
                Self.expectCleanError(try await Self.admin(h, method, path, body.isEmpty ? nil : body), status: 409, "\(method) \(path) \(body)")
            }
            let invalid: [(String, String)] = [
                ("/installs", #"{"id":"not-a-uuid"}"#), ("/installs", #"{"id":7}"#), ("/installs", "{"),
                ("/keys", #"{"value":"wl_live_short"}"#), ("/links", #"{"slug":"has space","destination_url":"https://example.com"}"#),
            ]
            for (path, body) in invalid { Self.expectCleanError(try await Self.admin(h, "POST", path, body), status: 400, "POST \(path) \(body)") }

            let badJSON = try await h.warpLink.matchAttribution(rawBody: Data("{".utf8), apiKey: h.sdkKey)
            Self.expectCleanError(badJSON.raw, status: 400, "attribution with a broken body")
            let apiKeyMatch = try await h.warpLink.matchAttribution(WarpLinkAttributionRequest(), apiKey: h.apiKey)
            Self.expectCleanError(apiKeyMatch.raw, status: 403, "attribution with the API key")
            Self.expectCleanError(try await h.warpLink.validate(apiKey: Self.randomKey()).raw, status: 401, "unknown key")
            Self.expectCleanError(try await h.warpLink.resolve(slug: "x!", apiKey: h.sdkKey).raw, status: 404, "impossible slug")
        }
    }

    // MARK: Confidence of an offset-only client

    @Test("a client that sends only a UTC offset (iOS, or the iOS SDK on Linux) matches at 0.80 × 0.6 = 0.48 on loopback; language and zone come from the body")
    func offsetOnlyClient() async throws {
        try await Self.withHarness { h in
            try await h.freeze("2026-06-01T12:00:00.000Z") // Paris is UTC+2: JS offset -120
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/fr", iosURL: "shop://fr"))
            #expect(try await h.warpLink.tap(slug: link.slug, acceptLanguage: "fr-FR,fr;q=0.9", timeZone: "Europe/Paris").status == 302)
            _ = try await h.projectAdmin.advanceClock(by: 10 * 60)

            func match(bodyLanguage: String, headerLanguage: String) async throws -> AnyJSON {
                // The iOS SDK's body: preferred languages joined by commas, the offset, no zone name.
                let body = #"{"platform":"ios","sdk_version":"1.0.1","fingerprint_version":"enriched","accept_language":"\#(bodyLanguage)","timezone_offset":-120}"#
                let response = try await h.server.client.send(
                    ClientRequest(
                        method: "POST", path: "/warplink/v1/attribution/match",
                        headers: [
                            "Authorization": "Bearer " + h.sdkKey, "Content-Type": "application/json",
                            "Accept-Language": headerLanguage, "User-Agent": "WarpLink-iOS/1.0.1",
                        ],
                        body: Data(body.utf8)))
                #expect(response.status == 200, "\(response.text)")
                return try response.decode(AnyJSON.self)
            }
            // The HTTP header says French, the body English: the body decides, so no match.
            #expect(try await match(bodyLanguage: "en-US,en", headerLanguage: "fr-FR,fr;q=0.9")["matched"] == false)
            // The body says French (the header English): the offset bucket matches.
            let matched = try await match(bodyLanguage: "fr-FR,fr", headerLanguage: "en-US,en;q=0.9")
            #expect(matched["matched"] == true && matched["match_type"] == "probabilistic" && matched["link_id"] == .string(link.id))
            #expect(matched["match_confidence"]?.double == 0.48, "\(matched)")
            #expect(matched["deep_link_url"] == "shop://fr")
        }
    }
}
