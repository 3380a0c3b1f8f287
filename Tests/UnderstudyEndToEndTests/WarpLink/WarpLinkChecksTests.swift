import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// WarpLink's integration checks end to end: for each rule, the sequence the SDK documents as
/// correct raises no finding and the mistake exactly one. The clock is frozen and moved on by the
/// control plane wherever the app would be relaunched or the SDK would wait.
@Suite("WarpLink integration checks")
struct WarpLinkChecksTests {
    /// The harness with a frozen clock.
    static func with(_ body: (WarpLinkHarness) async throws -> Void) async throws {
        try await WarpLinkHarness.with(expectingFindings: true) { h in
            try await h.freeze()
            try await body(h)
        }
    }

    /// What iOS 1.1.1 sends on the first launch of an install (`device_id` is the IDFV, uppercase).
    static func ios(_ device: String, reinstall: Bool? = false) -> WarpLinkAttributionRequest {
        WarpLinkAttributionRequest(
            platform: "ios", sdkVersion: "1.1.1", fingerprintVersion: "enriched", isReinstall: reinstall, deviceID: device,
            acceptLanguage: "en-US,en", timezoneOffset: 300)
    }

    /// The masked key a finding names when the request names no installation.
    static func label(_ key: String) -> String { "key " + key.prefix(8) + "****" + key.suffix(4) }

    /// Makes the next `times` requests to `path` fail with `status`.
    static func fail(_ h: WarpLinkHarness, _ path: String, status: Int = 503, times: Int) async throws {
        _ = try await h.projectAdmin.addFault(FaultRule(match: .init(platform: "warplink", path: path), action: .status(status), times: times))
    }

    @Test("warplink.api-key-in-app: an SDK key raises nothing; an API key on key validation or on the deferred check one finding each")
    func apiKeyInApp() async throws {
        try await Self.with { h in
            let device = UUID().uuidString
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/a"))
            #expect(try await h.warpLink.validate(apiKey: h.sdkKey).status == 200)
            #expect(try await h.warpLink.matchAttribution(Self.ios(device), apiKey: h.sdkKey).status == 200)
            #expect(try await h.warpLink.resolve(slug: link.slug, apiKey: h.sdkKey).status == 200)
            #expect(try await h.projectAdmin.findings().isEmpty)

            #expect(try await h.warpLink.validate(apiKey: h.apiKey).status == 200) // validation passes: the trap
            var found = try await h.projectAdmin.findings()
            #expect(found.map(\.rule) == ["warplink.api-key-in-app"])
            #expect(found.first?.device == Self.label(h.apiKey) && found.first?.severity == "error" && found.first?.requests.count == 1)

            try await h.projectAdmin.clearFindings()
            let other = UUID().uuidString
            #expect(try await h.warpLink.matchAttribution(Self.ios(other), apiKey: h.apiKey).status == 403)
            found = try await h.projectAdmin.findings()
            #expect(found.map(\.rule) == ["warplink.api-key-in-app"])
            #expect(found.first?.device == other && found.first?.severity == "error" && found.first?.requests.count == 1)
        }
    }

    @Test("warplink.deferred-check-repeated: retries after failures, a routeless match and a reinstall raise nothing; a repeat after no-match one finding")
    func deferredCheckRepeated() async throws {
        try await Self.with { h in
            // A first launch whose check fails twice (5xx), then a later launch that gets a definitive no-match.
            let device = UUID().uuidString
            try await Self.fail(h, "/v1/attribution/match", times: 1)
            #expect(try await h.warpLink.matchAttribution(Self.ios(device), apiKey: h.sdkKey).status == 503)
            _ = try await h.projectAdmin.advanceClock(by: 3_600)
            #expect(try await h.warpLink.matchAttribution(Self.ios(device), apiKey: h.sdkKey).value?.matched == false)
            // Deleted and installed again: a new install, which says so.
            _ = try await h.projectAdmin.advanceClock(by: 86_400)
            #expect(try await h.warpLink.matchAttribution(Self.ios(device, reinstall: true), apiKey: h.sdkKey).status == 200)
            // A routeless match is not definitive: the next launch checks again.
            let routeless = UUID().uuidString
            let doomed = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/doomed"))
            _ = try await h.admin.seedInstall(
                WarpLinkInstallSeed(deviceID: routeless, linkID: doomed.id, platform: "ios", matchType: "probabilistic", matchConfidence: 0.85))
            try await h.admin.deleteLink(doomed.id)
            let first = try await h.warpLink.matchAttribution(Self.ios(routeless), apiKey: h.sdkKey).get()
            #expect(first.matched && first.linkID == nil)
            _ = try await h.projectAdmin.advanceClock(by: 600)
            _ = try await h.warpLink.matchAttribution(Self.ios(routeless), apiKey: h.sdkKey)
            #expect(try await h.projectAdmin.findings().isEmpty)

            // The app cleared the SDK's gate: the same install checks again after its no-match.
            _ = try await h.projectAdmin.advanceClock(by: 60)
            #expect(try await h.warpLink.matchAttribution(Self.ios(device), apiKey: h.sdkKey).status == 200)
            let found = try await h.projectAdmin.findings()
            #expect(found.map(\.rule) == ["warplink.deferred-check-repeated"])
            #expect(found.first?.device == device && found.first?.severity == "warning" && found.first?.requests.count == 2)
        }
    }

    @Test("warplink.tap-id-reused: a tap retried after 5xx under its id raises nothing; the id on another link one finding")
    func tapIDReused() async throws {
        try await Self.with { h in
            let first = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/1"))
            let second = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/2"))
            let tap = UUID().uuidString.lowercased()
            try await Self.fail(h, "/v1/links/resolve/*", times: 1)
            #expect(try await h.warpLink.resolve(slug: first.slug, apiKey: h.sdkKey, tapID: tap).status == 503)
            _ = try await h.projectAdmin.advanceClock(by: 0.5)
            #expect(try await h.warpLink.resolve(slug: first.slug, apiKey: h.sdkKey, tapID: tap).status == 200)
            _ = try await h.projectAdmin.advanceClock(by: 30)
            #expect(try await h.warpLink.resolve(slug: second.slug, apiKey: h.sdkKey, tapID: UUID().uuidString.lowercased()).status == 200)
            #expect(try await h.projectAdmin.findings().isEmpty)

            _ = try await h.projectAdmin.advanceClock(by: 30)
            #expect(try await h.warpLink.resolve(slug: second.slug, apiKey: h.sdkKey, tapID: tap).status == 200)
            let found = try await h.projectAdmin.findings()
            #expect(found.map(\.rule) == ["warplink.tap-id-reused"])
            #expect(found.first?.device == Self.label(h.sdkKey) && found.first?.severity == "warning" && found.first?.requests.count == 2)
        }
    }

    @Test("warplink.tap-retried-after-client-error: a new tap after a 404 raises nothing; the same tap again after a 404 one finding")
    func tapRetriedAfterClientError() async throws {
        try await Self.with { h in
            #expect(try await h.warpLink.resolve(slug: "missing", apiKey: h.sdkKey, tapID: UUID().uuidString.lowercased()).status == 404)
            _ = try await h.projectAdmin.advanceClock(by: 5) // the user taps the link again: a new tap
            #expect(try await h.warpLink.resolve(slug: "missing", apiKey: h.sdkKey, tapID: UUID().uuidString.lowercased()).status == 404)
            #expect(try await h.projectAdmin.findings().isEmpty)

            let tap = UUID().uuidString.lowercased()
            #expect(try await h.warpLink.resolve(slug: "missing", apiKey: h.sdkKey, tapID: tap).status == 404)
            _ = try await h.projectAdmin.advanceClock(by: 1)
            #expect(try await h.warpLink.resolve(slug: "missing", apiKey: h.sdkKey, tapID: tap).status == 404)
            let found = try await h.projectAdmin.findings()
            #expect(found.map(\.rule) == ["warplink.tap-retried-after-client-error"])
            #expect(found.first?.device == Self.label(h.sdkKey) && found.first?.severity == "warning" && found.first?.requests.count == 2)
        }
    }

    @Test("warplink.resolve-domain-not-a-host: aplnk.to and a custom host raise nothing; no domain, or one with a port, one finding")
    func resolveDomainNotAHost() async throws {
        try await Self.with { h in
            let link = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/d"))
            #expect(try await h.warpLink.resolve(slug: link.slug, domain: "aplnk.to", apiKey: h.sdkKey).status == 200)
            #expect(try await h.warpLink.resolve(slug: link.slug, domain: "go.brand.example", apiKey: h.sdkKey).status == 404) // declared by the app, not ours
            #expect(try await h.projectAdmin.findings().isEmpty)

            #expect(try await h.warpLink.resolve(slug: link.slug, domain: nil, apiKey: h.sdkKey).status == 200)
            _ = try await h.warpLink.resolve(slug: link.slug, domain: "aplnk.to:443", apiKey: h.sdkKey)
            let found = try await h.projectAdmin.findings()
            #expect(found.map(\.rule) == ["warplink.resolve-domain-not-a-host"])
            #expect(found.first?.device == Self.label(h.sdkKey) && found.first?.severity == "warning" && found.first?.count == 2)
        }
    }
}
