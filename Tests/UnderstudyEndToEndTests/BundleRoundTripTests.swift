import EmulatorCore
import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// Helpers shared by the bundle suites.
enum BundleSupport {
    /// The bundle with the members that legitimately differ between two exports (the project id
    /// and the export time) set to fixed values, re-encoded (sorted keys) for a byte comparison.
    static func comparable(_ data: Data) throws -> Data {
        guard case .object(var members) = try JSONValue.parse(data), case .object(var project)? = members["project"] else {
            Issue.record("not a bundle: \(String(decoding: data.prefix(200), as: UTF8.self))")
            return data
        }
        project["id"] = "ID"
        members["project"] = .object(project)
        members["exportedAt"] = "TIME"
        return JSONValue.object(members).encoded()
    }

    /// The bundle parsed, with `change` applied, encoded again.
    static func edited(_ data: Data, _ change: (inout [String: JSONValue]) -> Void) throws -> Data {
        guard case .object(var members) = try JSONValue.parse(data) else { return data }
        change(&members)
        return JSONValue.object(members).encoded()
    }

    /// The names of the non-empty tables of a bundle.
    static func tables(_ data: Data) throws -> [String] {
        (try JSONValue.parse(data)["tables"]?.objectValue ?? [:]).keys.sorted()
    }

    /// The status of a failed client call, or nil when it succeeded or failed otherwise.
    static func status(_ body: () async throws -> Void) async -> (status: Int, body: String)? {
        do {
            try await body()
            return nil
        } catch {
            if case .unexpectedStatus(let status, let text)? = error as? UnderstudyClientError { return (status, text) }
            return nil
        }
    }
}

@Suite("Project bundles: round trip")
struct BundleRoundTripTests {
    @Test("export → delete → import → export gives the same document apart from the project id and export time, for every platform")
    func roundTrip() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let admin = server.client.admin
            let demo = try await admin.project("demo").get()
            _ = try await admin.project("demo").freezeClock(at: "2026-03-01T10:00:00.000Z")
            // SDK traffic on top of the fixtures: a WarpLink click, WarrantyLife tokens, a fault rule's counters.
            let tap = try await server.client.warpLink.tap(slug: "welcome")
            #expect(tap.status == 302)
            let repository = server.client.warrantyLife.repository(apiKey: demo.credential("warrantylife", "developerKey"), deviceID: "DEMO-OLD-DEVICE")
            try await repository.getTokenViaUserPassword(username: "demo@example.com", password: "demo-password")
            let voucher = try await repository.getVoucherByVoucherCode(voucherCode: "DEMO-NORMAL").action
            // WarpLink: the click claimed by an install; Asleep: a product, tokens, a user and an open session.
            _ = try await server.client.warpLink.matchAttribution(WarpLinkAttributionTests.androidBody(), apiKey: demo.credential("warplink", "sdkKey"))
            let asleepKey = demo.credential("asleep", "apiKey")
            let registration = try await server.client.asleep.setup(
                apiKey: asleepKey, productInfo: AsleepProductInfo(model: "m", identifierType: "SERIAL", identifierValue: "SN-1"))
            _ = try await server.client.asleep.issueToken(appId: demo.credential("asleep", "appId"), appSecret: demo.credential("asleep", "appSecret"))
            let sleeper = try await server.client.asleep.initAsleepConfig(apiKey: asleepKey, productKey: registration.productKey, timezone: "Asia/Seoul", service: "SleepApp")
            let session = try await server.client.asleep.startTracking(config: sleeper)
            _ = try await server.client.asleep.uploadChunk(config: sleeper, sessionId: session, seqNum: 0, chunk: AsleepClient.melChunk())
            _ = try await admin.project("demo").addFault(
                FaultRule(
                    match: .init(platform: "warplink", path: "/v1/never/**"),
                    action: .init(type: "status", status: 503), times: 3, after: 1, ttlSeconds: 900))

            let first = try await admin.project("demo").export()
            // Deterministic: the server's bytes are already the sorted-key encoding.
            #expect(try JSONValue.parse(first).encoded() == first)
            let tables = try BundleSupport.tables(first)
            for prefix in ["warplink_", "asleep_", "wl_", "telematics_"] {
                #expect(tables.contains { $0.hasPrefix(prefix) }, "no \(prefix) rows in \(tables)")
            }
            for table in ["warplink_clicks", "warplink_installs", "asleep_products", "asleep_tokens", "asleep_sessions", "asleep_chunks", "wl_vouchers", "telematics_samples"] {
                #expect(tables.contains(table), "\(table) is empty in \(tables)")
            }
            #expect(tables.count >= 28, "non-empty tables: \(tables)")
            #expect(try JSONValue.parse(first)["faultRules"]?[0]?["times"] == 3)

            try await admin.project("demo").delete()
            let copy = try await admin.importProject(first, id: "copy")
            #expect(copy.id == "copy" && copy.credentials == demo.credentials)
            #expect(try await admin.project("copy").clock().mode == "frozen")
            let second = try await admin.project("copy").export()
            #expect(try BundleSupport.comparable(first) == BundleSupport.comparable(second))
            #expect(try BundleSupport.tables(second) == tables)

            // The imported project answers the SDKs with the imported credentials.
            let again = server.client.warrantyLife.repository(apiKey: demo.credential("warrantylife", "developerKey"), deviceID: "DEMO-OLD-DEVICE")
            try await again.getTokenViaUserPassword(username: "demo@example.com", password: "demo-password")
            // The same call on the copy answers what it answered on the original: the state came along.
            #expect(try await again.getVoucherByVoucherCode(voucherCode: "DEMO-NORMAL").action == voucher)
            let config = AsleepConfig(apiKey: demo.credential("asleep", "apiKey"), userId: "G-20260101000000-DemoUser000000000001", timezone: "Asia/Seoul")
            #expect(
                try await server.client.asleep.reports(config: config, orderBy: "ASC").sleepSessionList.map(\.sessionId)
                    == ["20260105130000_demo1", "20260106130000_demo2"])
            #expect(try await server.client.warpLink.tap(slug: "welcome").status == 302)
            #expect(try await server.client.asleep.report(config: sleeper, sessionId: session).session.state == "OPEN")
            let rules = try await admin.project("copy").faults()
            #expect(rules.count == 1 && rules.first?.times == 3 && rules.first?.id?.hasPrefix("flt_") == true)
        }
    }

    @Test("import with ?replace= swaps a project's state in one step, keeping its id; the demo state comes back")
    func replace() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let admin = server.client.admin
            let before = try await admin.project("demo").export()
            #expect(try await server.client.warpLink.tap(slug: "welcome").status == 302)
            _ = try await admin.project("demo").addFault(FaultRule(match: .init(platform: "asleep"), action: .init(type: "status", status: 500)))
            #expect(try await BundleSupport.comparable(admin.project("demo").export()) != BundleSupport.comparable(before))
            let replaced = try await admin.importProject(before, replacing: "demo")
            #expect(replaced.id == "demo")
            #expect(try await admin.project("demo").faults().isEmpty)
            #expect(try await BundleSupport.comparable(admin.project("demo").export()) == BundleSupport.comparable(before))
            #expect(try await admin.projects().map(\.id) == ["demo"])
        }
    }

    @Test("a failing replace leaves the old project exactly as it was")
    func replaceAtomicity() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let admin = server.client.admin
            let before = try await admin.project("demo").export()
            // The last table's first row breaks the schema: everything before it was already written.
            let broken = try BundleSupport.edited(before) { members in
                guard case .object(var tables)? = members["tables"], let last = tables.keys.sorted().last,
                    case .object(var table)? = tables[last], case .array(var rows)? = table["rows"], case .array(var row)? = rows.first
                else { return }
                row[0] = .array([])
                rows[0] = .array(row)
                table["rows"] = .array(rows)
                tables[last] = .object(table)
                members["tables"] = .object(tables)
            }
            let failure = await BundleSupport.status { _ = try await admin.importProject(broken, replacing: "demo") }
            #expect(failure?.status == 400, "\(String(describing: failure))")
            #expect(try await BundleSupport.comparable(admin.project("demo").export()) == BundleSupport.comparable(before))
            let demo = try await admin.project("demo").get()
            let config = AsleepConfig(apiKey: demo.credential("asleep", "apiKey"), userId: "G-20260101000000-DemoUser000000000001", timezone: "Asia/Seoul")
            #expect(try await server.client.asleep.reports(config: config, orderBy: "ASC").sleepSessionList.count == 2)
        }
    }

    @Test("a bundle whose credentials belong to another project is a 409 naming the credential; nothing is imported")
    func credentialCollision() async throws {
        try await UnderstudyTestServer.with { server in
            let admin = server.client.admin
            let original = try await admin.createProject(name: "original", id: "original")
            let bundle = try await admin.project(original.id).export()
            let clash = await BundleSupport.status { _ = try await admin.importProject(bundle, id: "twin") }
            #expect(clash?.status == 409)
            #expect(clash?.body.contains("is already used by project `original`") == true, "\(String(describing: clash))")
            #expect(clash?.body.contains("credential_conflict") == true)
            #expect(try await admin.projects().map(\.id) == ["original"])
            // The same id again without replace: the project itself collides.
            let again = await BundleSupport.status { _ = try await admin.importProject(bundle) }
            #expect(again?.status == 409 && again?.body.contains("already exists") == true)
            // Replacing the owner is allowed: its own credentials do not count.
            #expect(try await admin.importProject(bundle, replacing: "original").credentials == original.credentials)
        }
    }

    @Test("a minimal hand-written bundle makes a project with fresh credentials that work")
    func minimalBundle() async throws {
        try await UnderstudyTestServer.with { server in
            let bundle = Data(#"{"format": "understudy-bundle", "version": 1, "project": {"name": "Hand made"}}"#.utf8)
            let project = try await server.client.admin.importProject(bundle, id: "hand")
            #expect(project.id == "hand" && project.name == "Hand made")
            #expect(!project.credential("warrantylife", "developerKey").isEmpty)
            let exported = try JSONValue.parse(try await server.client.admin.project("hand").export())
            #expect(exported["format"] == "understudy-bundle" && exported["version"] == 1)
            #expect(exported["exportedBy"] == .string("understudy \(ProjectBundle.serverVersion)"))
            // The provisioned key rows came with the credentials.
            #expect((exported["tables"]?["wl_developer_keys"]?["rows"]?.arrayValue?.count ?? 0) == 1)
        }
    }

    @Test("a version 0 bundle is migrated (its `faults` become `faultRules`); rule counters are kept")
    func versionZero() async throws {
        try await UnderstudyTestServer.with { server in
            let bundle = Data(
                #"""
                {"format": "understudy-bundle", "version": 0,
                 "faults": [{"match": {"platform": "asleep"}, "action": {"type": "status", "status": 502}, "times": 2, "matched": 2, "hits": 1}]}
                """#.utf8)
            let project = try await server.client.admin.importProject(bundle, id: "old")
            let rules = try await server.client.admin.project(project.id).faults()
            #expect(rules.count == 1 && rules.first?.times == 2 && rules.first?.action.status == 502)
            // Counters come along: a rule with `times: 2` that has fired once has one left.
            #expect(rules.first?.matched == 2 && rules.first?.hits == 1)
        }
    }
}
