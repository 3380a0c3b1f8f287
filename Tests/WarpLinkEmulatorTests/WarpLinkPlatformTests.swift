import EmulatorCore
import Foundation
import Testing

@testable import WarpLinkEmulator

@Suite("WarpLink platform")
struct WarpLinkPlatformTests {
    @Test("core failures answer in WarpLink's envelope with the documented codes")
    func errorFormat() throws {
        let platform = WarpLinkPlatform()
        let notFound = platform.errorResponse(for: .routeNotFound, requestID: "1")
        #expect(notFound.status == 404)
        #expect(String(decoding: notFound.body, as: UTF8.self) == #"{"error":{"code":"NOT_FOUND","message":"Not found"}}"#)
        let injected = platform.errorResponse(for: .injected(status: 503), requestID: "2")
        #expect(try JSONValue.parse(injected.body)["error"]?["code"]?.stringValue == "INTERNAL_ERROR" && injected.status == 503)
        #expect(try JSONValue.parse(platform.errorResponse(for: .injected(status: 429), requestID: "3").body)["error"]?["code"]?.stringValue == "RATE_LIMIT_EXCEEDED")
        #expect(try JSONValue.parse(platform.errorResponse(for: .methodNotAllowed([.get]), requestID: "4").body)["error"]?["code"]?.stringValue == "METHOD_NOT_ALLOWED")
    }

    @Test("host routing: api.warplink.app to /warplink, link hosts to /warplink/r, others untouched")
    func hosts() {
        let platform = WarpLinkPlatform()
        #expect(platform.pathPrefix(forHost: "api.warplink.app") == "/warplink")
        #expect(platform.pathPrefix(forHost: "aplnk.to") == "/warplink/r")
        #expect(platform.pathPrefix(forHost: "shop.aplnk.to") == "/warplink/r")
        #expect(platform.pathPrefix(forHost: "links.brand.example") == nil)
        platform.domains.replace(with: ["links.brand.example": "prj_a"])
        #expect(platform.pathPrefix(forHost: "links.brand.example") == "/warplink/r")
        #expect(platform.pathPrefix(forHost: "127.0.0.1") == nil)
    }
}

@Suite("WarpLink rules")
struct WarpLinkRuleTests {
    @Test("normalizeLang: first entry, no q, trimmed, '_' to '-', lower-cased; primary mode keeps the primary subtag")
    func languages() {
        #expect(LanguageNormalizer.normalize("en-US,en;q=0.9") == "en-us")
        #expect(LanguageNormalizer.normalize("en-US") == "en-us")
        #expect(LanguageNormalizer.normalize(" fr_CA ;q=1, en") == "fr-ca")
        #expect(LanguageNormalizer.normalize("") == "" && LanguageNormalizer.normalize(nil) == "")
        #expect(LanguageNormalizer.normalize("en-US,en", mode: "primary") == "en")
    }

    @Test("normalizeLang: the byte path for ASCII headers answers as the scalar path does, and leaves other headers to it")
    func languageByteShortcut() {
        let headers = [
            "en-US,en;q=0.9", " fr_CA ;q=1, en", "\tDE-de\t", "zh_Hant_TW", "-en-GB", "---", "", ",", ";q=0.5", "  ",
            "EN", "en-US;q=0.8,fr", "a_b_C-d", "x\r\n", "*", "sr-Latn-RS, sr;q=0.9", "pt_BR;", "_",
        ]
        for header in headers {
            for mode in ["full", "primary"] {
                #expect(
                    LanguageNormalizer.ascii(header, primary: mode == "primary") == LanguageNormalizer.scalars(header, mode: mode),
                    "\(header.debugDescription) in \(mode) mode")
            }
        }
        // Not ASCII anywhere, even past the first entry: the scalar path answers.
        #expect(LanguageNormalizer.ascii("en, fr\u{00A0}", primary: false) == nil)
        #expect(LanguageNormalizer.ascii("\u{3000}ja_JP", primary: false) == nil)
        #expect(LanguageNormalizer.normalize("\u{3000}ja_JP\u{00A0};q=1") == "ja-jp")
        #expect(LanguageNormalizer.normalize("\u{00C9}N-us", mode: "primary") == "\u{00E9}n")
    }

    @Test("client IPs: mapped IPv4 reduced; shared ranges ×0.6, public IPv4 ×0.9, IPv6 ×1.0; override and X-Forwarded-For")
    func addresses() {
        #expect(ClientAddress.reduce("::ffff:203.0.113.5") == "203.0.113.5")
        for shared in ["127.0.0.1", "10.1.2.3", "172.16.0.1", "172.31.255.1", "192.168.0.1", "169.254.1.1", "100.64.0.1", "100.127.255.255", "::1", "fe80::1", "fd00::1"] {
            #expect(ClientAddress.factorTenths(shared) == 6, "\(shared)")
        }
        for (address, factor) in [("172.32.0.1", 9), ("100.128.0.1", 9), ("8.8.8.8", 9), ("2001:db8::1", 10), ("garbage", 6)] {
            #expect(ClientAddress.factorTenths(address) == factor, "\(address)")
        }
        var settings = MatchingSettings()
        #expect(ClientAddress.effective(peer: "::ffff:127.0.0.1", forwardedFor: "8.8.8.8", settings: settings) == "127.0.0.1")
        settings.trustForwardedFor = true
        #expect(ClientAddress.effective(peer: "127.0.0.1", forwardedFor: "8.8.8.8, 10.0.0.1", settings: settings) == "8.8.8.8")
        settings.clientIP = "1.2.3.4"
        #expect(ClientAddress.effective(peer: "127.0.0.1", forwardedFor: "8.8.8.8", settings: settings) == "1.2.3.4")
    }

    @Test("confidence: the 1.1 table, rounding half up in exact arithmetic, candidates ×0.6, legacy scale")
    func confidence() {
        #expect(ConfidenceScale.ceiling(.enrichedTZ, age: 59 * 60, legacy: false) == 85)
        #expect(ConfidenceScale.ceiling(.enriched, age: 3600, legacy: false) == 60)
        #expect(ConfidenceScale.ceiling(.basic, age: 5.9 * 3600, legacy: false) == 35)
        #expect(ConfidenceScale.ceiling(.enrichedTZ, age: 23 * 3600, legacy: false) == 30)
        #expect(ConfidenceScale.ceiling(.enrichedTZ, age: 24 * 3600, legacy: false) == nil)
        #expect(ConfidenceScale.confidence(ceiling: 85, claimableInBucket: 1, ipFactorTenths: 9, legacy: false) == 0.77)
        #expect(ConfidenceScale.confidence(ceiling: 85, claimableInBucket: 1, ipFactorTenths: 6, legacy: false) == 0.51)
        #expect(ConfidenceScale.confidence(ceiling: 85, claimableInBucket: 3, ipFactorTenths: 10, legacy: false) == 0.51)
        #expect(ConfidenceScale.confidence(ceiling: 85, claimableInBucket: 3, ipFactorTenths: 10, legacy: true) == 0.55)
        #expect(ConfidenceScale.ceiling(.basic, age: 48 * 3600, legacy: true) == 40)
        #expect(ConfidenceScale.window(hours: nil, legacy: false) == 6 * 3600)
        #expect(ConfidenceScale.window(hours: 48, legacy: false) == 24 * 3600)
        #expect(ConfidenceScale.window(hours: nil, legacy: true) == 72 * 3600)
    }

    @Test("params: decoded once, parsed form-style; the A1.1 pinned example; absurd values refused")
    func params() throws {
        let raw = "note%3Da%2520b%26pct%3D100%2525%26both%3Dx%2526y%26email%3Da%252Bb%2540x.com%26next%3D%252Fp%253Fa%253D1%2526b%253D2"
        let tapped = try LinkReshaper.tappedParameters(rawParamsValue: raw)
        #expect(tapped.pairs.map(\.name) == ["note", "pct", "both", "email", "next"])
        #expect(tapped.pairs.map(\.value) == ["a b", "100%", "x&y", "a+b@x.com", "/p?a=1&b=2"])
        #expect(throws: WarpLinkError.self) { try LinkReshaper.tappedParameters(rawParamsValue: "a%3D%25ZZ") }
        #expect(throws: WarpLinkError.self) { try LinkReshaper.tappedParameters(rawParamsValue: String(repeating: "a", count: 9000)) }
        #expect(throws: WarpLinkError.self) { try LinkReshaper.tappedParameters(rawParamsValue: (0..<101).map { "k\($0)%3Dv" }.joined(separator: "%26")) }
    }

    @Test("reshaping: destination query, then custom params, then tapped (later wins); bare origins gain '/'; fragments kept")
    func reshaping() {
        let merged = LinkReshaper.merged(
            destination: "https://example.com/p?a=1&b=2", customParams: ["b": "custom", "c": 3, "d": true],
            tapped: ParameterSet([("c", "tap"), ("e", "x y")]))
        #expect(merged.pairs.map(\.name) == ["a", "b", "c", "d", "e"])
        #expect(merged.pairs.map(\.value) == ["1", "custom", "tap", "true", "x y"])
        #expect(LinkReshaper.apply(ParameterSet(), to: "https://Example.COM") == "https://example.com/")
        #expect(LinkReshaper.apply(ParameterSet([("q", "1")]), to: "HTTPS://example.com#top") == "https://example.com/?q=1#top")
        #expect(LinkReshaper.apply(ParameterSet([("q", "a&b")]), to: "myapp://open?x=1") == "myapp://open?x=1&q=a%26b")
        #expect(LinkReshaper.apply(ParameterSet(), to: "myapp://") == "myapp://")
    }

    @Test("attribution bodies: the A1.1 body parses; each documented 400 is reported per field")
    func attributionBodies() throws {
        let body =
            #"{"platform":"android","sdk_version":"1.1.0","is_reinstall":false,"app_package_name":"com.example","accept_language":"en-US","timezone_offset":300,"timezone":"America\/Toronto","fingerprint_version":"enriched_tz","referrer":"5B0E8C1E-4A6F-4F0D-8A61-2D7C9E3F5A01"}"#
        let parsed = try AttributionRequest.parse(Data(body.utf8))
        #expect(parsed.platform == "android" && parsed.timezone == "America/Toronto" && parsed.timezoneOffset == 300 && parsed.isReinstall == false)
        #expect(parsed.referrer == "5b0e8c1e-4a6f-4f0d-8a61-2d7c9e3f5a01")
        let ignored = try AttributionRequest.parse(Data(#"{"platform":"ios","sdk_version":"0.1.0","fingerprint_version":"enriched","referrer":"abc","screen_width":1}"#.utf8))
        #expect(ignored.referrer == nil && ignored.isReinstall == nil)
        do {
            _ = try AttributionRequest.parse(Data(#"{"platform":"android","fingerprint_version":"enriched","app_bundle_id":"","device_id":"x"}"#.utf8))
            Issue.record("expected a validation error")
        } catch {
            #expect(error.status == 400 && error.code == "VALIDATION_ERROR")
            #expect(error.fields.map(\.field) == ["sdk_version", "app_bundle_id", "device_id"])
        }
    }

    @Test("app selection: bound key, package name, single app, no apps, ambiguous")
    func appScope() {
        let now = Date()
        let shop = AppRecord(id: "a", name: "Shop", handle: "shop", iosBundleID: "com.shop", androidPackageName: "com.shop", createdAt: now)
        let news = AppRecord(id: "b", name: "News", handle: "news", iosBundleID: nil, androidPackageName: "com.news", createdAt: now)
        var key = KeyRecord(projectID: "p", value: "k", kind: .sdk, scopes: KeyRecord.sdkScopes, appID: nil, state: .active, name: nil, createdAt: now, revokedAt: nil)
        var request = AttributionRequest(platform: "android", sdkVersion: "1", fingerprintVersion: "basic")
        #expect(AttributionMatcher.scope(key: key, request: request, apps: []) == .noApps)
        #expect(AttributionMatcher.scope(key: key, request: request, apps: [shop]) == .app("a"))
        #expect(AttributionMatcher.scope(key: key, request: request, apps: [shop, news]) == .ambiguous)
        request.appPackageName = "com.news"
        #expect(AttributionMatcher.scope(key: key, request: request, apps: [shop, news]) == .app("b"))
        key.appID = "a"
        #expect(AttributionMatcher.scope(key: key, request: request, apps: [shop, news]) == .app("a"))
    }

    @Test("names: key format, slugs, handles, custom domains, UUIDs; time zones use the JS offset sign")
    func names() {
        #expect(WarpLinkNames.isWellFormedKey("wl_live_a1b2c3d4e5f6g7h8i9j0k1l2m3n4o5p6"))
        #expect(WarpLinkNames.isWellFormedKey("wl_test_abcdefghijklmnopqrstuvwxyz012345"))
        #expect(!WarpLinkNames.isWellFormedKey("wl_prod_abcdefghijklmnopqrstuvwxyz012345"))
        #expect(!WarpLinkNames.isWellFormedKey("wl_test_abcdefghijklmnopqrstuvwxyz01234-"))
        #expect(WarpLinkNames.isValidSlug("abc123") && !WarpLinkNames.isValidSlug("a/b") && !WarpLinkNames.isValidSlug("") && !WarpLinkNames.isValidSlug(".."))
        #expect(WarpLinkNames.isValidCustomDomain("go.brand.example") && !WarpLinkNames.isValidCustomDomain("localhost"))
        #expect(!WarpLinkNames.isValidCustomDomain("10.0.0.1") && !WarpLinkNames.isValidCustomDomain("x.aplnk.to") && !WarpLinkNames.isValidCustomDomain("api.warplink.app"))
        #expect(WarpLinkNames.isUUID("5B0E8C1E-4A6F-4F0D-8A61-2D7C9E3F5A01") && !WarpLinkNames.isUUID("5B0E8C1E4A6F4F0D8A612D7C9E3F5A01"))
        let june = Timestamp.parse("2026-06-01T12:00:00Z")!
        #expect(TimeZones.jsOffset("America/Toronto", at: june) == 240)
        #expect(TimeZones.jsOffset("Europe/Berlin", at: june) == -120)
        #expect(TimeZones.isValid("UTC") && !TimeZones.isValid("Mars/Olympus") && !TimeZones.isValid("EST5EDT_bogus"))
    }

    @Test("timestamps keep their millisecond through store and read")
    func timestamps() {
        for text in ["2026-11-30T09:50:44.640Z", "2026-11-30T09:50:44.999Z", "2026-01-01T00:00:00.000Z", "2026-11-30T09:50:44.001Z"] {
            let date = Timestamp.parse(text)!
            #expect(WarpLinkTime.format(date) == text)
            #expect(WarpLinkTime.format(Timestamp.parse(WarpLinkTime.format(date))!) == text)
        }
    }

    @Test("bucket keys: zone, offset and basic for redirect and seeded clicks; none for resolve clicks")
    func buckets() {
        var click = ClickRecord(
            id: "c", linkID: "l", appID: nil, source: .redirect, ip: "1.2.3.4", acceptLanguage: "en-US", language: "en-us",
            timezone: "America/Toronto", timezoneOffset: 240, deviceID: nil, fingerprint: nil, userAgent: nil, tapID: nil,
            destinationURL: nil, iosURL: nil, androidURL: nil, customParams: [:], clickedAt: Date(), claimedBy: nil, claimedAt: nil)
        #expect(click.bucketKeys() == ["tz:1.2.3.4|en-us|America/Toronto", "offset:1.2.3.4|en-us|240", "basic:1.2.3.4|en-us"])
        click.source = .resolve
        #expect(click.bucketKeys().isEmpty)
    }

    @Test("rate window: 60 per sliding minute, then refused until the oldest request leaves")
    func rateWindow() {
        let state = RateLimitWindows()
        let start = Date(timeIntervalSince1970: 1_000_000)
        for index in 0..<60 { #expect(state.consume("k", now: start.addingTimeInterval(Double(index) * 0.1)).allowed) }
        let refused = state.consume("k", now: start.addingTimeInterval(10))
        #expect(!refused.allowed && refused.remaining == 0 && refused.reset == 1_000_060)
        #expect(state.consume("k", now: start.addingTimeInterval(60.05)).allowed)
        #expect(state.consume("other", now: start).remaining == 59)
    }
}
