import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("WarpLink validate and resolve")
struct WarpLinkResolveTests {
    @Test("validate: SDK and API keys are valid with aplnk.to, the app handle and verified custom domains; revoked and unknown keys get 401")
    func validate() async throws {
        try await WarpLinkHarness.with(expectingFindings: true) { h in // an API key on validate, on purpose
            let app = try await h.admin.createApp(name: "Shop", handle: "shop-\(WarpLinkHarness.slug("h"))", androidPackageName: "com.example.shop")
            _ = try await h.admin.addDomain("links.shop.example")
            _ = try await h.admin.addDomain("old.shop.example", state: "suspended")

            let valid = try await h.warpLink.validate(apiKey: h.sdkKey)
            #expect(valid.status == 200)
            #expect(try valid.get() == WarpLinkValidation(valid: true, domains: ["aplnk.to", app.domain, "links.shop.example"]))
            #expect(valid.raw.headers["x-ratelimit-limit"] == "60")
            #expect(try await h.warpLink.validate(apiKey: h.apiKey).value?.valid == true)
            _ = try await h.admin.addDomain("more.shop.example")
            #expect(
                try await h.warpLink.validate(apiKey: h.sdkKey).value?.domains == ["aplnk.to", app.domain, "links.shop.example", "more.shop.example"],
                "a domain added after a validate shows in the next one")

            let revoked = try await h.admin.createKey()
            _ = try await h.admin.revokeKey(revoked.value)
            let rejected = try await h.warpLink.validate(apiKey: revoked.value)
            #expect(rejected.status == 401)
            #expect(rejected.error?.code == "UNAUTHORIZED" && rejected.error?.message == "Invalid API key")
            #expect(try await h.warpLink.validate(apiKey: "wl_test_" + String(repeating: "z", count: 32)).status == 401)
            #expect(try await h.warpLink.validate(apiKey: "wl_live_short").status == 401)
            #expect(try await h.warpLink.validate(apiKey: nil).error?.code == "UNAUTHORIZED")

            _ = try await h.admin.updateSettings(WarpLinkSettings(validateRejection: "valid_false"))
            let soft = try await h.warpLink.validate(apiKey: revoked.value)
            #expect(soft.status == 200 && soft.value == WarpLinkValidation(valid: false, domains: []))
            _ = try await h.admin.updateSettings(WarpLinkSettings(validateRejection: "403"))
            let forbidden = try await h.warpLink.validate(apiKey: revoked.value)
            #expect(forbidden.status == 403 && forbidden.error?.code == "FORBIDDEN")
        }
    }

    @Test("resolve: every Link field with explicit nulls and string ids, on /v1, without /v1 and on Host api.warplink.app")
    func resolvePlain() async throws {
        try await WarpLinkHarness.with { h in
            try await h.freeze()
            let slug = WarpLinkHarness.slug()
            let stored = try await h.admin.createLink(WarpLinkLinkSeed(slug: slug, destinationURL: "https://example.com", iosURL: "myapp://home"))
            for client in [
                h.warpLink, h.warpLink.using(basePath: "/warplink"), h.warpLink.using(basePath: "/v1", host: "api.warplink.app"),
                h.warpLink.using(basePath: "", host: "api.warplink.app"),
            ] {
                let response = try await client.resolve(slug: slug, apiKey: h.sdkKey)
                #expect(response.status == 200, "\(client.basePath) \(client.host ?? "-")")
                let json = try response.raw.json()
                #expect(json["id"]?.string == stored.id)
                #expect(json["destination_url"]?.string == "https://example.com/") // a bare origin gains its slash
                #expect(json["ios_url"]?.string == "myapp://home")
                for field in ["android_url", "ios_fallback_url", "android_fallback_url", "app_id", "expires_at"] {
                    #expect(json[field] == .null, "\(field) must be an explicit null")
                }
                #expect(json["custom_params"] == AnyJSON.object([:]))
                #expect(json["created_at"]?.string == "2026-06-01T12:00:00.000Z")
                #expect(json["short_url"]?.string == "https://aplnk.to/\(slug)")
                #expect(json["domain"]?.string == "aplnk.to" && json["slug"]?.string == slug && json["is_active"] == true)
            }
            // The request line the SDKs send: the query is exactly `domain=aplnk.to`.
            let entries = try await h.projectAdmin.waitForRequests(JournalQuery(path: "/warplink/v1/links/resolve/*"), count: 1)
            #expect(entries.requests.first?.query == "domain=aplnk.to")
        }
    }

    @Test("resolve: custom params and the doubly encoded params reshape the destination and platform URLs (A1.1 pinned example)")
    func resolveParams() async throws {
        try await WarpLinkHarness.with { h in
            let slug = "abc123"
            _ = try await h.admin.createLink(
                WarpLinkLinkSeed(
                    slug: slug, destinationURL: "https://shop.example.com/p?ref=link&note=stored", iosURL: "shop://product/1",
                    androidURL: "shop://product/1?src=app", customParams: ["product_id": "42", "promo": true]))
            let tapped = "note=a%20b&pct=100%25&both=x%26y&email=a%2Bb%40x.com&next=%2Fp%3Fa%3D1%26b%3D2"
            let response = try await h.warpLink.resolve(slug: slug, tappedQuery: tapped, apiKey: h.sdkKey)
            let link = try response.get()
            let expectedParams: [String: AnyJSON] = [
                "ref": "link", "note": "a b", "product_id": "42", "promo": "true", "pct": "100%",
                "both": "x&y", "email": "a+b@x.com", "next": "/p?a=1&b=2",
            ]
            #expect(link.customParams == expectedParams)
            let query = "ref=link&note=a+b&product_id=42&promo=true&pct=100%25&both=x%26y&email=a%2Bb%40x.com&next=%2Fp%3Fa%3D1%26b%3D2"
            #expect(link.destinationURL == "https://shop.example.com/p?" + query)
            #expect(link.iosURL == "shop://product/1?" + query)
            #expect(link.androidURL == "shop://product/1?src=app&" + query)
            // The wire query is the pinned A1.1 request line.
            let entry = try await h.projectAdmin.waitForRequests(JournalQuery(path: "/warplink/v1/links/resolve/abc123"), count: 1).requests[0]
            #expect(entry.query == "domain=aplnk.to&params=note%3Da%2520b%26pct%3D100%2525%26both%3Dx%2526y%26email%3Da%252Bb%2540x.com%26next%3D%252Fp%253Fa%253D1%2526b%253D2")

            // Without params the stored custom params alone are the set; a resolve answers the same
            // again, params after it are still applied, and the clicks record the shaped URLs of each.
            let plainQuery = "ref=link&note=stored&product_id=42&promo=true"
            for _ in 0..<2 {
                let plain = try await h.warpLink.resolve(slug: slug, apiKey: h.sdkKey).get()
                #expect(plain.customParams == ["ref": "link", "note": "stored", "product_id": "42", "promo": "true"])
                #expect(plain.destinationURL == "https://shop.example.com/p?" + plainQuery)
            }
            #expect(try await h.warpLink.resolve(slug: slug, tappedQuery: "note=late", apiKey: h.sdkKey).get().customParams["note"] == "late")
            let clicks = try await h.admin.clicks(source: "resolve")
            #expect(
                clicks.map(\.destinationURL) == [
                    "https://shop.example.com/p?ref=link&note=late&product_id=42&promo=true",
                    "https://shop.example.com/p?" + plainQuery, "https://shop.example.com/p?" + plainQuery,
                    "https://shop.example.com/p?" + query,
                ], "newest first")
        }
    }

    @Test("resolve: password 403, missing 404, inactive 404, expired 410, other app 404, suspended domain 404, API key without links:read 403")
    func resolveErrors() async throws {
        try await WarpLinkHarness.with(expectingFindings: true) { h in // API keys on resolve, on purpose
            try await h.freeze()
            let secret = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/s", password: "hunter2"))
            let password = try await h.warpLink.resolve(slug: secret.slug, apiKey: h.sdkKey)
            #expect(password.status == 403)
            #expect(password.raw.text == #"{"error":{"code":"PASSWORD_REQUIRED","message":"This link is password protected."}}"#)

            let missing = try await h.warpLink.resolve(slug: "nope", apiKey: h.sdkKey)
            #expect(missing.status == 404 && missing.error?.code == "NOT_FOUND")

            let inactive = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/i", isActive: false))
            #expect(try await h.warpLink.resolve(slug: inactive.slug, apiKey: h.sdkKey).status == 404)

            let expiring = try await h.admin.createLink(
                WarpLinkLinkSeed(
                    slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/x",
                    password: "pw", expiresAt: "2026-06-01T13:00:00.000Z"))
            #expect(try await h.warpLink.resolve(slug: expiring.slug, apiKey: h.sdkKey).status == 403)
            _ = try await h.projectAdmin.advanceClock(by: 3600)
            let expired = try await h.warpLink.resolve(slug: expiring.slug, apiKey: h.sdkKey)
            #expect(expired.status == 410 && expired.error?.code == "GONE") // expired wins over the password prompt

            let appA = try await h.admin.createApp(name: "A", handle: WarpLinkHarness.slug("a"))
            let appB = try await h.admin.createApp(name: "B", handle: WarpLinkHarness.slug("b"))
            let linkB = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/b", appID: appB.id))
            let keyA = try await h.admin.createKey(appID: appA.id)
            #expect(try await h.warpLink.resolve(slug: linkB.slug, apiKey: keyA.value).status == 404)
            #expect(try await h.warpLink.resolve(slug: linkB.slug, apiKey: h.sdkKey).status == 200)

            _ = try await h.admin.addDomain("go.brand.example")
            let custom = try await h.admin.createLink(WarpLinkLinkSeed(slug: "abc123", domain: "go.brand.example", destinationURL: "https://brand.example/x"))
            #expect(try await h.warpLink.resolve(slug: "abc123", domain: "go.brand.example", apiKey: h.sdkKey).value?.id == custom.id)
            #expect(try await h.warpLink.resolve(slug: "abc123", domain: "GO.Brand.example", apiKey: h.sdkKey).status == 200)
            #expect(try await h.warpLink.resolve(slug: "abc123", apiKey: h.sdkKey).status == 404) // strict (domain, slug) lookup
            _ = try await h.admin.suspendDomain("go.brand.example")
            #expect(try await h.warpLink.resolve(slug: "abc123", domain: "go.brand.example", apiKey: h.sdkKey).status == 404)

            let writer = try await h.admin.createKey(kind: "api", scopes: ["links:write"])
            let scoped = try await h.warpLink.resolve(slug: linkB.slug, apiKey: writer.value)
            #expect(scoped.status == 403 && scoped.error?.code == "FORBIDDEN")
            #expect(try await h.warpLink.resolve(slug: linkB.slug, apiKey: h.apiKey).status == 200) // links:read API key

            // Only the four 200s recorded clicks; none of the refusals did.
            let clicks = try await h.admin.clicks()
            #expect(clicks.count == 4 && clicks.allSatisfy { $0.source == "resolve" }, "\(clicks)")
        }
    }

    @Test("resolve and the redirect serve a link as the control plane last left it: changed, deleted, recreated, reset")
    func linkChangesShowAtOnce() async throws {
        try await WarpLinkHarness.with { h in
            let slug = WarpLinkHarness.slug()
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: slug, destinationURL: "https://example.com/first"))
            // Twice each, so the second answer can come from what the first one kept.
            for _ in 0..<2 {
                #expect(try await h.warpLink.resolve(slug: slug, apiKey: h.sdkKey).value?.destinationURL == "https://example.com/first")
                #expect(try await h.warpLink.tap(slug: slug).location == "https://example.com/first")
            }
            _ = try await h.admin.updateLink(link.id, ["destination_url": "https://example.com/second"])
            #expect(try await h.warpLink.resolve(slug: slug, apiKey: h.sdkKey).value?.destinationURL == "https://example.com/second")
            #expect(try await h.warpLink.tap(slug: slug).location == "https://example.com/second")

            _ = try await h.admin.updateLink(link.id, ["is_active": false])
            #expect(try await h.warpLink.resolve(slug: slug, apiKey: h.sdkKey).status == 404)
            #expect(try await h.warpLink.tap(slug: slug).status == 404)

            try await h.admin.deleteLink(link.id)
            #expect(try await h.warpLink.resolve(slug: slug, apiKey: h.sdkKey).status == 404)
            let again = try await h.admin.createLink(WarpLinkLinkSeed(slug: slug, destinationURL: "https://example.com/third"))
            #expect(try await h.warpLink.resolve(slug: slug, apiKey: h.sdkKey).value?.id == again.id)
            #expect(try await h.warpLink.tap(slug: slug).location == "https://example.com/third")

            _ = try await h.projectAdmin.reset()
            #expect(try await h.warpLink.tap(slug: slug).status == 404)
        }
    }

    @Test("lenient lookup finds a link by slug alone when the slug is unique; handle domains resolve strictly")
    func lenientLookup() async throws {
        try await WarpLinkHarness.with { h in
            let app = try await h.admin.createApp(name: "Shop", handle: WarpLinkHarness.slug("h"))
            let onHandle = try await h.admin.createLink(WarpLinkLinkSeed(slug: "deal", domain: app.domain, destinationURL: "https://example.com/deal"))
            #expect(try await h.warpLink.resolve(slug: "deal", domain: app.domain, apiKey: h.sdkKey).value?.id == onHandle.id)
            #expect(try await h.warpLink.resolve(slug: "deal", apiKey: h.sdkKey).status == 404)
            _ = try await h.admin.updateSettings(WarpLinkSettings(lenientLookup: true))
            #expect(try await h.warpLink.resolve(slug: "deal", apiKey: h.sdkKey).value?.domain == app.domain)
            _ = try await h.admin.createLink(WarpLinkLinkSeed(slug: "deal", destinationURL: "https://example.com/shared"))
            _ = try await h.admin.updateSettings(WarpLinkSettings(lenientLookup: true))
            #expect(try await h.warpLink.resolve(slug: "deal", domain: "links.unknown.example", apiKey: h.sdkKey).status == 404) // two candidates
        }
    }

    @Test("resolve records one click per tap id; a 5xx twice then success is three requests with the same tap id")
    func clicksAndRetries() async throws {
        try await WarpLinkHarness.with { h in
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/r"))
            let tap = UUID().uuidString.lowercased()
            _ = try await h.projectAdmin.addFault(FaultRule(match: .init(platform: "warplink", path: "/v1/links/resolve/*"), action: .status(503), times: 2))
            var statuses: [Int] = []
            for _ in 0..<3 {
                let attempt = try await h.warpLink.resolve(slug: link.slug, apiKey: h.sdkKey, tapID: tap)
                statuses.append(attempt.status)
                if attempt.status < 500 { break }
                #expect(attempt.error?.code == "INTERNAL_ERROR") // injected faults speak WarpLink's envelope
            }
            #expect(statuses == [503, 503, 200])
            let journal = try await h.projectAdmin.waitForRequests(JournalQuery(path: "/warplink/v1/links/resolve/*"), count: 3).requests
            #expect(journal.count == 3)
            #expect(Set(journal.map { $0.requestHeaders["x-warplink-tap-id"] ?? "" }) == [tap])
            // The same tap again (a superseded or repeated attempt) bills no second click.
            #expect(try await h.warpLink.resolve(slug: link.slug, apiKey: h.sdkKey, tapID: tap).status == 200)
            let clicks = try await h.admin.clicks(linkID: link.id)
            #expect(clicks.map(\.id) == [tap] && clicks[0].tapID == tap && clicks[0].claimed == false)
            _ = try await h.warpLink.resolve(slug: link.slug, apiKey: h.sdkKey)
            #expect(try await h.admin.clicks(linkID: link.id).count == 2)
        }
    }

    @Test("click and install ids the server makes sort in the order it made them (version 7); a seeded project's are version 4 and repeat")
    func recordIDsSortByTime() async throws {
        func version(_ id: String) -> Character { Array(id)[14] }
        try await WarpLinkHarness.with { h in
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/o"))
            for round in 0..<6 {
                if round % 2 == 0 {
                    #expect(try await h.warpLink.resolve(slug: link.slug, apiKey: h.sdkKey).status == 200)
                } else {
                    #expect(try await h.warpLink.tap(slug: link.slug).status == 302)
                }
            }
            let made = try await h.admin.clicks(linkID: link.id).reversed().map(\.id) // listed newest first
            #expect(made.count == 6 && made == made.sorted() && made.allSatisfy { version($0) == "7" }, "\(made)")
            for _ in 0..<3 { _ = try await h.warpLink.matchAttribution(WarpLinkAttributionTests.androidBody(), apiKey: h.sdkKey) }
            let installs = try await h.admin.installs().reversed().map(\.installID) // listed newest first
            #expect(installs.count == 3 && installs == installs.sorted() && installs.allSatisfy { version($0) == "7" }, "\(installs)")
        }
        var seededIDs: [[String]] = []
        for _ in 0..<2 {
            try await UnderstudyTestServer.with { server in
                let project = try await server.client.admin.createProject(name: "seeded", seed: 7)
                let warpLink = server.client.warpLink
                let link = try await warpLink.project(project.id).createLink(WarpLinkLinkSeed(slug: "seeded", destinationURL: "https://example.com/s"))
                for _ in 0..<2 { _ = try await warpLink.resolve(slug: link.slug, apiKey: project.credential("warplink", "sdkKey")) }
                seededIDs.append(try await warpLink.project(project.id).clicks(linkID: link.id).map(\.id))
            }
        }
        #expect(seededIDs[0].count == 2 && seededIDs[0] == seededIDs[1] && seededIDs[0].allSatisfy { version($0) == "4" }, "\(seededIDs)")
    }

    @Test("bad input: garbled auth, bad slug characters, absurd params, unknown paths and header faults answer in WarpLink's envelope")
    func badInput() async throws {
        try await WarpLinkHarness.with { h in
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/b"))
            for header in ["Basic abc", "Bearer", "Bearer wl_test_tooshort", "Bearer wl_prod_" + String(repeating: "a", count: 32), "Bearer " + h.sdkKey + "x"] {
                let response = try await h.server.client.send(
                    ClientRequest(
                        method: "GET", path: "/warplink/v1/links/resolve/\(link.slug)",
                        query: [("domain", "aplnk.to")], headers: ["Authorization": header]))
                #expect(response.status == 401, "\(header)")
                #expect(try response.json()["error"]?["code"]?.string == "UNAUTHORIZED")
            }
            let badSlug = try await h.warpLink.resolve(slug: "sl%ug!", apiKey: h.sdkKey)
            // A slug that cannot exist is just not found: the SDK maps 404 to linkNotFound.
            #expect(badSlug.status == 404 && badSlug.error?.code == "NOT_FOUND", "\(badSlug.raw.text)")
            let absurd = try await h.warpLink.resolve(slug: link.slug, tappedQuery: (0..<150).map { "k\($0)=v" }.joined(separator: "&"), apiKey: h.sdkKey)
            #expect(absurd.status == 400 && absurd.error?.fields.first?.field == "params", "\(absurd.status) \(absurd.raw.text)")
            let malformed = try await h.warpLink.resolve(slug: link.slug, tappedQuery: "a=%ZZ", apiKey: h.sdkKey)
            #expect(malformed.status == 400 && malformed.error?.fields.first?.field == "params")
            let unknown = try await h.server.client.send(ClientRequest(method: "GET", path: "/warplink/v1/links", headers: ["Authorization": "Bearer " + h.sdkKey]))
            #expect(unknown.status == 404)
            #expect(unknown.text == #"{"error":{"code":"NOT_FOUND","message":"Not found"}}"#)
            let faulted = try await h.server.client.send(
                ClientRequest(
                    method: "GET", path: "/warplink/v1/sdk/validate",
                    headers: ["Authorization": "Bearer " + h.sdkKey, "X-Understudy-Fault": "status=429"]))
            let faultCode = try faulted.json()["error"]?["code"]?.string
            #expect(faulted.status == 429 && faultCode == "RATE_LIMIT_EXCEEDED")
            #expect(try await h.admin.clicks().isEmpty)
            let journal = try await h.projectAdmin.waitForRequests(JournalQuery(platform: "warplink", status: 400), count: 2)
            #expect(journal.requests.count >= 2)
        }
    }
}
