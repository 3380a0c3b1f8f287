import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// Asleep's integration checks end to end: for each rule, the sequence the 3.3 guide calls
/// correct raises no finding and the mistake exactly one. The clock is frozen and moved on by the
/// control plane wherever the SDK would wait.
@Suite("Asleep integration checks")
struct AsleepChecksTests {
    static let product = AsleepProductInfo(model: "model-123", identifierValue: "SN-0001")

    /// The fixture with a frozen clock.
    static func with(_ body: (AsleepFixture) async throws -> Void) async throws {
        try await AsleepFixture.with(expectingFindings: true) { (fixture: AsleepFixture) async throws in
            _ = try await fixture.projectAdmin.freezeClock(at: "2026-03-01T22:00:00Z")
            try await body(fixture)
        }
    }

    /// The findings' rules, sorted.
    static func rules(_ fixture: AsleepFixture) async throws -> [String] {
        try await fixture.projectAdmin.findings().map(\.rule).sorted()
    }

    /// Makes the next `times` requests to `path` fail with `status`.
    static func fail(_ fixture: AsleepFixture, _ method: String, _ path: String, status: Int = 503, times: Int) async throws {
        _ = try await fixture.projectAdmin.addFault(
            FaultRule(match: .init(platform: "asleep", method: method, path: path), action: .status(status), times: times))
    }

    @Test("asleep.setup-repeated: one registration, and another only after a reinstall, raise nothing; two within a minute one finding")
    func setupRepeated() async throws {
        try await Self.with { (fixture: AsleepFixture) async throws in
            let registration = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product)
            _ = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, productKey: registration.productKey)
            _ = try await fixture.projectAdmin.advanceClock(by: 600) // reinstalled: the stored registration is gone
            _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product)
            #expect(try await Self.rules(fixture) == [])

            _ = try await fixture.projectAdmin.advanceClock(by: 5)
            _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product)
            let found = try await fixture.projectAdmin.findings()
            #expect(found.map(\.rule) == ["asleep.setup-repeated"])
            #expect(found.first?.device == "SERIAL:SN-0001" && found.first?.severity == "warning" && found.first?.requests.count == 2)
        }
    }

    @Test("asleep.setup-retried-after-rejection: corrected ProductInfo raises nothing; the rejected one again is a finding per retry")
    func setupRetriedAfterRejection() async throws {
        try await Self.with { (fixture: AsleepFixture) async throws in
            let tooLong = AsleepProductInfo(model: String(repeating: "m", count: 101), identifierValue: "SN-0002")
            await #expect(throws: UnderstudyClientError.self) { _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: tooLong) }
            _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: AsleepProductInfo(model: "model-2", identifierValue: "SN-0002"))
            #expect(try await Self.rules(fixture) == [])

            let bad = AsleepProductInfo(model: "", identifierValue: "SN-0003")
            for _ in 0..<3 {
                await #expect(throws: UnderstudyClientError.self) { _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: bad) }
            }
            // Also three of the same refused request: the generic rule says the same, and gives way.
            let found = try await fixture.projectAdmin.findings()
            #expect(found.map(\.rule) == ["asleep.setup-retried-after-rejection"])
            #expect(found.first?.count == 2 && found.first?.severity == "error" && found.first?.device == "SERIAL:SN-0003")
        }
    }

    @Test("asleep.setup-retried-at-once: the SDK's 2/4/8 s retries and a later setup raise nothing; setup from the failure callback one finding")
    func setupRetriedAtOnce() async throws {
        try await Self.with { (fixture: AsleepFixture) async throws in
            try await Self.fail(fixture, "POST", "/ai/v1/products", times: 5)
            for wait in [2.0, 4, 8] {
                await #expect(throws: UnderstudyClientError.self) { _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product) }
                _ = try await fixture.projectAdmin.advanceClock(by: wait)
            }
            await #expect(throws: UnderstudyClientError.self) { _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product) }
            _ = try await fixture.projectAdmin.advanceClock(by: 30) // productRegisterFailed; setup again after a while
            await #expect(throws: UnderstudyClientError.self) { _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product) }
            _ = try await fixture.projectAdmin.advanceClock(by: 2)
            _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product)
            #expect(try await Self.rules(fixture) == [])

            try await Self.fail(fixture, "POST", "/ai/v1/products", times: 1)
            let other = AsleepProductInfo(model: "model-123", identifierValue: "SN-0004")
            await #expect(throws: UnderstudyClientError.self) { _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: other) }
            _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: other)
            let found = try await fixture.projectAdmin.findings()
            #expect(found.map(\.rule) == ["asleep.setup-retried-at-once"] && found.first?.device == "SERIAL:SN-0004")
        }
    }

    @Test("asleep.init-repeated: init retried after failures, or once per launch, raises nothing; three joins within a minute one finding")
    func initRepeated() async throws {
        try await Self.with { (fixture: AsleepFixture) async throws in
            let key = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product).productKey
            let user = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, productKey: key).userId
            try await Self.fail(fixture, "GET", "/ai/v1/users/*", times: 2)
            for _ in 0..<2 {
                await #expect(throws: UnderstudyClientError.self) { _ = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: user, productKey: key) }
            }
            _ = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: user, productKey: key)
            _ = try await fixture.projectAdmin.advanceClock(by: 3_600) // the next launch
            _ = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: user, productKey: key)
            #expect(try await Self.rules(fixture) == [])

            for _ in 0..<2 {
                _ = try await fixture.projectAdmin.advanceClock(by: 10)
                _ = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: user, productKey: key)
            }
            let found = try await fixture.projectAdmin.findings()
            #expect(found.map(\.rule) == ["asleep.init-repeated"] && found.first?.requests.count == 3)
        }
    }

    @Test("asleep.tracking-before-init: tracking after a successful retry of init raises nothing; tracking after a failed init one finding")
    func trackingBeforeInit() async throws {
        try await Self.with { (fixture: AsleepFixture) async throws in
            let key = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product).productKey
            let user = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, productKey: key).userId
            _ = try await fixture.projectAdmin.advanceClock(by: 3_600)
            try await Self.fail(fixture, "GET", "/ai/v1/users/*", times: 1)
            await #expect(throws: UnderstudyClientError.self) { _ = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: user, productKey: key) }
            let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: user, productKey: key)
            _ = try await fixture.asleep.startTracking(config: config)
            #expect(try await Self.rules(fixture) == [])

            _ = try await fixture.projectAdmin.advanceClock(by: 3_600)
            try await Self.fail(fixture, "GET", "/ai/v1/users/*", times: 1)
            await #expect(throws: UnderstudyClientError.self) { _ = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey, userId: user, productKey: key) }
            _ = try await fixture.asleep.startTracking(config: config)
            let found = try await fixture.projectAdmin.findings()
            #expect(found.map(\.rule) == ["asleep.tracking-before-init"] && found.first?.severity == "error")
        }
    }

    @Test("a project that turns a rule off gets no finding from it, and expectNoFindings passes")
    func ruleOff() async throws {
        try await Self.with { (fixture: AsleepFixture) async throws in
            let rules = try await fixture.projectAdmin.configureCheck("asleep.setup-repeated", enabled: false, severity: "error")
            let rule = try #require(rules.first { $0.id == "asleep.setup-repeated" })
            #expect(!rule.enabled && rule.severity == "error" && rule.defaultSeverity == "warning")
            #expect(
                try await fixture.projectAdmin.checks().filter { $0.platform == nil }.map(\.id).sorted() == [
                    "repeat-after-4xx", "retry-before-retry-after", "retry-burst-after-5xx",
                ])
            for _ in 0..<2 { _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product) }
            try await fixture.server.expectNoFindings(project: fixture.project.id)

            // Back on: requests seen while it was off count for nothing, so two more make a finding.
            try await fixture.projectAdmin.configureCheck("asleep.setup-repeated", enabled: true)
            for _ in 0..<2 { _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: Self.product) }
            let texts = try await fixture.server.findingTexts(project: fixture.project.id)
            #expect(texts.count == 1 && texts.first?.contains("asleep.setup-repeated") == true && texts.first?.contains("once per app launch") == true)
            await withKnownIssue("expectNoFindings fails the test with the finding's text") {
                try await fixture.server.expectNoFindings(project: fixture.project.id)
            }
            #expect(try await fixture.projectAdmin.findings(FindingQuery(severity: "error")).count == 1) // raised to an error above
            try await fixture.projectAdmin.clearFindings()
            try await fixture.server.expectNoFindings(project: fixture.project.id)
        }
    }
}
