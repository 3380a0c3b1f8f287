import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

@testable import EmulatorCore

/// The journal listing the live journal reads: the `after` + `waitMs` long poll, the `before`
/// cursor, status classes, bounds, and that reading the journal is not itself journalled.
@Suite("Journal long poll and cursors")
struct JournalLongPollTests {
    struct Page: Decodable {
        struct Entry: Decodable { var id: Int; var path: String; var status: Int; var route: String? }
        var requests: [Entry]
        var evicted: Int
    }

    static func validate(_ server: UnderstudyTestServer, _ project: Project, fault: String? = nil) async throws -> Int {
        var headers = ["Authorization": "Bearer " + (project.credentials["warplink"]?["sdkKey"] ?? "")]
        if let fault { headers["X-Understudy-Fault"] = fault }
        return try await server.client.send(ClientRequest(method: "GET", path: "/warplink/v1/sdk/validate", headers: headers)).status
    }

    static func page(_ server: UnderstudyTestServer, _ project: Project, _ query: [(String, String)]) async throws -> (status: Int, page: Page?) {
        let response = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/projects/\(project.id)/requests", query: query, timeout: 90))
        return (response.status, response.status == 200 ? try response.decode(Page.self) : nil)
    }

    @Test("a long poll answers with the request that arrives while it waits")
    func longPollWakes() async throws {
        let server = try await UnderstudyTestServer.start()
        defer { Task { await server.stop() } }
        let project = try await server.makeProject()
        #expect(try await Self.validate(server, project) == 200)
        let newest = try #require(try await Self.page(server, project, [("limit", "1")]).page?.requests.first?.id)
        let poll = Task { try await Self.page(server, project, [("after", String(newest)), ("waitMs", "60000"), ("platform", "warplink")]) }
        // The poll may or may not be waiting yet; either way the entry is newer than `after`.
        #expect(try await Self.validate(server, project) == 200)
        let answer = try await poll.value
        #expect(answer.status == 200)
        #expect(answer.page?.requests.map(\.path) == ["/warplink/v1/sdk/validate"])
        #expect((answer.page?.requests.first?.id ?? 0) > newest)
    }

    @Test("a long poll with nothing newer ends with an empty page, and polls are not journalled")
    func longPollTimesOut() async throws {
        let server = try await UnderstudyTestServer.start()
        defer { Task { await server.stop() } }
        let project = try await server.makeProject()
        #expect(try await Self.validate(server, project) == 200)
        let all = try #require(try await Self.page(server, project, []).page)
        let newest = try #require(all.requests.first?.id)
        let answer = try await Self.page(server, project, [("after", String(newest)), ("waitMs", "200")])
        #expect(answer.status == 200 && answer.page?.requests.isEmpty == true)
        let again = try #require(try await Self.page(server, project, []).page)
        #expect(!again.requests.contains { $0.route == "/__admin/projects/{id}/requests" }, "reading the journal adds nothing to it")
        #expect(again.requests.map(\.id) == all.requests.map(\.id))
    }

    @Test("stopping the server answers open long polls instead of waiting for them")
    func shutdownEndsLongPolls() async throws {
        let server = try await UnderstudyTestServer.start()
        let project = try await server.makeProject()
        let poll = Task { try await Self.page(server, project, [("after", "999999999"), ("waitMs", "60000")]) }
        // Stop only once the poll is in flight on the server.
        while server.server.http.requestsInFlight == 0 { try await Task.sleep(nanoseconds: 1_000_000) }
        await server.stop()
        let answer = try await poll.value
        #expect(answer.status == 200 && answer.page?.requests.isEmpty == true)
    }

    @Test("before pages back, status classes filter, and bad cursors or bounds are 400s")
    func cursorsAndBounds() async throws {
        let server = try await UnderstudyTestServer.start()
        defer { Task { await server.stop() } }
        let project = try await server.makeProject()
        for _ in 0..<5 { #expect(try await Self.validate(server, project) == 200) }
        #expect(try await Self.validate(server, project, fault: "status=503") == 503)
        let first = try #require(try await Self.page(server, project, [("platform", "warplink"), ("limit", "4")]).page)
        #expect(first.requests.count == 4 && first.requests.first?.status == 503)
        let older = try #require(try await Self.page(server, project, [("platform", "warplink"), ("before", String(first.requests.last!.id))]).page)
        #expect(older.requests.count == 2 && older.requests.allSatisfy { $0.id < first.requests.last!.id })
        let failures = try #require(try await Self.page(server, project, [("status", "5xx")]).page)
        #expect(failures.requests.map(\.status) == [503])
        #expect(try await Self.page(server, project, [("status", "2xx"), ("platform", "warplink")]).page?.requests.count == 5)
        #expect(try await Self.page(server, project, [("path", "/v1/sdk/*")]).page?.requests.count == 6, "globs still match below the platform prefix")
        #expect(try await Self.page(server, project, [("path", "/warplink/*/validate")]).page?.requests.count == 0, "`*` stays within one segment")
        #expect(try await Self.page(server, project, [("path", "/warplink/**/validate")]).page?.requests.count == 6)
        #expect(Journal.sqliteGlob("/a/[b]?/**") == "/a/[[]b][?]/*", "SQLite's own wildcards are taken literally")
        for query in [
            [("limit", "1001")], [("limit", "0")], [("waitMs", "1000")], [("after", "1"), ("waitMs", "60001")],
            [("after", "1"), ("since", "1")], [("before", "x")], [("status", "9xx")], [("nope", "1")],
        ] {
            #expect(try await Self.page(server, project, query).status == 400, "\(query)")
        }
    }

    @Test("the dashboard is served by the real server: / redirects, a platform's host keeps /")
    func servedByTheServer() async throws {
        let server = try await UnderstudyTestServer.start()
        defer { Task { await server.stop() } }
        let root = try await server.client.send(ClientRequest(method: "GET", path: "/"))
        #expect(root.status == 302 && root.headers["location"] == "/__admin/ui")
        let shell = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/ui/projects/x/journal"))
        #expect(shell.status == 200 && shell.text.contains("/__admin/ui/assets/app.js"))
        let claimed = try await server.client.send(ClientRequest(method: "GET", path: "/", headers: ["Host": "api.warplink.app"]))
        #expect(claimed.status != 302)
    }
}
