import Foundation
import TestSockets
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// Control-plane calls are their own kind: a wait counts what was sent to the platforms, and the
/// reads of whoever watches (the dashboard, the CLI, a test) are not journalled at all.
@Suite("Control-plane calls in the journal")
struct ControlPlaneJournalTests {
    @Test("a wait without a platform is not answered by the test's own seeding; `platform: admin` waits for that")
    func waitIgnoresControlPlane() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.makeProject(name: "seeded")
            let admin = server.client.admin.project(project.id)
            _ = try await server.client.warpLink.project(project.id).addDomain("go.seeded.example")
            _ = try await admin.freezeClock(at: "2030-01-01T00:00:00Z")
            await #expect(throws: UnderstudyClientError.self) {
                _ = try await admin.waitForRequests(count: 1, timeoutMs: 300)
            }
            // Asked for, control-plane calls are there: the seeding, and no read.
            let seeding = try await admin.waitForRequests(JournalQuery(platform: "admin"), count: 2, timeoutMs: 5_000).requests
            #expect(seeding.count == 2 && seeding.allSatisfy { $0.method != "GET" && $0.path.hasPrefix("/__admin/projects/\(project.id)/") })
            // The SDK's first request answers the wait.
            _ = try await server.client.warpLink.validate(apiKey: project.credential("warplink", "sdkKey"))
            let page = try await admin.waitForRequests(count: 1, timeoutMs: 10_000)
            #expect(page.requests.map(\.path) == ["/warplink/v1/sdk/validate"])
        }
    }

    @Test("the dashboard's and the CLI's reads of the control plane are not journalled; writes and refusals for the Host are")
    func readsAreNotJournalled() async throws {
        try await UnderstudyTestServer.with { server in
            let project = try await server.makeProject(name: "watched")
            let path = "/__admin/projects/\(project.id)"
            // What the dashboard's pages read, the journal's long poll among them.
            let reads: [(String, [(String, String)])] = [
                ("/__admin/projects", []), (path, []), (path + "/requests", [("after", "0"), ("waitMs", "1")]), (path + "/requests.har", []),
                (path + "/faults", []), (path + "/clock", []), (path + "/snapshots", []), (path + "/outbox", []),
                (path + "/warplink/links", [("limit", "50"), ("offset", "0")]), ("/__admin/requests", []),
                ("/__admin/openapi.json", []), (path + "/nowhere", []),
            ]
            for (read, query) in reads {
                let response = try await server.client.send(ClientRequest(method: "GET", path: read, query: query))
                #expect(response.status < 500, "\(read): \(response.status)")
            }
            _ = try await server.client.send(ClientRequest(method: "HEAD", path: path))
            // The dashboard and its files, and the CLI's reads.
            #expect(try await server.client.send(ClientRequest(method: "GET", path: "/__admin/ui/projects/\(project.id)/journal")).status == 200)
            for arguments in [
                ["projects", "list"], ["projects", "show", project.id], ["journal"], ["faults", "list", "--project", project.id], ["clock", "show", "--project", project.id],
            ] {
                #expect(await ControlCommandTests.run(arguments, on: server).status == 0, "\(arguments)")
            }
            // A write, through the CLI: journalled, as are a read refused for its Host and a read that
            // lets due transitions happen (a `writesOnGet` route), which may change what the SDK sees next.
            #expect(await ControlCommandTests.run(["clock", "freeze", "--project", project.id], on: server).status == 0)
            #expect(try await server.client.send(ClientRequest(method: "GET", path: path + "/asleep/sessions")).status == 200)
            let port = server.server.http.port
            let refused = try await blocking { try RawClient(port: port).request("GET", "/__admin/projects", host: "rebinding.example") }
            #expect(refused.status == 421)
            let admin = try await server.client.admin.requests(JournalQuery(platform: "admin", limit: 1000)).requests
            #expect(
                admin.map { "\($0.method) \($0.path)" }.sorted() == [
                    "GET /__admin/projects", "GET \(path)/asleep/sessions", "POST /__admin/projects", "PUT \(path)/clock",
                ], "\(admin.map { "\($0.method) \($0.path) \($0.status)" })")
            #expect(admin.first { $0.method == "GET" && $0.path == "/__admin/projects" }?.status == 421)
        }
    }
}
