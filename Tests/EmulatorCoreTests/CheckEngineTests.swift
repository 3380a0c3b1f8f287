import EmulatorCore
import Foundation
import HTTPServer
import Storage
import Testing

/// The integration checks' engine and the generic rules, on the core's test platform: each
/// rule's documented sequence raises nothing, its mistake exactly one finding; settings, clearing,
/// reset, snapshots, bundles, metrics, and a failing store that must not change an SDK answer.
@Suite("Integration checks: engine and generic rules")
struct CheckEngineTests {
    /// A harness with a project whose clock is frozen, and helpers to send to `/testing/echo`.
    struct Checked {
        let harness: Harness
        let id: String
        let key: String

        static func make(_ harness: Harness) async throws -> Checked {
            let (id, key) = try await harness.project()
            let frozen = try await harness.call("PUT", "/__admin/projects/\(id)/clock", json: ["mode": "frozen", "now": "2030-01-01T00:00:00Z"])
            #expect(frozen.status == 200)
            return Checked(harness: harness, id: id, key: key)
        }

        /// One request to the echo route, answered `status` (or as `fault` says).
        @discardableResult
        func send(_ method: String = "POST", status: Int = 200, device: String? = "phone-1", fault: String? = nil, body: JSONValue = ["n": 1]) async -> Harness.Reply {
            var headers = ["x-test-key": key, "x-test-status": String(status)]
            if let device { headers["x-test-device"] = device }
            if let fault { headers["X-Understudy-Fault"] = fault }
            return await harness.respond(method, "/testing/echo", json: method == "GET" ? nil : body, headers: headers)
        }

        func advance(_ seconds: Double) async throws {
            #expect(try await harness.call("POST", "/__admin/projects/\(id)/clock/advance", json: ["seconds": .double(seconds)]).status == 200)
        }

        func findings(_ query: String = "") async throws -> [JSONValue] {
            let reply = try await harness.call("GET", "/__admin/projects/\(id)/findings" + query)
            #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
            return reply.json?["findings"]?.arrayValue ?? []
        }

        func rules(of findings: [JSONValue]) -> [String] { findings.compactMap { $0["rule"]?.stringValue } }
    }

    static func with(_ body: (Checked) async throws -> Void) async throws {
        let harness = try await Harness()
        do {
            try await body(try await Checked.make(harness))
        } catch {
            await harness.stop()
            throw error
        }
        await harness.stop()
    }

    @Test("retry-before-retry-after: waiting out Retry-After raises nothing, retrying sooner one finding")
    func retryAfter() async throws {
        try await Self.with { (checked: Checked) async throws in
            #expect(await checked.send(fault: "status=503;retryAfter=5").status == 503)
            try await checked.advance(5)
            #expect(await checked.send().status == 200)
            #expect(try await checked.findings().isEmpty)

            await checked.send(fault: "status=429;retryAfter=30")
            try await checked.advance(2)
            await checked.send()
            let found = try await checked.findings()
            #expect(checked.rules(of: found) == ["retry-before-retry-after"])
            #expect(found.first?["device"] == "phone-1" && found.first?["requests"]?.arrayValue?.count == 2)
            #expect(found.first?["whatTheAppDid"]?.stringValue?.contains("asked it to wait 30 s") == true)
        }
    }

    @Test("retry-burst-after-5xx: a back-off of 1, 2 and 4 s raises nothing, four attempts at once one finding")
    func retryBurst() async throws {
        try await Self.with { (checked: Checked) async throws in
            for wait in [1.0, 2, 4] {
                await checked.send(fault: "status=503")
                try await checked.advance(wait)
            }
            await checked.send()
            #expect(try await checked.findings().isEmpty)

            for _ in 0..<3 { await checked.send(fault: "reset") }
            await checked.send(fault: "status=500")
            let found = try await checked.findings()
            #expect(checked.rules(of: found) == ["retry-burst-after-5xx"])
            #expect(found.first?["requests"]?.arrayValue?.count == 4 && found.first?["count"] == 1)
        }
    }

    @Test("repeat-after-4xx: a corrected request or a lookup's 404 raises nothing, the same refused request twice more one finding")
    func repeatAfterClientError() async throws {
        try await Self.with { (checked: Checked) async throws in
            await checked.send(status: 422, body: ["n": 1])
            await checked.send(status: 422, body: ["n": 2])
            await checked.send(status: 201, body: ["n": 3])
            for _ in 0..<3 { await checked.send("GET", status: 404) }
            #expect(try await checked.findings().isEmpty)

            // Two repeats, but more than 10 s apart: not a loop.
            await checked.send(status: 400, body: ["n": 4])
            try await checked.advance(11)
            await checked.send(status: 400, body: ["n": 4])
            try await checked.advance(11)
            await checked.send(status: 400, body: ["n": 4])
            #expect(try await checked.findings().isEmpty)

            for _ in 0..<3 { await checked.send(status: 403, body: ["n": 5]) }
            let found = try await checked.findings()
            #expect(checked.rules(of: found) == ["repeat-after-4xx"])
            #expect(found.first?["requests"]?.arrayValue?.count == 3)
        }
    }

    @Test("a request whose platform names no device is compared with nothing")
    func noDevice() async throws {
        try await Self.with { (checked: Checked) async throws in
            for _ in 0..<4 { await checked.send(device: nil, fault: "status=503") }
            for _ in 0..<3 { await checked.send(status: 400, device: nil) }
            #expect(try await checked.findings().isEmpty)
        }
    }

    @Test("a refused X-Understudy-Fault header is the test tool's mistake, not the app's: not checked")
    func refusedFaultHeader() async throws {
        try await Self.with { (checked: Checked) async throws in
            for _ in 0..<3 { #expect(await checked.send(fault: "status=lots").status == 400) }
            #expect(try await checked.findings().isEmpty)
        }
    }

    @Test("a device name from the request is kept to 200 bytes")
    func longDevice() async throws {
        try await Self.with { (checked: Checked) async throws in
            let long = String(repeating: "d", count: 5_000)
            for _ in 0..<3 { await checked.send(status: 400, device: long) }
            let found = try await checked.findings()
            #expect(found.count == 1 && found.first?["device"]?.stringValue == String(repeating: "d", count: CheckEngine.maxDeviceBytes))
        }
    }

    @Test("devices are apart: one phone's failures do not count against another")
    func devicesApart() async throws {
        try await Self.with { (checked: Checked) async throws in
            for index in 0..<4 { await checked.send(device: "phone-\(index)", fault: "status=503") }
            #expect(try await checked.findings().isEmpty)
        }
    }

    @Test("a finding has every member, counts repeats on one row, and the filters select")
    func findingShape() async throws {
        try await Self.with { (checked: Checked) async throws in
            for _ in 0..<6 { await checked.send(status: 400) }
            try await checked.advance(60)
            for _ in 0..<3 { await checked.send(device: "phone-2", fault: "status=502") }
            await checked.send(device: "phone-2", fault: "status=502")
            let found = try await checked.findings()
            #expect(found.count == 2)
            let repeated = try #require(found.first { $0["rule"] == "repeat-after-4xx" })
            #expect(repeated["count"] == 2 && repeated["platform"] == "testing" && repeated["severity"] == "warning")
            #expect(repeated["firstSeen"] == "2030-01-01T00:00:00.000Z" && repeated["lastSeen"] == "2030-01-01T00:00:00.000Z")
            for member in ["title", "ruleText", "whatTheAppDid"] { #expect((repeated[member]?.stringValue ?? "").count > 10, "\(member)") }
            #expect(repeated["requests"]?.arrayValue?.count == 5) // the first occurrence's three and the second's last two
            #expect(found.first?["rule"] == "retry-burst-after-5xx") // most recently seen first
            #expect(checked.rules(of: try await checked.findings("?device=phone-2")) == ["retry-burst-after-5xx"])
            #expect(checked.rules(of: try await checked.findings("?rule=repeat-after-4xx&platform=testing")) == ["repeat-after-4xx"])
            let since = try await checked.findings("?since=2030-01-01T00:00:30Z")
            #expect(checked.rules(of: since) == ["retry-burst-after-5xx"], "\(since)")
            let errors = try await checked.findings("?severity=error")
            #expect(errors.isEmpty, "\(errors)")
            for bad in ["?platform=nope", "?severity=fatal", "?rule=nope", "?since=yesterday", "?colour=red"] {
                #expect(try await checked.harness.call("GET", "/__admin/projects/\(checked.id)/findings" + bad).status == 400, "\(bad)")
            }
        }
    }

    @Test("a project turns a rule off or raises its severity; unknown rules and members are 400s")
    func settings() async throws {
        try await Self.with { (checked: Checked) async throws in
            let path = "/__admin/projects/\(checked.id)/checks"
            let off = try await checked.harness.call("PATCH", path, json: ["rules": ["repeat-after-4xx": ["enabled": false], "retry-burst-after-5xx": ["severity": "error"]]])
            #expect(off.status == 200)
            let listed = try await checked.harness.call("GET", path).json?["rules"]?.arrayValue ?? []
            #expect(listed.first { $0["id"] == "repeat-after-4xx" }?["enabled"] == false)
            #expect(listed.first { $0["id"] == "retry-burst-after-5xx" }?["severity"] == "error")
            for _ in 0..<3 { await checked.send(status: 400) }
            for _ in 0..<4 { await checked.send(fault: "status=503") }
            let found = try await checked.findings()
            #expect(checked.rules(of: found) == ["retry-burst-after-5xx"] && found.first?["severity"] == "error")
            #expect(try await checked.findings("?severity=error").count == 1)
            // null removes an override: the rule is back on.
            let back = try await checked.harness.call("PATCH", path, json: ["rules": ["repeat-after-4xx": .null]])
            #expect(back.json?["settings"]?["rules"]?["repeat-after-4xx"] == nil)
            for body: JSONValue in [
                ["rules": ["nope": ["enabled": false]]], ["rules": ["repeat-after-4xx": ["enabled": "no"]]], ["rules": ["repeat-after-4xx": ["severity": "fatal"]]],
                ["rules": ["repeat-after-4xx": ["colour": 1]]], ["other": 1], [1],
            ] {
                #expect(try await checked.harness.call("PATCH", path, json: body).status == 400, "\(body)")
            }
            #expect(try await checked.harness.call("PATCH", path, body: Data("{".utf8)).status == 400)
        }
    }

    @Test("clearing the findings also forgets the project's earlier requests")
    func clearing() async throws {
        try await Self.with { (checked: Checked) async throws in
            for _ in 0..<3 { await checked.send(status: 400) }
            #expect(try await checked.findings().count == 1)
            #expect(try await checked.harness.call("DELETE", "/__admin/projects/\(checked.id)/findings").status == 204)
            #expect(try await checked.findings().isEmpty)
            // Two more of the same request: without the forgotten first two they are not yet a loop.
            for _ in 0..<2 { await checked.send(status: 400) }
            #expect(try await checked.findings().isEmpty)
        }
    }

    @Test("reset clears findings and settings; snapshots and bundles carry both")
    func keptWithTheProject() async throws {
        try await Self.with { (checked: Checked) async throws in
            let harness = checked.harness, base = "/__admin/projects/\(checked.id)"
            _ = try await harness.call("PATCH", base + "/checks", json: ["rules": ["retry-burst-after-5xx": ["enabled": false]]])
            for _ in 0..<3 { await checked.send(status: 400) }
            #expect(try await harness.call("POST", base + "/snapshots", json: ["name": "one"]).status == 201)
            let bundle = try await harness.call("GET", base + "/export")
            #expect(bundle.json?["tables"]?["findings"]?["rows"]?.arrayValue?.count == 1)
            #expect(bundle.json?["tables"]?["check_settings"]?["rows"]?.arrayValue?.count == 1)

            #expect(try await harness.call("POST", base + "/reset").status == 200)
            #expect(try await checked.findings().isEmpty)
            #expect(try await harness.call("GET", base + "/checks").json?["settings"]?["rules"] == [:])
            // The reset also forgot the requests: two more of the same are not a loop yet.
            _ = try await harness.call("PUT", base + "/clock", json: ["mode": "frozen", "now": "2030-01-01T00:00:00Z"])
            for _ in 0..<2 { await checked.send(status: 400) }
            #expect(try await checked.findings().isEmpty)

            #expect(try await harness.call("POST", base + "/snapshots/one/restore").status == 200)
            #expect(checked.rules(of: try await checked.findings()) == ["repeat-after-4xx"])
            #expect(try await harness.call("GET", base + "/checks").json?["settings"]?["rules"]?["retry-burst-after-5xx"]?["enabled"] == false)

            // Replacing another project with the bundle (its credentials are this project's, so not beside it).
            let (other, _) = try await harness.project("other")
            _ = try await harness.call("DELETE", base)
            let copy = try await harness.call("POST", "/__admin/projects/import?replace=\(other)", json: bundle.json)
            #expect(copy.status == 201, "\(String(decoding: copy.body, as: UTF8.self))")
            let copied = try await harness.call("GET", "/__admin/projects/\(other)/findings").json?["findings"]?.arrayValue ?? []
            #expect(copied.count == 1 && copied.first?["requests"]?.arrayValue?.count == 3)
        }
    }

    @Test("each breach counts in understudy_findings_total under its rule")
    func metrics() async throws {
        try await Self.with { (checked: Checked) async throws in
            for _ in 0..<6 { await checked.send(status: 400) }
            let text = String(decoding: try await checked.harness.call("GET", "/__admin/metrics").body, as: UTF8.self)
            #expect(text.contains("understudy_findings_total{rule=\"repeat-after-4xx\"} 2"))
            #expect(text.contains("understudy_findings_total{rule=\"retry-before-retry-after\"} 0"))
        }
    }

    @Test("a store that fails to keep a finding changes no SDK answer")
    func storeFailure() async throws {
        try await Self.with { (checked: Checked) async throws in
            try await checked.harness.emulator.services.database.write { try $0.run("DROP TABLE findings") }
            for _ in 0..<3 {
                let reply = await checked.send(status: 400)
                #expect(reply.status == 400 && reply.json?["status"] == 400)
            }
            await checked.harness.emulator.checks.flush()
            #expect(await checked.send().status == 200)
        }
    }

    @Test("with the checks off nothing is observed or found")
    func off() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("checks-off-\(UUID().uuidString)/db.sqlite").path
        let database = try SQLiteDatabase(path: path)
        let migrator = try Migrator(directory: try Migrator.locateDirectory(configured: nil))
        try database.withWriterBlocking { _ = try migrator.migrate($0) }
        var settings = EmulatorSettings()
        settings.checksEnabled = false
        let emulator = try Emulator(services: EmulatorServices(database: database, settings: settings), platforms: [TestPlatform()])
        try await emulator.load()
        #expect(!emulator.checks.isEnabled)
        let project = try await emulator.projects.create(id: "p", name: "p", seed: nil, credentialOverrides: [:])
        let key = project.credentials[.testing]?["key"] ?? ""
        for _ in 0..<3 {
            var headers = HTTPHeaders()
            for (name, value) in ["Host": "127.0.0.1", "x-test-key": key, "x-test-device": "d", "x-test-status": "400"] { headers.add(name, value) }
            _ = await emulator.respond(to: Request(method: .post, target: "/testing/echo", headers: headers, body: Data("{}".utf8)))
        }
        #expect(try await emulator.checks.findings(project: "p").isEmpty)
    }

    @Test("the observe step gets what the handler noted")
    func notes() async throws {
        struct Probe: CheckRule {
            let definition = RuleDefinition(id: "probe", platform: .testing, severity: .info, title: "Probe", ruleText: "Noted facts reach the rules.")
            func evaluate(_ request: CheckedRequest, memory: inout [String: Trace]) -> Violation? {
                request.fact("echoed") == "yes" ? Violation(device: request.device ?? "", whatTheAppDid: "echoed", evidence: [request.journalID]) : nil
            }
        }
        struct ProbedPlatform: Platform {
            let inner = TestPlatform()
            var id: PlatformID { inner.id }
            func pathPrefix(forHost host: String) -> String? { inner.pathPrefix(forHost: host) }
            func routes() -> [Route] { inner.routes() }
            func adminRoutes() -> [AdminRoute] { [] }
            func errorResponse(for failure: CoreFailure, requestID: String) -> Response { inner.errorResponse(for: failure, requestID: requestID) }
            func presentedCredentials(in request: Request) -> [PresentedCredential] { inner.presentedCredentials(in: request) }
            func lookUpCredential(_ credential: PresentedCredential, services: EmulatorServices) async throws -> CredentialRecord? {
                try await inner.lookUpCredential(credential, services: services)
            }
            func makeCredentials(using generator: inout IDGenerator) -> [String: String] { inner.makeCredentials(using: &generator) }
            func provision(project: ProjectID, credentials: [String: String], connection: any StoreConnection, now: Date) throws {}
            func sdkSettings(endpoints: AdvertisedEndpoints, credentials: [String: String]) -> [String: String] { [:] }
            var sdkConnection: SDKConnection { inner.sdkConnection }
            var projectTables: [String] { [] }
            func loadFixtures(_ fixtures: JSONValue, project: ProjectID, connection: any StoreConnection, now: Date) throws {}
            func openAPIDocument() -> JSONValue { inner.openAPIDocument() }
            var checkRules: [any CheckRule] { [Probe()] }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("checks-notes-\(UUID().uuidString)/db.sqlite").path
        let database = try SQLiteDatabase(path: path)
        let migrator = try Migrator(directory: try Migrator.locateDirectory(configured: nil))
        try database.withWriterBlocking { _ = try migrator.migrate($0) }
        let emulator = try Emulator(services: EmulatorServices(database: database), platforms: [ProbedPlatform()])
        try await emulator.load()
        let project = try await emulator.projects.create(id: "p", name: "p", seed: nil, credentialOverrides: [:])
        var headers = HTTPHeaders()
        for (name, value) in ["Host": "127.0.0.1", "x-test-key": project.credentials[.testing]?["key"] ?? "", "x-test-device": "d"] { headers.add(name, value) }
        _ = await emulator.respond(to: Request(method: .post, target: "/testing/echo", headers: headers, body: Data("{}".utf8)))
        // A fault answered instead of the handler: nothing was noted.
        headers.add("X-Understudy-Fault", "status=500")
        _ = await emulator.respond(to: Request(method: .post, target: "/testing/echo", headers: headers, body: Data("{}".utf8)))
        let found = try await emulator.checks.findings(project: "p")
        #expect(found.map(\.rule) == ["probe"] && found.first?.count == 1)
    }
}
