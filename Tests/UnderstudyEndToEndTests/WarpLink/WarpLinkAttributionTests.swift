import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@Suite("WarpLink deferred attribution")
struct WarpLinkAttributionTests {
    /// The A1.1 fingerprint-path body for a device in Toronto.
    static func androidBody(
        timezone: String? = "America/Toronto", offset: Int? = 240, language: String? = "en-US", referrer: String? = nil,
        isReinstall: Bool? = false
    ) -> WarpLinkAttributionRequest {
        WarpLinkAttributionRequest(
            platform: "android", sdkVersion: "1.1.0", fingerprintVersion: timezone == nil ? "enriched" : "enriched_tz",
            isReinstall: isReinstall, appPackageName: "com.example.shop", referrer: referrer, acceptLanguage: language,
            timezoneOffset: offset, timezone: timezone)
    }

    @Test("browser tap → install → SDK check: the redirect records the click and the first check claims it at 0.85 × 0.6 (loopback)")
    func tapThenInstall() async throws {
        try await WarpLinkHarness.with { h in
            try await h.freeze()
            let slug = WarpLinkHarness.slug()
            let link = try await h.admin.createLink(
                WarpLinkLinkSeed(
                    slug: slug, destinationURL: "https://shop.example.com/item?id=7",
                    iosURL: "shop://item/7", androidURL: "shop://item/7", customParams: ["campaign": "spring"]))
            let tap = try await h.warpLink.tap(slug: slug, query: [("utm", "mail")], acceptLanguage: "en-US,en;q=0.9", timeZone: "America/Toronto")
            #expect(tap.status == 302)
            #expect(tap.location == "https://shop.example.com/item?id=7&campaign=spring&utm=mail")
            let clicks = try await h.admin.clicks(linkID: link.id)
            #expect(clicks.count == 1)
            #expect(clicks.first?.source == "redirect" && clicks.first?.language == "en-us" && clicks.first?.timezone == "America/Toronto")
            #expect(clicks.first?.timezoneOffset == 240 && clicks.first?.ip == "127.0.0.1") // EDT in June, JS sign

            _ = try await h.projectAdmin.advanceClock(by: 20 * 60)
            let first = try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.sdkKey, tapID: UUID().uuidString.lowercased())
            let match = try first.get()
            #expect(match.matched && match.matchType == "probabilistic" && match.matchConfidence == 0.51 && match.matchGuaranteed == false)
            #expect(match.linkID == link.id && match.deepLinkURL == "shop://item/7?id=7&campaign=spring&utm=mail")
            #expect(match.destinationURL == tap.location)
            #expect(match.customParams == ["id": "7", "campaign": "spring", "utm": "mail"])
            #expect(match.installID.map { UUID(uuidString: $0) != nil } == true)

            // The claimed click is gone from the buckets: the same device asking again gets a definitive no-match.
            let second = try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.sdkKey)
            #expect(
                second.raw.text
                    == #"{"app_id":null,"custom_params":null,"deep_link_url":null,"destination_url":null,"install_id":null,"link_id":null,"match_confidence":null,"match_guaranteed":null,"match_type":null,"matched":false}"#
            )
            let installs = try await h.admin.installs()
            #expect(installs.map(\.outcome) == ["no_match", "signals"])
            #expect(installs.last?.clickID == clicks.first?.id && installs.last?.isReinstall == false)
            #expect(try await h.admin.clicks(linkID: link.id).first?.claimedBy == match.installID)

            _ = try await h.admin.updateSettings(WarpLinkSettings(noMatchStyle: "minimal"))
            #expect(try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.sdkKey).raw.text == #"{"matched":false}"#)
        }
    }

    @Test("short links on Host aplnk.to, <handle>.aplnk.to and a custom domain redirect and record clicks; 404/410/403 record none")
    func hostRouting() async throws {
        try await WarpLinkHarness.with { h in
            let handle = WarpLinkHarness.slug("app")
            let app = try await h.admin.createApp(name: "Shop", handle: handle)
            _ = try await h.admin.addDomain("go.\(handle).example")
            let onShared = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/shared"))
            let onHandle = try await h.admin.createLink(WarpLinkLinkSeed(slug: "promo", domain: app.domain, destinationURL: "https://example.com/handle"))
            let onCustom = try await h.admin.createLink(WarpLinkLinkSeed(slug: "promo", domain: "go.\(handle).example", destinationURL: "https://example.com/custom"))
            #expect(try await h.warpLink.tap(slug: onShared.slug, host: "aplnk.to").location == "https://example.com/shared")
            #expect(try await h.warpLink.tap(slug: "promo", host: app.domain).location == "https://example.com/handle")
            #expect(try await h.warpLink.tap(slug: "promo", host: "go.\(handle).example", query: [("x", "1")]).location == "https://example.com/custom?x=1")
            #expect(try await h.warpLink.tap(slug: "promo", domain: "go.\(handle).example").location == "https://example.com/custom")
            #expect(try await h.admin.clicks(source: "redirect").count == 4)
            _ = (onHandle, onCustom)

            let missing = try await h.warpLink.tap(slug: "nothing-here", host: "aplnk.to")
            #expect(missing.status == 404 && missing.error?.code == "NOT_FOUND")
            let secret = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/p", password: "pw"))
            #expect(try await h.warpLink.tap(slug: secret.slug).error?.code == "PASSWORD_REQUIRED")
            _ = try await h.admin.expireLink(onShared.id)
            let gone = try await h.warpLink.tap(slug: onShared.slug)
            #expect(gone.status == 410 && gone.error?.code == "GONE")
            _ = try await h.admin.suspendDomain("go.\(handle).example")
            #expect(try await h.warpLink.tap(slug: "promo", host: "go.\(handle).example").status == 404)
            #expect(try await h.admin.clicks(source: "redirect").count == 4)
        }
    }

    @Test("confidence table: each variant and age tier, the 6 h default window, a 24 h window and the 24 h ceiling")
    func confidenceTiers() async throws {
        try await WarpLinkHarness.with { h in
            try await h.freeze()
            _ = try await h.admin.updateSettings(WarpLinkSettings(ipMultipliers: false))
            let wide = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/w", matchWindowHours: 24))
            let narrow = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/n"))
            let expected: [(Double, [Double])] = [(0.5, [0.85, 0.80, 0.70]), (2, [0.65, 0.60, 0.50]), (5, [0.50, 0.45, 0.35]), (12, [0.30, 0.25, 0.20])]
            for (hours, ceilings) in expected {
                for (variant, ceiling) in zip(["enriched_tz", "enriched", "basic"], ceilings) {
                    _ = try await h.admin.seedClick(
                        WarpLinkClickSeed(
                            linkID: wide.id, acceptLanguage: "en-US,en;q=0.8", timezone: "America/Toronto",
                            ageSeconds: hours * 3600))
                    let body =
                        switch variant {
                        case "enriched_tz": Self.androidBody()
                        case "enriched": Self.androidBody(timezone: nil, offset: 240)
                        default: Self.androidBody(timezone: nil, offset: nil)
                        }
                    let match = try await h.warpLink.matchAttribution(body, apiKey: h.sdkKey).get()
                    #expect(match.matched && match.matchConfidence == ceiling, "\(hours) h \(variant): \(String(describing: match.matchConfidence))")
                }
            }
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: wide.id, acceptLanguage: "en-US", timezone: "America/Toronto", ageSeconds: 25 * 3600))
            #expect(try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.sdkKey).value?.matched == false)
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: narrow.id, acceptLanguage: "en-US", timezone: "America/Toronto", ageSeconds: 7 * 3600))
            #expect(try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.sdkKey).value?.matched == false) // outside the 6 h default
            _ = try await h.admin.updateLink(narrow.id, ["match_window_hours": 8])
            #expect(try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.sdkKey).value?.matchConfidence == 0.30)
        }
    }

    @Test("multipliers: two candidates ×0.6 and only the claimed click leaves; click IP ×0.6 / ×0.9 / ×1.0")
    func multipliers() async throws {
        try await WarpLinkHarness.with { h in
            try await h.freeze()
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/m"))
            let older = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, acceptLanguage: "fr-CA", timezone: "America/Toronto", ageSeconds: 7200))
            let newer = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, acceptLanguage: "fr-CA", timezone: "America/Toronto", ageSeconds: 600))
            let body = WarpLinkAttributionRequest(acceptLanguage: "fr_CA", timezoneOffset: 240, timezone: "America/Toronto")
            let first = try await h.warpLink.matchAttribution(body, apiKey: h.sdkKey).get()
            #expect(first.matchConfidence == 0.31) // 0.85 × 0.6 (two candidates) × 0.6 (loopback) = 0.306
            let clicks = try await h.admin.clicks(linkID: link.id)
            #expect(clicks.first { $0.id == newer.id }?.claimed == true && clicks.first { $0.id == older.id }?.claimed == false)
            let second = try await h.warpLink.matchAttribution(body, apiKey: h.sdkKey).get()
            #expect(second.matchConfidence == 0.39) // the older click alone: 0.65 × 0.6

            for (ip, expected) in [("203.0.113.9", 0.77), ("2001:db8::1", 0.85), ("100.64.1.2", 0.51), ("192.168.1.4", 0.51)] {
                _ = try await h.admin.updateSettings(WarpLinkSettings(clientIP: ip))
                _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, ip: ip, acceptLanguage: "fr-CA", timezone: "America/Toronto"))
                #expect(try await h.warpLink.matchAttribution(body, apiKey: h.sdkKey).value?.matchConfidence == expected, "\(ip)")
            }
            // A different client IP does not see the bucket.
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, ip: "198.51.100.1", acceptLanguage: "fr-CA"))
            #expect(try await h.warpLink.matchAttribution(body, apiKey: h.sdkKey).value?.matched == false)
        }
    }

    @Test("deterministic tiers: Play referrer, IDFV click, referrer to a deleted link falls through, routeless IDFV match, reinstall stored")
    func deterministic() async throws {
        try await WarpLinkHarness.with { h in
            let link = try await h.admin.createLink(
                WarpLinkLinkSeed(
                    slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/d", iosURL: "app://d",
                    androidURL: "app://android/d", customParams: ["k": "v"]))
            let referred = try await h.warpLink.matchAttribution(
                WarpLinkAttributionRequest(
                    fingerprintVersion: "basic", acceptLanguage: nil,
                    timezoneOffset: nil
                ).with(referrer: link.id), apiKey: h.sdkKey
            ).get()
            #expect(referred.matched && referred.matchType == "deterministic" && referred.matchConfidence == 1.0 && referred.matchGuaranteed == true)
            #expect(referred.linkID == link.id && referred.deepLinkURL == "app://android/d?k=v" && referred.destinationURL == "https://example.com/d?k=v")

            let gone = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/gone"))
            try await h.admin.deleteLink(gone.id)
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, acceptLanguage: "en-US", timezone: "America/Toronto"))
            let fellThrough = try await h.warpLink.matchAttribution(Self.androidBody(referrer: gone.id), apiKey: h.sdkKey).get()
            #expect(fellThrough.matchType == "probabilistic" && fellThrough.linkID == link.id)

            let idfv = UUID().uuidString // uppercase, as iOS sends it
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, ip: "198.51.100.7", deviceID: idfv.lowercased()))
            let ios = WarpLinkAttributionRequest(
                platform: "ios", sdkVersion: "1.1.1", fingerprintVersion: "enriched", isReinstall: true,
                appPackageName: nil, deviceID: idfv, acceptLanguage: "en-US,en", timezoneOffset: 300)
            let byDevice = try await h.warpLink.matchAttribution(ios, apiKey: h.sdkKey, userAgent: "WarpLink-iOS/1.1.1").get()
            #expect(byDevice.matchType == "deterministic" && byDevice.matchGuaranteed == true && byDevice.deepLinkURL == "app://d?k=v")

            let doomed = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/doomed"))
            let device = UUID().uuidString
            _ = try await h.admin.seedInstall(WarpLinkInstallSeed(deviceID: device, linkID: doomed.id, platform: "ios", matchType: "probabilistic", matchConfidence: 0.85))
            try await h.admin.deleteLink(doomed.id)
            var routeless = ios
            routeless.deviceID = device
            routeless.isReinstall = nil
            let answer = try await h.warpLink.matchAttribution(routeless, apiKey: h.sdkKey)
            let json = try answer.raw.json()
            #expect(json["matched"] == true && json["link_id"] == .null && json["deep_link_url"] == .null && json["destination_url"] == .null)
            #expect(json["custom_params"] == AnyJSON.object([:]) && json["match_type"]?.string == "probabilistic" && json["match_confidence"]?.double == 0.85)
            #expect(json["match_guaranteed"] == false && json["app_id"] == .null && json["install_id"]?.string != nil)

            let installs = try await h.admin.installs()
            #expect(installs.first?.isReinstall == nil && installs.first?.linkID == doomed.id) // absent = unknown; chain kept
            let reinstall = installs.first { $0.source == "sdk" && $0.deviceID == idfv && $0.linkID == link.id }
            #expect(reinstall?.isReinstall == true && reinstall?.outcome == "device_id" && reinstall?.matchType == "deterministic")
            #expect(installs.contains { $0.source == "seed" && $0.linkID == doomed.id })
            #expect(installs.map(\.outcome).contains("referrer"))
        }
    }

    @Test("settings: fingerprint tier, X-Forwarded-For trust, primary-language mode and the legacy scale")
    func settingsAndFingerprint() async throws {
        try await WarpLinkHarness.with { h in
            try await h.freeze()
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/f"))
            let fingerprint = String(repeating: "ab", count: 32)
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, ip: "8.8.8.8", fingerprint: fingerprint, ageSeconds: 2 * 3600))
            var body = WarpLinkAttributionRequest(platform: "ios", fingerprintVersion: "enriched", acceptLanguage: "de-DE", timezoneOffset: -120)
            body.fingerprint = fingerprint.uppercased()
            let byFingerprint = try await h.warpLink.matchAttribution(body, apiKey: h.sdkKey).get()
            #expect(byFingerprint.matchType == "probabilistic" && byFingerprint.matchConfidence == 0.59) // 0.65 × 0.9
            #expect(try await h.admin.installs().first?.outcome == "fingerprint")

            _ = try await h.admin.updateSettings(WarpLinkSettings(languageMode: "primary", trustForwardedFor: true))
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, ip: "2001:db8::5", acceptLanguage: "pt-BR,pt;q=0.8", ageSeconds: 600))
            let forwarded = try await h.server.client.send(
                ClientRequest.json(
                    "POST", "/warplink/v1/attribution/match",
                    WarpLinkAttributionRequest(fingerprintVersion: "basic", acceptLanguage: "pt-PT", timezoneOffset: nil),
                    headers: ["Authorization": "Bearer " + h.sdkKey, "X-Forwarded-For": "2001:db8::5, 10.0.0.1"]))
            #expect(try forwarded.json()["match_confidence"]?.double == 0.70) // basic < 1 h, IPv6 ×1.0, "pt" == "pt"

            _ = try await h.admin.updateSettings(WarpLinkSettings(languageMode: "full", scoring: "legacy", trustForwardedFor: false))
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: link.id, acceptLanguage: "en", ageSeconds: 30 * 3600))
            let legacy = try await h.warpLink.matchAttribution(WarpLinkAttributionRequest(fingerprintVersion: "basic", acceptLanguage: "en", timezoneOffset: nil), apiKey: h.sdkKey)
                .get()
            #expect(legacy.matchConfidence == 0.24) // 0.40 (< 72 h) × 0.6 loopback
        }
    }

    @Test("keys and apps: API keys refused (403, or 401 by setting), revoked 401, app-bound keys and ambiguous_app")
    func keysAndApps() async throws {
        try await WarpLinkHarness.with(expectingFindings: true) { h in // API keys on the deferred check, on purpose
            let refused = try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.apiKey)
            #expect(refused.status == 403)
            #expect(refused.raw.text == #"{"error":{"code":"FORBIDDEN","message":"API keys cannot record installs; use an SDK key"}}"#)
            _ = try await h.admin.updateSettings(WarpLinkSettings(apiKeyAttributionStatus: 401))
            #expect(try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.apiKey).error?.code == "UNAUTHORIZED")
            let revoked = try await h.admin.createKey()
            _ = try await h.admin.revokeKey(revoked.value)
            #expect(try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: revoked.value).status == 401)
            #expect(try await h.admin.installs().isEmpty)

            let shop = try await h.admin.createApp(name: "Shop", handle: WarpLinkHarness.slug("s"), androidPackageName: "com.example.shop")
            let news = try await h.admin.createApp(name: "News", handle: WarpLinkHarness.slug("n"), androidPackageName: "com.example.news")
            let newsLink = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/n", appID: news.id))
            _ = try await h.admin.seedClick(WarpLinkClickSeed(linkID: newsLink.id, acceptLanguage: "en-US", timezone: "America/Toronto"))
            // The shop app may not claim the news app's click.
            #expect(try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.sdkKey).value?.matched == false)
            var unnamed = Self.androidBody()
            unnamed.appPackageName = nil
            #expect(try await h.warpLink.matchAttribution(unnamed, apiKey: h.sdkKey).value?.matched == false)
            #expect(try await h.admin.installs().first?.outcome == "ambiguous_app")
            let newsKey = try await h.admin.createKey(appID: news.id)
            let matched = try await h.warpLink.matchAttribution(unnamed, apiKey: newsKey.value).get()
            #expect(matched.linkID == newsLink.id && matched.appID == news.id)
            #expect(try await h.admin.installs().first?.appID == news.id)
            _ = shop
        }
    }

    @Test("bad attribution bodies get 400 VALIDATION_ERROR with details.fields and record nothing; legacy and unknown fields are ignored")
    func validation() async throws {
        try await WarpLinkHarness.with { h in
            let cases: [(String, [String])] = [
                (#"{}"#, ["platform", "sdk_version", "fingerprint_version"]),
                (#"{"platform":"web","sdk_version":"1.1.0","fingerprint_version":"enriched"}"#, ["platform"]),
                (#"{"platform":"android","sdk_version":"1.1.0","fingerprint_version":"advanced"}"#, ["fingerprint_version"]),
                (#"{"platform":"android","sdk_version":"1.1.0","fingerprint_version":"basic","app_package_name":""}"#, ["app_package_name"]),
                (#"{"platform":"ios","sdk_version":"1.1.0","fingerprint_version":"enriched_tz","timezone":"Mars/Olympus"}"#, ["timezone"]),
                (#"{"platform":"ios","sdk_version":"1.1.0","fingerprint_version":"enriched","device_id":"not-a-uuid"}"#, ["device_id"]),
                (
                    #"{"platform":1,"sdk_version":"1.1.0","fingerprint_version":"enriched","is_reinstall":"yes","timezone_offset":"300"}"#,
                    ["platform", "is_reinstall", "timezone_offset"]
                ),
                (#"{"platform":"ios","sdk_version":"1.1.0","fingerprint_version":"enriched","fingerprint":"abc"}"#, ["fingerprint"]),
                (#"[1,2]"#, ["body"]),
                (#"{nope"#, ["body"]),
                ("", ["body"]),
            ]
            for (body, fields) in cases {
                let response = try await h.warpLink.matchAttribution(rawBody: Data(body.utf8), apiKey: h.sdkKey)
                #expect(response.status == 400, "\(body)")
                #expect(response.error?.code == "VALIDATION_ERROR")
                #expect(response.error?.fields.map(\.field) == fields, "\(body)")
            }
            #expect(try await h.admin.installs().isEmpty)
            let legacy =
                #"{"platform":"ios","sdk_version":"0.1.0","fingerprint_version":"enriched","accept_language":"en-US,en","screen_width":390,"screen_height":844,"timezone_offset":300,"user_agent":"WarpLink-iOS\/0.1.0","extra":{"a":1},"referrer":"not-a-uuid"}"#
            let accepted = try await h.warpLink.matchAttribution(rawBody: Data(legacy.utf8), apiKey: h.sdkKey)
            #expect(accepted.status == 200 && accepted.value?.matched == false)
            #expect(try await h.admin.installs().count == 1)
        }
    }

    @Test("a dropped connection is a transport error for the SDK; the journal shows the attempt with its tap id and no install is stored")
    func droppedConnection() async throws {
        try await WarpLinkHarness.with { h in
            let tap = UUID().uuidString.lowercased()
            _ = try await h.projectAdmin.addFault(FaultRule(match: .init(platform: "warplink", method: "POST", path: "/v1/attribution/match"), action: .reset, times: 1))
            // A short client timeout: URLSession on Linux may sit on a reset connection until it times out.
            let impatient = Understudy(baseURL: h.server.url, timeout: 3).warpLink
            await #expect(throws: UnderstudyClientError.self) {
                _ = try await impatient.matchAttribution(Self.androidBody(), apiKey: h.sdkKey, tapID: tap)
            }
            let dropped = try await h.projectAdmin.waitForRequests(JournalQuery(method: "POST", path: "/warplink/v1/attribution/match"), count: 1).requests
            #expect(dropped.first?.status == 0 && dropped.first?.requestHeaders["x-warplink-tap-id"] == tap && dropped.first?.fault != nil)
            #expect(try await h.admin.installs().isEmpty)
            #expect(try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.sdkKey, tapID: tap).status == 200)
        }
    }

    @Test("oversized and broken-gzip bodies are 4xx in WarpLink's envelope, journalled, and record no install")
    func unreadableBodies() async throws {
        try await UnderstudyTestServer.with(configure: { $0.maxBodyBytes = 1024 }) { server in
            let project = try await server.client.admin.createProject(name: "limits")
            let key = project.credential("warplink", "sdkKey")
            let big = try await server.client.send(
                ClientRequest(
                    method: "POST", path: "/warplink/v1/attribution/match",
                    headers: ["Authorization": "Bearer " + key, "Content-Type": "application/json"],
                    body: Data(("{\"platform\":\"" + String(repeating: "a", count: 4096) + "\"}").utf8)))
            #expect(big.status == 413)
            #expect(try big.json()["error"]?["code"]?.string == "VALIDATION_ERROR")
            let gzip = try await server.client.send(
                ClientRequest(
                    method: "POST", path: "/warplink/v1/attribution/match",
                    headers: ["Authorization": "Bearer " + key, "Content-Type": "application/json", "Content-Encoding": "gzip"],
                    body: Data("definitely not gzip".utf8)))
            #expect(gzip.status == 400)
            #expect(try gzip.json()["error"]?["code"]?.string == "VALIDATION_ERROR")
            let journal = try await server.client.admin.project(project.id).waitForRequests(JournalQuery(platform: "warplink"), count: 2)
            #expect(Set(journal.requests.map(\.status)) == [413, 400])
            #expect(try await server.client.warpLink.project(project.id).installs().isEmpty)
        }
    }

    @Test("the configure flow: validate and match both answered; a 5xx twice then success is three match requests with one tap id")
    func configureFlowRetries() async throws {
        try await WarpLinkHarness.with { h in
            #expect(try await h.warpLink.validate(apiKey: h.sdkKey).value?.valid == true)
            let tap = UUID().uuidString.lowercased()
            _ = try await h.projectAdmin.addFault(
                FaultRule(
                    match: .init(platform: "warplink", method: "POST", path: "/**/attribution/match"),
                    action: .status(502), times: 2))
            var statuses: [Int] = []
            for _ in 0..<3 {
                let attempt = try await h.warpLink.matchAttribution(Self.androidBody(), apiKey: h.sdkKey, tapID: tap)
                statuses.append(attempt.status)
                if attempt.status == 200 { break }
            }
            #expect(statuses == [502, 502, 200])
            let journal = try await h.projectAdmin.waitForRequests(JournalQuery(method: "POST", path: "/warplink/v1/attribution/match"), count: 3).requests
            #expect(journal.count == 3 && Set(journal.compactMap { $0.requestHeaders["x-warplink-tap-id"] }) == [tap])
            #expect(journal.allSatisfy { $0.requestBody?.contains(tap) == false }) // the tap id never rides in the body
            let installs = try await h.admin.installs()
            #expect(installs.count == 1 && installs[0].tapID == tap) // faulted attempts never reached the handler
        }
    }
}

extension WarpLinkAttributionRequest {
    /// The body with a Play referrer.
    func with(referrer: String) -> WarpLinkAttributionRequest {
        var copy = self
        copy.referrer = referrer
        return copy
    }
}
