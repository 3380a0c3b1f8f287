import Foundation
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// `understudy findings` against a live server, with findings made by real Asleep request
/// sequences (as `AsleepChecksTests` makes them): its text, its filters, `--json`, `--clear`, and
/// the exit status a CI script reads.
@Suite("understudy findings")
struct FindingsCommandTests {
    static let product = AsleepProductInfo(model: "model-123", identifierValue: "SN-0001")

    static func run(_ arguments: [String], _ fixture: AsleepFixture) async -> ControlCommandTests.Outcome {
        await ControlCommandTests.run(["findings", "--project", fixture.project.id] + arguments, on: fixture.server)
    }

    /// A warning: the product registered twice within a minute (`asleep.setup-repeated`).
    static func registerTwice(_ fixture: AsleepFixture) async throws {
        _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: product)
        _ = try await fixture.projectAdmin.advanceClock(by: 5)
        _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: product)
    }

    /// An error: a rejected registration sent again unchanged (`asleep.setup-retried-after-rejection`).
    static func retryRejected(_ fixture: AsleepFixture) async throws {
        let bad = AsleepProductInfo(model: "", identifierValue: "SN-0003")
        for _ in 0..<2 {
            await #expect(throws: UnderstudyClientError.self) { _ = try await fixture.asleep.setup(apiKey: fixture.apiKey, productInfo: bad) }
        }
    }

    @Test("no findings, then only a warning: exit 0, the warning explained with its requests and guide section")
    func warningsOnly() async throws {
        try await AsleepFixture.with(transport: .live, expectingFindings: true) { (fixture: AsleepFixture) async throws in
            _ = try await fixture.projectAdmin.freezeClock(at: "2026-03-01T22:00:00Z")
            let none = await Self.run([], fixture)
            #expect(none.status == 0 && none.standard == "no findings in project \(fixture.project.id)\n", "\(none.error)")

            try await Self.registerTwice(fixture)
            let finding = try #require(try await fixture.projectAdmin.findings().first)
            let listed = await Self.run([], fixture)
            #expect(listed.status == 0 && listed.error.isEmpty, "\(listed.error)")
            let lines = listed.standard.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.first == "1 finding in project \(fixture.project.id): 1 warning")
            #expect(lines.contains("WARNING  asleep.setup-repeated  device SERIAL:SN-0001  1×"))
            #expect(lines.contains("  \(finding.title)") && lines.contains("  What the app did: \(finding.whatTheAppDid)"))
            #expect(lines.contains("  The SDK's rule: \(finding.ruleText)"))
            #expect(lines.contains("  Requests (journal ids): \(finding.requests.map(String.init).joined(separator: ", "))") && finding.requests.count == 2)
            #expect(lines.contains("  Guide: docs/checks.md#asleepsetup-repeated"))
            // The ids are the journal's: the second registration is among them.
            let registrations = try await fixture.projectAdmin.requests(JournalQuery(platform: "asleep", method: "POST")).requests.map(\.id)
            #expect(Set(finding.requests) == Set(registrations))
        }
    }

    @Test("an error among the findings is exit 1, errors listed first; filters and --json agree with the control plane")
    func errorsFail() async throws {
        try await AsleepFixture.with(transport: .live, expectingFindings: true) { (fixture: AsleepFixture) async throws in
            _ = try await fixture.projectAdmin.freezeClock(at: "2026-03-01T22:00:00Z")
            try await Self.registerTwice(fixture)
            try await Self.retryRejected(fixture)

            let listed = await Self.run([], fixture)
            #expect(listed.status == 1, "\(listed.error)")
            #expect(listed.standard.hasPrefix("2 findings in project \(fixture.project.id): 1 error, 1 warning\n"))
            let error = try #require(listed.standard.range(of: "ERROR  asleep.setup-retried-after-rejection  device SERIAL:SN-0003  1×"))
            let warning = try #require(listed.standard.range(of: "WARNING  asleep.setup-repeated"))
            #expect(error.lowerBound < warning.lowerBound)

            // After the filters: only warnings is exit 0, the error's rule or device alone exit 1.
            let warnings = await Self.run(["--severity", "warning"], fixture)
            #expect(warnings.status == 0 && !warnings.standard.contains("ERROR") && warnings.standard.contains("matching the filters"))
            #expect(await Self.run(["--rule", "asleep.setup-retried-after-rejection"], fixture).status == 1)
            #expect(await Self.run(["--device", "SERIAL:SN-0001"], fixture).status == 0)
            #expect(await Self.run(["--platform", "asleep", "--since", "2026-03-01T22:00:00Z"], fixture).status == 1)
            let later = await Self.run(["--since", "2030-01-01T00:00:00Z"], fixture)
            #expect(later.status == 0 && later.standard == "no findings matching the filters in project \(fixture.project.id)\n")

            struct List: Decodable { var findings: [Finding] }
            let json = await Self.run(["--json"], fixture)
            let expected = try await fixture.projectAdmin.findings()
            #expect(try json.status == 1 && json.decode(List.self).findings == expected)

            // Raising the warning's rule to an error makes it fail the step too.
            try await fixture.projectAdmin.configureCheck("asleep.setup-repeated", severity: "error")
            #expect(await Self.run(["--rule", "asleep.setup-repeated"], fixture).status == 1)

            let cleared = await Self.run(["--clear"], fixture)
            #expect(cleared.status == 0 && cleared.standard == "cleared the findings of project \(fixture.project.id)\n")
            #expect(try await fixture.projectAdmin.findings().isEmpty)
            #expect(await Self.run([], fixture).status == 0)
        }
    }

    @Test("a bad filter is exit 2, a missing project 3, an unreachable server 5 (1 means error findings)")
    func otherStatuses() async throws {
        try await AsleepFixture.with { (fixture: AsleepFixture) async throws in
            let unknownRule = await Self.run(["--rule", "asleep.no-such-rule"], fixture)
            #expect(unknownRule.status == 2 && unknownRule.error.contains("400") && unknownRule.error.contains("asleep.no-such-rule"))
            #expect(await Self.run(["--since", "yesterday"], fixture).status == 2)
            #expect(await Self.run(["--severity", "fatal"], fixture).status == 2)
            #expect(await Self.run(["--clear", "--rule", "asleep.setup-repeated"], fixture).status == 2)
            #expect(await ControlCommandTests.run(["findings"], on: fixture.server).status == 2)
            #expect(await ControlCommandTests.run(["findings", "--project", "prj_missing"], on: fixture.server).status == 3)
        }
        let reserved = try ReservedClosedPort()
        defer { reserved.release() }
        let captured = CapturedOutput()
        let status = await ControlCommand.run(
            ["findings", "--project", "demo", "--server", "http://127.0.0.1:\(reserved.port)"], environment: [:], output: captured.output)
        #expect(status == 5 && captured.error.hasPrefix("understudy: cannot reach "))
    }
}
