import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

/// The control plane driven through `UnderstudyClient`, against the real server.
@Suite("Control plane through the client")
struct ControlPlaneClientTests {
    @Test("clock: freeze, advance, offset, back to real")
    func clock() async throws {
        try await UnderstudyTestServer.with { server in
            let project = server.client.admin.project(try await server.makeProject().id)
            let frozen = try await project.freezeClock(at: "2029-06-01T12:00:00Z")
            #expect(frozen.mode == "frozen" && frozen.now == "2029-06-01T12:00:00.000Z")
            let advanced = try await project.advanceClock(by: 90)
            #expect(advanced.now == "2029-06-01T12:01:30.000Z")
            let offset = try await project.offsetClock(by: 3600)
            #expect(offset.mode == "offset" && offset.offsetSeconds == 3600)
            #expect(try await project.realClock().mode == "real")
            #expect(try await project.clock().mode == "real")
        }
    }

    @Test("faults: add, list with counters, remove; an injected 503 reaches the client and the journal")
    func faults() async throws {
        try await UnderstudyTestServer.with { server in
            let created = try await server.makeProject()
            let project = server.client.admin.project(created.id)
            let rule = try await project.addFault(FaultRule(match: .init(platform: "asleep", path: "/asleep/**"), action: .status(503, retryAfter: 1), times: 1))
            #expect(rule.id?.hasPrefix("flt_") == true && rule.projectID == created.id && rule.ttlSeconds == 600)
            let apiKey = created.credential("asleep", "apiKey")
            let faulted = try await server.client.send(ClientRequest(method: "GET", path: "/asleep/ai/v1/users/nobody", headers: ["x-api-key": apiKey]))
            #expect(faulted.status == 503 && faulted.headers["retry-after"] == "1")
            #expect(try await project.faults().first?.hits == 1)
            let page = try await project.waitForRequests(JournalQuery(platform: "asleep", status: 503), count: 1, timeoutMs: 3000)
            #expect(page.requests.first?.fault?.contains("status") == true)
            #expect(page.requests.first?.requestHeaders["x-api-key"]?.contains("redacted") == true)
            try await project.removeFault(rule.id!)
            #expect(try await project.faults().isEmpty)
            let global = try await server.client.admin.addGlobalFault(FaultRule(match: .init(platform: "telematics"), action: .reset))
            #expect(try await server.client.admin.globalFaults().map(\.id) == [global.id])
            try await server.client.admin.removeGlobalFaults()
            #expect(try await server.client.admin.globalFaults().isEmpty)
        }
    }

    @Test("journal: wait times out with a typed 408, clear empties it")
    func journal() async throws {
        try await UnderstudyTestServer.with { server in
            let project = server.client.admin.project(try await server.makeProject().id)
            let outcome = await Result(catching: { try await project.waitForRequests(JournalQuery(method: "PATCH"), count: 1, timeoutMs: 50) })
            #expect(Self.status(of: outcome) == 408)
            // A wait only reads, so it is not journalled; a control-plane write is.
            #expect(try await project.requests().requests.isEmpty)
            _ = try await project.freezeClock(at: "2026-01-01T00:00:00Z")
            #expect(try await project.requests().requests.isEmpty == false)
            try await project.clearRequests()
            let after = try await project.requests(JournalQuery(method: "PATCH"))
            #expect(after.requests.isEmpty && after.evicted == 0)
        }
    }

    private static func status(of outcome: Result<JournalPage, any Error>) -> Int? {
        guard case .failure(let error) = outcome, let clientError = error as? UnderstudyClientError,
            case .unexpectedStatus(let status, _) = clientError
        else { return nil }
        return status
    }

    @Test("snapshots: save, list, restore, delete")
    func snapshots() async throws {
        try await UnderstudyTestServer.with { server in
            let project = server.client.admin.project(try await server.makeProject().id)
            _ = try await project.freezeClock(at: "2030-01-01T00:00:00Z")
            let saved = try await project.saveSnapshot("before")
            #expect(saved.name == "before")
            _ = try await project.realClock()
            try await project.restoreSnapshot("before")
            #expect(try await project.clock().now == "2030-01-01T00:00:00.000Z")
            #expect(try await project.snapshots().map(\.name) == ["before"])
            try await project.deleteSnapshot("before")
            #expect(try await project.snapshots().isEmpty)
            await #expect(throws: UnderstudyClientError.self) { try await project.restoreSnapshot("before") }
        }
    }

    @Test("health, readiness and the OpenAPI documents are served")
    func probes() async throws {
        // `throws` spelled out: every `try` here sits inside `#expect`, where closure effect inference does not look.
        try await UnderstudyTestServer.with { server throws in
            #expect(try await server.client.admin.health())
            #expect(try await server.client.admin.ready())
            #expect(try await server.client.admin.openAPI()["openapi"] == "3.1.0")
            for platform in ["warplink", "asleep", "warrantylife", "telematics"] {
                #expect(try await server.client.admin.openAPI(platform)["openapi"] == "3.1.0", "\(platform)")
            }
        }
    }

    @Test("the demo project is created from the fixtures, once")
    func demo() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let demo = try await server.client.admin.project("demo").get()
            #expect(demo.isDemo)
            #expect(demo.credential("warplink", "sdkKey").hasPrefix("wl_live_"))
            let loadedAgain = try await server.server.emulator.projects.loadDemo(from: server.server.emulator.services.settings.fixturesDirectory!)
            #expect(loadedAgain?.id == "demo")
            #expect(try await server.client.admin.projects().filter(\.isDemo).count == 1)
        }
    }
}
