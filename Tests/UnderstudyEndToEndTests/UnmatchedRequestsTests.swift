import Foundation
import TestSockets
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// `GET /__admin/requests?unmatched=true`: every request meant for an emulated service that
/// matched no project, with the reason, through the route, the client library and the CLI.
@Suite("Requests that matched no project")
struct UnmatchedRequestsTests {
    /// The unmatched entries once there are at least `count`, newest first (the long poll waits for
    /// those still being journalled).
    static func unmatched(_ server: UnderstudyTestServer, count: Int) async throws -> [JournalEntry] {
        var entries = try await server.client.admin.unmatchedRequests(JournalQuery(limit: 1000)).requests
        while entries.count < count {
            let page = try await server.client.admin.unmatchedRequests(JournalQuery(since: entries.first?.id ?? 0, limit: 1000), waitMs: 10_000)
            guard !page.requests.isEmpty else { break }
            entries = page.requests + entries
        }
        return entries
    }

    private func send(_ server: UnderstudyTestServer, _ method: String, _ path: String, headers: [String: String] = [:], body: String? = nil) async throws {
        var request = ClientRequest(method: method, path: path, headers: headers)
        if let body {
            request.body = Data(body.utf8)
            request.headers["Content-Type"] = "application/json"
        }
        _ = try await server.client.send(request)
    }

    @Test("each kind of request that matched no project is listed with its reason; matched ones, control-plane calls and tunnels to emulated hosts are not")
    func everyReason() async throws {
        try await UnderstudyTestServer.with(configure: { $0.proxyMode = .refuse }) { server in
            let project = try await server.makeProject(name: "matched")
            let proxyPort = try #require(server.server.proxyPort)
            let plainPort = server.server.http.port
            // Matched, and control-plane calls with and without a project: none of them is unmatched.
            try await send(server, "GET", "/warplink/v1/sdk/validate", headers: ["Authorization": "Bearer " + project.credential("warplink", "sdkKey")])
            try await send(server, "POST", "/__admin/faults", body: #"{"match": {"path": "/nowhere"}, "action": {"type": "status", "status": 503}}"#)
            try await send(server, "POST", "/__admin/projects/nobody/faults", body: "{}")
            try await send(server, "DELETE", "/__admin/nowhere")
            // Each reason once.
            try await send(server, "GET", "/warplink/v1/sdk/validate")
            try await send(server, "GET", "/warplink/v1/sdk/validate", headers: ["Authorization": "Bearer not-any-key-7f3a"])
            try await send(server, "POST", "/asleep/customer/v1/app/token", body: #"{"app_id": "app_nobody_9c1e", "app_secret": "s"}"#)
            // A user's token alone names no WarrantyLife project: the developer key does.
            try await send(server, "GET", "/warrantylife/api/v1/items", headers: ["Authorization": "Bearer user-token"])
            try await send(server, "GET", "/warplnk/v1/sdk/validate")
            let (misdirected, refused, tunnel) = try await blocking { () -> (HTTPReply, HTTPReply, HTTPReply) in
                let misdirected = try RawClient(port: plainPort).request("GET", "/warplink/v1/sdk/validate", host: "rebinding.example")
                let refused = try RawClient(port: proxyPort).request("GET", "http://example.org/x", host: "example.org")
                let tunnel = try RawClient(port: proxyPort).connectTunnel("api.warplink.app:80")
                return (misdirected, refused, tunnel)
            }
            #expect(misdirected.status == 421 && refused.status == 403 && tunnel.status == 200)

            let entries = try await Self.unmatched(server, count: 7)
            func reason(_ method: String, _ path: String) -> UnmatchedRequest? {
                entries.first { $0.method == method && $0.path == path }?.unmatched
            }
            #expect(entries.count == 7, "\(entries.map { "\($0.method) \($0.path) \($0.unmatched?.reason ?? "-")" })")
            #expect(entries.allSatisfy { $0.projectID == nil && $0.unmatched != nil })
            let validate = entries.filter { $0.path == "/warplink/v1/sdk/validate" && $0.via == nil && $0.requestHeaders["host"]?.hasPrefix("rebinding") != true }
            #expect(Set(validate.compactMap(\.unmatched?.reason)) == ["no_credential", "unknown_credential"])
            let unknownKey = try #require(validate.first { $0.unmatched?.reason == "unknown_credential" }?.unmatched)
            #expect(unknownKey == UnmatchedRequest(reason: "unknown_credential", credential: "key", header: "Authorization", value: "[redacted …7f3a]"))
            #expect(
                reason("POST", "/asleep/customer/v1/app/token")
                    == UnmatchedRequest(reason: "unknown_credential", credential: "appId", field: "app_id", value: "[redacted …9c1e]"))
            #expect(reason("GET", "/warrantylife/api/v1/items")?.reason == "no_credential")
            #expect(reason("GET", "/warplnk/v1/sdk/validate")?.reason == "no_platform")
            #expect(entries.first { $0.status == 421 }?.unmatched == UnmatchedRequest(reason: "host_not_allowed", host: "rebinding.example"))
            #expect(reason("GET", "/x") == UnmatchedRequest(reason: "host_not_emulated", host: "example.org"))
            // The secret never reaches the account of it.
            #expect(!entries.contains { ($0.unmatched?.value ?? "").contains("not-any-key") })

            // The rest of the journal: no entry there has a reason; a project's listing refuses the filter.
            let others = try await server.client.admin.requests(JournalQuery(limit: 1000, unmatched: false)).requests
            #expect(others.contains { $0.method == "CONNECT" } && others.contains { $0.projectID == project.id })
            #expect(others.allSatisfy { $0.unmatched == nil })
            let refusal = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/projects/\(project.id)/requests", query: [("unmatched", "true")]))
            #expect(refusal.status == 400 && refusal.text.contains("/__admin/requests?unmatched=true"))
            let badValue = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/requests", query: [("unmatched", "yes")]))
            #expect(badValue.status == 400)
            // Filters combine as on every listing.
            let warpLink = try await server.client.admin.unmatchedRequests(JournalQuery(platform: "warplink")).requests
            #expect(warpLink.count == 3 && warpLink.allSatisfy { $0.platform == "warplink" })

            // The CLI: `journal --unmatched` prints each with its reason; with --project it is a usage error.
            let listed = await ControlCommandTests.run(["journal", "--unmatched"], on: server)
            #expect(listed.status == 0 && listed.standard.split(separator: "\n").count == 7, "\(listed.standard)\(listed.error)")
            #expect(listed.standard.contains("unmatched: unknown_credential Authorization [redacted …7f3a]"))
            #expect(listed.standard.contains("unmatched: host_not_emulated example.org"))
            #expect(await ControlCommandTests.run(["journal", "--unmatched", "--project", project.id], on: server).status == 2)
        }
    }

    @Test("a proxy request without the proxy password is listed as proxy_unauthorized, naming the host")
    func proxyPassword() async throws {
        try await UnderstudyTestServer.with(configure: { $0.proxyPassword = "s3cret" }) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let missing = try await blocking { try RawClient(port: proxyPort).connectTunnel("api.warplink.app:443") }
            #expect(missing.status == 407)
            let entries = try await Self.unmatched(server, count: 1)
            #expect(entries.map(\.unmatched) == [UnmatchedRequest(reason: "proxy_unauthorized", host: "api.warplink.app")])
        }
    }
}
