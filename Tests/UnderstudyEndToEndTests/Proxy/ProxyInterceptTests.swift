import Foundation
import TestSockets
import Testing
import UnderstudyServer
import UnderstudyTesting

private let demoSDKKey = "wl_live_demo0000000000000000000000000000"
private let demoAsleepKey = "demo-asleep-api-key-0000000000000000000000"
private let demoWarrantyLifeKey = "demo0000000000000000000000000000"

/// The journal over every project (what `/__admin/requests` answers), read through the plain port.
func proxyJournal(_ server: UnderstudyTestServer, query: String) async throws -> [[String: Any]] {
    let port = server.server.http.port
    let text = try await blocking { () -> String in
        let client = try RawClient(port: port)
        return try client.request("GET", "/__admin/requests?" + query, host: "127.0.0.1:\(port)").text
    }
    let page = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    return page?["requests"] as? [[String: Any]] ?? []
}

@Suite("Proxy: intercepting emulated hosts")
struct ProxyInterceptTests {
    @Test("CONNECT api.warplink.app:80, then GET /v1/sdk/validate with the demo key: Understudy answers, and the journal says it came through the proxy")
    func warpLinkThroughTunnel() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let (established, answer, second) = try await blocking { () -> (HTTPReply, HTTPReply, HTTPReply) in
                let client = try RawClient(port: proxyPort)
                let established = try client.connectTunnel("api.warplink.app:80")
                let answer = try client.request("GET", "/v1/sdk/validate", host: "api.warplink.app", headers: ["Authorization": "Bearer " + demoSDKKey])
                // Keep-alive inside the tunnel, as on the plain port.
                let second = try client.request("GET", "/v1/sdk/validate", host: "api.warplink.app", headers: ["Authorization": "Bearer nope"])
                return (established, answer, second)
            }
            #expect(established.status == 200 && established.reason == "Connection Established" && established.headers["content-length"] == nil)
            #expect(answer.status == 200 && answer.text.contains("\"valid\""))
            #expect(second.status == 401)
            let entries = try await proxyJournal(server, query: "via=proxy&platform=warplink")
            #expect(entries.count == 2)
            #expect(entries.allSatisfy { $0["via"] as? String == "proxy" && $0["proxyHost"] as? String == "api.warplink.app" })
            #expect(entries.contains { $0["path"] as? String == "/warplink/v1/sdk/validate" && $0["status"] as? Int == 200 && $0["projectID"] as? String == "demo" })
            let connects = try await proxyJournal(server, query: "platform=proxy")
            #expect(connects.map { $0["path"] as? String } == ["api.warplink.app:80"])
            #expect(connects.first?["method"] as? String == "CONNECT" && connects.first?["status"] as? Int == 200)
            // Direct requests carry no proxy fields.
            let direct = try await proxyJournal(server, query: "via=direct")
            #expect(direct.allSatisfy { $0["via"] == nil && $0["proxyHost"] == nil })
        }
    }

    @Test("each other platform's real host through a tunnel answers exactly as a direct request to that host does")
    func everyPlatformByRealHost() async throws {
        try await UnderstudyTestServer.with(
            demo: true,
            configure: { configuration in
                configuration.platforms[.telematics] = ["hosts": ["telematics.example.com"]]
            }
        ) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let plainPort = server.server.http.port
            let probes: [(host: String, method: String, path: String, headers: [String: String], body: String)] = [
                ("api.asleep.ai", "GET", "/ai/v1/users/no-such-user", ["x-api-key": demoAsleepKey], ""),
                ("www.warrantylife.com", "GET", "/mapi/wi/100/developer-keys/validate", ["X-WL-Developer-Key": demoWarrantyLifeKey], ""),
                ("telematics.example.com", "GET", "/api/v1/vehicles/types", [:], ""),
            ]
            for probe in probes {
                let (tunnelled, direct) = try await blocking { () -> (HTTPReply, HTTPReply) in
                    let client = try RawClient(port: proxyPort)
                    let established = try client.connectTunnel(probe.host + ":80")
                    guard established.status == 200 else { return (established, established) }
                    let tunnelled = try client.request(probe.method, probe.path, host: probe.host, headers: probe.headers, body: probe.body)
                    let direct = try RawClient(port: plainPort).request(probe.method, probe.path, host: probe.host, headers: probe.headers, body: probe.body)
                    return (tunnelled, direct)
                }
                #expect(tunnelled.status == direct.status, "\(probe.host): \(tunnelled.status) through the proxy, \(direct.status) direct")
                #expect(tunnelled.headers["content-type"] == direct.headers["content-type"], "\(probe.host)")
                #expect(tunnelled.body.count == direct.body.count, "\(probe.host): \(tunnelled.text) vs \(direct.text)")
                let entries = try await proxyJournal(server, query: "via=proxy&proxyHost=\(probe.host)")
                let platform = entries.first { $0["method"] as? String == probe.method }?["platform"] as? String
                #expect(platform != nil && platform != "proxy" && platform != "admin", "\(probe.host) journalled as \(platform ?? "nothing")")
            }
            // And an Asleep flow on one tunnel: create a user, read it back.
            let (created, read) = try await blocking { () -> (HTTPReply, HTTPReply) in
                let client = try RawClient(port: proxyPort)
                _ = try client.connectTunnel("api.asleep.ai:80")
                let created = try client.request(
                    "POST", "/ai/v1/users", host: "api.asleep.ai", headers: ["x-api-key": demoAsleepKey, "Content-Type": "application/json"], body: "{}")
                let id =
                    (try? JSONSerialization.jsonObject(with: Data(created.body)) as? [String: Any])?["result"]
                    .flatMap { ($0 as? [String: Any])?["user_id"] as? String } ?? ""
                let read = try client.request("GET", "/ai/v1/users/\(id)", host: "api.asleep.ai", headers: ["x-api-key": demoAsleepKey])
                return (created, read)
            }
            #expect((200..<300).contains(created.status), "\(created.status) \(created.text)")
            #expect(read.status == 200, "\(read.status) \(read.text)")
        }
    }

    @Test("absolute-form requests for emulated hosts are served; origin-form requests on the proxy port are served like the plain port")
    func absoluteAndOriginForm() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let (absolute, origin) = try await blocking { () -> (HTTPReply, HTTPReply) in
                let client = try RawClient(port: proxyPort)
                let absolute = try client.request(
                    "GET", "http://api.warplink.app/v1/sdk/validate", host: "api.warplink.app",
                    headers: ["Authorization": "Bearer " + demoSDKKey, "Proxy-Connection": "keep-alive"])
                let origin = try client.request("GET", "/__admin/health", host: "127.0.0.1:\(proxyPort)")
                return (absolute, origin)
            }
            #expect(absolute.status == 200 && absolute.text.contains("\"valid\""))
            #expect(origin.status == 200)
            let entries = try await proxyJournal(server, query: "via=proxy&platform=warplink")
            #expect(entries.first?["proxyHost"] as? String == "api.warplink.app" && entries.first?["path"] as? String == "/warplink/v1/sdk/validate")
        }
    }

    @Test("what a client sends right after CONNECT, before our 200, is the tunnel's first bytes")
    func pipelinedAfterConnect() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let answer = try await blocking { () -> HTTPReply in
                let client = try RawClient(port: proxyPort)
                let request = "GET /v1/sdk/validate HTTP/1.1\r\nHost: api.warplink.app\r\nAuthorization: Bearer \(demoSDKKey)\r\n\r\n"
                let established = try client.connectTunnel("api.warplink.app:80", extra: Array(request.utf8))
                guard established.status == 200 else { return established }
                return try client.readResponse()
            }
            #expect(answer.status == 200 && answer.text.contains("\"valid\""))
        }
    }

    @Test("an emulated host on a port other than 443 or 80 is a 400 naming host and port")
    func emulatedHostOtherPort() async throws {
        try await UnderstudyTestServer.with { server in
            let proxyPort = try #require(server.server.proxyPort)
            let (reply, closed) = try await blocking { () -> (HTTPReply, Bool) in
                let client = try RawClient(port: proxyPort)
                let reply = try client.connectTunnel("api.warplink.app:8443")
                return (reply, client.isClosedByServer())
            }
            #expect(reply.status == 400 && reply.text.contains("api.warplink.app") && reply.text.contains("8443"))
            #expect(closed)
        }
    }
}
