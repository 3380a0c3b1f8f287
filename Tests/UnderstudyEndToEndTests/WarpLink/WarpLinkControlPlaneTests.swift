import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("WarpLink control plane")
struct WarpLinkControlPlaneTests {
    @Test("demo fixtures: app, keys, custom domain and plain, custom-params, password and expired links")
    func demoFixtures() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let demo = try await server.client.admin.project("demo").get()
            let sdkKey = demo.credential("warplink", "sdkKey")
            #expect(demo.sdkSettings["warplink"]?["apiKey"] == sdkKey)
            let warpLink = server.client.warpLink
            #expect(try await warpLink.validate(apiKey: sdkKey).value?.domains == ["aplnk.to", "demo-shop.aplnk.to", "go.demo-shop.example"])
            #expect(try await warpLink.validate(apiKey: demo.credential("warplink", "apiKey")).value?.valid == true)
            #expect(try await warpLink.validate(apiKey: "wl_live_demorevoked000000000000000000000").status == 401)
            let sale = try await warpLink.resolve(slug: "spring-sale", apiKey: "wl_live_demoappkey0000000000000000000000").get()
            #expect(sale.customParams == ["season": "spring", "product_id": "sku-42", "discount": "15"])
            #expect(try await warpLink.resolve(slug: "vip", apiKey: sdkKey).error?.code == "PASSWORD_REQUIRED")
            #expect(try await warpLink.resolve(slug: "black-friday-2020", apiKey: sdkKey).status == 410)
            // The project may answer an expired link as the SDK's own error documentation describes it.
            let switched = try await warpLink.project("demo").updateSettings(WarpLinkSettings(expiredLinkStatus: 404))
            #expect(switched.expiredLinkStatus == 404)
            let notFound = try await warpLink.resolve(slug: "black-friday-2020", apiKey: sdkKey)
            #expect(notFound.status == 404 && notFound.error?.code == "NOT_FOUND")
            #expect(try await warpLink.tap(slug: "black-friday-2020", host: "aplnk.to").status == 404)
            await #expect(throws: UnderstudyClientError.self, "only 404 and 410") {
                _ = try await warpLink.project("demo").updateSettings(WarpLinkSettings(expiredLinkStatus: 418))
            }
            _ = try await warpLink.project("demo").updateSettings(WarpLinkSettings(expiredLinkStatus: 410))
            #expect(try await warpLink.resolve(slug: "black-friday-2020", apiKey: sdkKey).status == 410)
            #expect(try await warpLink.resolve(slug: "abc123", domain: "go.demo-shop.example", apiKey: sdkKey).value?.destinationURL == "https://demo-shop.example/custom")
            #expect(try await warpLink.tap(slug: "welcome", host: "demo-shop.aplnk.to").status == 404) // welcome lives on aplnk.to
            #expect(try await warpLink.tap(slug: "welcome", host: "aplnk.to").location == "https://demo-shop.example/welcome")
            let links = try await warpLink.project("demo").links()
            #expect(links.count == 5 && links.contains { $0.slug == "vip" && $0.passwordProtected })
        }
    }

    @Test("seeding: apps, keys, domains and links round-trip; bad bodies are 400s in the admin format and change nothing")
    func seeding() async throws {
        try await WarpLinkHarness.with { h in
            let app = try await h.admin.createApp(name: "Shop", handle: WarpLinkHarness.slug("shop"), iosBundleID: "com.example.shop")
            let apps = try await h.admin.apps()
            #expect(apps == [app], "\(apps) vs \(app)")
            let key = try await h.admin.createKey(kind: "api", scopes: ["links:read", "analytics:read"], name: "CI")
            #expect(key.value.hasPrefix("wl_live_") && key.value.count == 40 && key.kind == "api")
            #expect(try await h.admin.keys().count == 3) // the project's sdkKey and apiKey, plus this one
            let revoked = try await h.admin.revokeKey(key.value)
            #expect(revoked.state == "revoked" && revoked.revokedAt != nil)
            #expect(try await h.admin.restoreKey(key.value).state == "active")
            try await h.admin.deleteKey(key.value)
            #expect(try await h.warpLink.validate(apiKey: key.value).status == 401)

            let domain = try await h.admin.addDomain("Links.Shop.Example", appID: app.id)
            #expect(domain.hostname == "links.shop.example" && domain.state == "verified")
            #expect(try await h.admin.suspendDomain("links.shop.example").state == "suspended")
            #expect(try await h.admin.verifyDomain("links.shop.example").state == "verified")

            let link = try await h.admin.createLink(
                WarpLinkLinkSeed(
                    slug: "promo", domain: "links.shop.example", destinationURL: "https://shop.example/p",
                    customParams: ["a": 1], appID: app.id, tags: ["t"], password: "pw",
                    expiresAt: "2030-01-01T00:00:00Z", matchWindowHours: 12))
            #expect(link.passwordProtected && link.matchWindowHours == 12 && link.expiresAt == "2030-01-01T00:00:00.000Z")
            let cleared = try await h.admin.updateLink(link.id, ["password": .null, "expires_at": .null, "is_active": false])
            #expect(!cleared.passwordProtected && cleared.expiresAt == nil && !cleared.isActive && cleared.slug == "promo")
            let reread = try await h.admin.link(link.id)
            #expect(reread == cleared, "\(reread) vs \(cleared)")

            let bad: [(String, String, AnyJSON)] = [
                ("POST", "/links", ["destination_url": "ftp://x"]),
                ("POST", "/links", ["destination_url": "https://x.example", "slug": "has space"]),
                ("POST", "/links", ["destination_url": "https://x.example", "domain": "unknown.example"]),
                ("POST", "/links", ["destination_url": "https://x.example", "custom_params": ["nested": ["a": 1]]]),
                ("POST", "/links", ["destination_url": "https://x.example", "match_window_hours": 0]),
                ("POST", "/links", ["destination_url": "https://x.example", "expires_at": "tomorrow"]),
                ("POST", "/links", ["destination_url": "https://x.example", "colour": "red"]),
                ("POST", "/keys", ["value": "wl_test_short"]),
                ("POST", "/keys", ["kind": "api", "scopes": ["everything"]]),
                ("POST", "/domains", ["hostname": "127.0.0.1"]),
                ("POST", "/domains", ["hostname": "x.aplnk.to"]),
                ("POST", "/apps", ["name": "X", "handle": "Bad_Handle"]),
                ("POST", "/clicks", ["slug": "promo", "domain": "links.shop.example", "timezone": "Nowhere/City"]),
                ("POST", "/clicks", ["slug": "promo", "domain": "links.shop.example", "ip": "not-an-ip"]),
                ("PUT", "/settings", ["scoring": "magic"]),
                ("PUT", "/settings", ["typo": true]),
                ("PATCH", "/links/\(link.id)", ["id": "x"]),
            ]
            for (method, path, body) in bad {
                let response = try await h.projectAdmin.platformRequest("warplink", method, path, json: body)
                #expect(response.status == 400, "\(method) \(path) \(body)")
                #expect(try response.json()["error"]?["code"]?.string != nil)
            }
            let conflict = try await h.projectAdmin.platformRequest(
                "warplink", "POST", "/links", json: ["slug": "promo", "domain": "links.shop.example", "destination_url": "https://x.example"])
            #expect(conflict.status == 409)
            let linkCount = try await h.admin.links().count
            let clickCount = try await h.admin.clicks().count
            #expect(linkCount == 1 && clickCount == 0)
            let missing = try await h.projectAdmin.platformRequest("warplink", "DELETE", "/links/00000000-0000-4000-8000-000000000000")
            #expect(missing.status == 404)
            let busy = try await h.projectAdmin.platformRequest("warplink", "DELETE", "/apps/\(app.id)")
            #expect(busy.status == 409)
            try await h.admin.deleteLink(link.id)
            try await h.admin.deleteDomain("links.shop.example")
            try await h.admin.deleteApp(app.id)
            #expect(try await h.admin.apps().isEmpty)
        }
    }

    @Test("a key value belongs to one project: seeding another project's key, or creating a project over a seeded key, is a 409")
    func keyOwnership() async throws {
        try await WarpLinkHarness.with { h in
            let seeded = try await h.admin.createKey()
            let other = try await h.server.client.admin.createProject(name: "other")
            let clash = try await h.server.client.admin.project(other.id).platformRequest("warplink", "POST", "/keys", json: ["value": .string(seeded.value)])
            #expect(clash.status == 409)
            await #expect(throws: UnderstudyClientError.self) {
                _ = try await h.server.client.admin.createProject(name: "thief", credentials: ["warplink": ["sdkKey": seeded.value]])
            }
            #expect(try await h.warpLink.validate(apiKey: seeded.value).status == 200)
            #expect(try await h.server.client.warpLink.validate(apiKey: other.credential("warplink", "sdkKey")).status == 200)
        }
    }

    @Test("reset clears WarpLink state but keeps the project's keys; snapshots restore links and clicks")
    func resetAndSnapshots() async throws {
        try await WarpLinkHarness.with { h in
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/s"))
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, acceptLanguage: "en"))
            _ = try await h.projectAdmin.saveSnapshot("seeded")
            try await h.admin.deleteLink(link.id)
            try await h.projectAdmin.restoreSnapshot("seeded")
            let restoredLinks = try await h.admin.links().map(\.id)
            let restoredClicks = try await h.admin.clicks().count
            #expect(restoredLinks == [link.id] && restoredClicks == 1)
            _ = try await h.projectAdmin.reset()
            let linksAfterReset = try await h.admin.links()
            let clicksAfterReset = try await h.admin.clicks()
            #expect(linksAfterReset.isEmpty && clicksAfterReset.isEmpty)
            #expect(try await h.warpLink.validate(apiKey: h.sdkKey).value?.valid == true)
            #expect(try await h.warpLink.resolve(slug: link.slug, apiKey: h.sdkKey).status == 404)
        }
    }

    @Test("rate limit: headers always; with enforcement the 61st request in a minute is a 429 with Retry-After, and the window slides on the project clock")
    func rateLimit() async throws {
        try await WarpLinkHarness.with { h in
            try await h.freeze()
            _ = try await h.admin.updateSettings(WarpLinkSettings(enforceRateLimit: true))
            var last: WarpLinkResponse<WarpLinkValidation>?
            for _ in 0..<60 { last = try await h.warpLink.validate(apiKey: h.sdkKey) }
            #expect(last?.status == 200 && last?.raw.headers["x-ratelimit-remaining"] == "0")
            let limited = try await h.warpLink.validate(apiKey: h.sdkKey)
            #expect(limited.status == 429 && limited.error?.code == "RATE_LIMIT_EXCEEDED" && limited.raw.headers["retry-after"] == "60")
            _ = try await h.projectAdmin.advanceClock(by: 61)
            #expect(try await h.warpLink.validate(apiKey: h.sdkKey).status == 200)
        }
    }
}

/// The journal's platform filter and waits count what SDKs sent, never the test's own seeding.
@Suite("Journal platform filter and control-plane calls")
struct JournalPlatformFilterTests {
    @Test("seeding through a platform's control routes is journalled as admin: a wait for WarpLink traffic waits for the SDK")
    func seedingIsNotPlatformTraffic() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.makeProject(name: "filter")
            let admin = server.client.admin.project(project.id)
            _ = try await server.client.warpLink.project(project.id).updateSettings(WarpLinkSettings(enforceRateLimit: false))
            _ = try await server.client.warpLink.project(project.id).addDomain("go.filter.example")
            let seeding = try await admin.requests(JournalQuery(platform: "admin", limit: 10)).requests
            #expect(seeding.count >= 2 && seeding.allSatisfy { $0.path.contains("/warplink/") || $0.path.hasPrefix("/__admin") })
            #expect(try await admin.requests(JournalQuery(platform: "warplink")).requests.isEmpty, "seeding counted as WarpLink traffic")
            // A wait for WarpLink traffic is not satisfied by the seeding above…
            await #expect(throws: UnderstudyClientError.self) {
                _ = try await admin.waitForRequests(JournalQuery(platform: "warplink"), count: 1, timeoutMs: 300)
            }
            // …but by the SDK's first request.
            _ = try await server.client.warpLink.validate(apiKey: project.credential("warplink", "sdkKey"))
            let page = try await admin.waitForRequests(JournalQuery(platform: "warplink"), count: 1, timeoutMs: 10_000)
            #expect(page.requests.count == 1 && page.requests.first?.path == "/warplink/v1/sdk/validate")
            // The same through the client library's HAR export: one entry, the SDK's request.
            let har = try JSONDecoder().decode(AnyJSON.self, from: try await admin.requestsHAR(JournalQuery(platform: "warplink")))
            #expect(har["log"]?["version"] == "1.2" && har["log"]?["entries"]?.array?.count == 1)
            #expect(har["log"]?["entries"]?[0]?["request"]?["url"]?.string?.hasSuffix("/warplink/v1/sdk/validate") == true)
        }
    }
}

extension JournalPlatformFilterTests {
    @Test("a platform filter naming no platform is a 400 listing the names, in a listing and a wait")
    func misspelledPlatform() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.makeProject(name: "misspelled")
            let admin = server.client.admin.project(project.id)
            for name in ["telemtics", "WarpLink"] {
                await #expect(throws: UnderstudyClientError.self, "\(name)") { _ = try await admin.requests(JournalQuery(platform: name)) }
                await #expect(throws: UnderstudyClientError.self, "\(name)") {
                    _ = try await admin.waitForRequests(JournalQuery(platform: name), count: 1, timeoutMs: 100)
                }
            }
            for name in ["warplink", "asleep", "warrantylife", "telematics", "admin", "proxy"] {
                _ = try await admin.requests(JournalQuery(platform: name))
            }
        }
    }
}
