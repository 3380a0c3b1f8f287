import Foundation
import TestSockets
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// One request on its own connection to 127.0.0.1:`port`, with the `Host` and headers given.
func rawRequest(
    port: Int, _ method: String, _ target: String, host: String, headers: [String: String] = [:],
    body: String = ""
) async throws -> HTTPReply {
    try await blocking { try RawClient(port: port).request(method, target, host: host, headers: headers, body: body) }
}

/// The host allow-list and the cross-origin refusal on the real listeners, with the real platforms.
@Suite("Control plane: foreign host names and other origins, end to end")
struct ForeignHostTests {
    @Test("plain port: a foreign Host gets 421 on the control plane, the dashboard and SDK routes, journalled; allowed names are answered")
    func plainPort() async throws {
        try await UnderstudyTestServer.with(demo: true, configure: { $0.allowedHosts = ["phone.local", ".tunnel.example"] }) { server in
            let port = server.server.http.port
            let before = try await server.client.admin.projects().map(\.id)
            let refused: [(method: String, path: String, body: String)] = [
                ("GET", "/__admin/projects", ""), ("GET", "/__admin/projects/demo", ""), ("GET", "/__admin/requests", ""),
                ("PUT", "/__admin/projects/demo/clock", #"{"mode":"frozen","now":"2046-01-01T00:00:00Z"}"#),
                ("POST", "/__admin/projects", #"{"id":"rebound"}"#), ("DELETE", "/__admin/projects/demo", ""),
                ("GET", "/__admin/ui", ""), ("GET", "/__admin/ui/projects/demo", ""), ("GET", "/", ""),
                ("GET", "/warplink/v1/sdk/validate", ""),
            ]
            for request in refused {
                let reply = try await rawRequest(port: port, request.method, request.path, host: "attacker.example:\(port)", body: request.body)
                #expect(reply.status == 421, "\(request.method) \(request.path): \(reply.status)")
                #expect(reply.text.contains("--allowed-host attacker.example"), "\(request.path): \(reply.text)")
                #expect(!reply.text.contains("demo0000"), "\(request.path) leaked a credential")
            }
            // The dashboard's refusal is the control plane's; a platform path gets the platform's envelope.
            #expect(try await rawRequest(port: port, "GET", "/__admin/ui", host: "attacker.example").text.contains(#""code":"misdirected_request""#))
            #expect(try await rawRequest(port: port, "GET", "/warplink/v1/sdk/validate", host: "attacker.example").text.contains(#""code":"VALIDATION_ERROR""#))
            #expect(try await server.client.admin.projects().map(\.id) == before)
            #expect(try await server.client.admin.project("demo").clock().mode != "frozen")
            let journalled = try await server.client.admin.requests(JournalQuery(status: 421, limit: 100)).requests
            #expect(journalled.count == refused.count + 2)
            #expect(journalled.allSatisfy { $0.projectID == nil })

            for host in [
                "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "10.0.2.2:\(port)", "phone.local:\(port)", "abc.tunnel.example",
                "api.warplink.app", "host.docker.internal:\(port)", "dev.localhost:\(port)",
            ] {
                #expect(try await rawRequest(port: port, "GET", "/__admin/projects", host: host).status == 200, "\(host)")
            }
            #expect(try await rawRequest(port: port, "GET", "/__admin/ui", host: "localhost:\(port)").status == 200)
            // HTTP/1.0 without Host: no browser sends it, so it is answered.
            let noHost = try await blocking { () -> HTTPReply in
                let client = try RawClient(port: port)
                client.send("GET /__admin/projects HTTP/1.0\r\n\r\n")
                return try client.readResponse()
            }
            #expect(noHost.status == 200)
        }
    }

    @Test("proxy port: origin-form requests are checked; CONNECT and absolute-form requests for other hosts stay the proxy's")
    func proxyPort() async throws {
        try await UnderstudyTestServer.with(demo: true, configure: { $0.proxyMode = .refuse }) { server in
            let proxyPort = try #require(server.server.proxyPort)
            #expect(try await rawRequest(port: proxyPort, "GET", "/__admin/projects", host: "attacker.example").status == 421)
            #expect(try await rawRequest(port: proxyPort, "GET", "/__admin/projects", host: "127.0.0.1:\(proxyPort)").status == 200)
            let (absolute, connect, tunnelled, tunnelledForeign) = try await blocking { () -> (HTTPReply, HTTPReply, HTTPReply, HTTPReply) in
                let absolute = try RawClient(port: proxyPort).request("GET", "http://example.org/", host: "example.org")
                let connect = try RawClient(port: proxyPort).connectTunnel("example.org:443")
                let tunnel = try RawClient(port: proxyPort)
                _ = try tunnel.connectTunnel("api.warplink.app:80")
                let inside = try tunnel.request(
                    "GET", "/v1/sdk/validate", host: "api.warplink.app",
                    headers: ["Authorization": "Bearer wl_live_demo0000000000000000000000000000"])
                let foreign = try tunnel.request("GET", "/v1/sdk/validate", host: "attacker.example")
                return (absolute, connect, inside, foreign)
            }
            // The proxy's own refusals (mode `refuse`), not the allow-list's.
            #expect(absolute.status == 403 && absolute.text.contains("proxy refuses"))
            #expect(connect.status == 403 && connect.text.contains("proxy refuses"))
            #expect(tunnelled.status == 200)
            #expect(tunnelledForeign.status == 421)
        }
    }

    @Test("other origins' changes are refused on the listeners, the platforms' admin routes and the GETs that write; reads and non-browser clients pass")
    func crossOrigin() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let port = server.server.http.port
            let own = "http://127.0.0.1:\(port)"
            let foreign: [[String: String]] = [
                ["Origin": "http://127.0.0.1:1"], ["Origin": "null"], ["Sec-Fetch-Site": "cross-site"],
                ["Sec-Fetch-Site": "same-site", "Origin": "http://localhost:1"],
            ]
            let linksBefore = try await server.client.warpLink.project("demo").links().count
            for headers in foreign {
                let link = try await rawRequest(
                    port: port, "POST", "/__admin/projects/demo/warplink/links", host: "127.0.0.1:\(port)",
                    headers: headers.merging(["Content-Type": "text/plain"]) { $1 },
                    body: #"{"destination_url":"https://attacker.example/x"}"#)
                #expect(link.status == 403 && link.text.contains("cross_origin_refused"), "\(headers): \(link.status) \(link.text)")
                let key = try await rawRequest(port: port, "POST", "/__admin/projects/demo/asleep/keys", host: "127.0.0.1:\(port)", headers: headers, body: "{}")
                #expect(key.status == 403, "\(headers)")
                // Reading Asleep sessions moves due sessions along: a write, refused like one.
                let sessions = try await rawRequest(port: port, "GET", "/__admin/projects/demo/asleep/sessions", host: "127.0.0.1:\(port)", headers: headers)
                #expect(sessions.status == 403, "\(headers)")
                // A read that writes nothing is left to the browser, which shows the page nothing without CORS.
                let links = try await rawRequest(port: port, "GET", "/__admin/projects/demo/warplink/links", host: "127.0.0.1:\(port)", headers: headers)
                #expect(links.status == 200 && links.headers["access-control-allow-origin"] == nil)
            }
            #expect(try await server.client.warpLink.project("demo").links().count == linksBefore)
            let sameOrigin = ["Origin": own, "Sec-Fetch-Site": "same-origin"]
            #expect(try await rawRequest(port: port, "GET", "/__admin/projects/demo/asleep/sessions", host: "127.0.0.1:\(port)", headers: sameOrigin).status == 200)
            let created = try await rawRequest(
                port: port, "POST", "/__admin/projects/demo/warplink/links", host: "127.0.0.1:\(port)", headers: sameOrigin,
                body: #"{"destination_url":"https://example.com/ok"}"#)
            #expect(created.status == 201, "\(created.text)")
        }
    }

    @Test("the client library and the CLI pointed at http://localhost:<port> send no Origin and keep working")
    func clientsAtLocalhost() async throws {
        try await UnderstudyTestServer.with { server in
            let localhost = try #require(URL(string: "http://localhost:\(server.server.http.port)"))
            let client = Understudy(baseURL: localhost)
            let project = try await client.admin.createProject(name: "by-name")
            #expect(try await client.admin.project(project.id).freezeClock(at: "2031-01-01T00:00:00Z").mode == "frozen")
            _ = try await client.admin.project(project.id).reset()
            let captured = CapturedOutput()
            let status = await ControlCommand.run(
                ["clock", "advance", "--project", project.id, "60s", "--server", localhost.absoluteString],
                environment: [:], output: captured.output)
            #expect(status == 0, "\(captured.error)")
            let listed = CapturedOutput()
            #expect(await ControlCommand.run(["projects", "list", "--server", localhost.absoluteString], environment: [:], output: listed.output) == 0)
            #expect(listed.standard.contains(project.id))
            // What they send: no Origin, no Sec-Fetch-Site, and the URL's host name.
            let entries = try await client.admin.project(project.id).requests(JournalQuery(limit: 100)).requests
            #expect(!entries.isEmpty)
            #expect(entries.allSatisfy { $0.requestHeaders["origin"] == nil && $0.requestHeaders["sec-fetch-site"] == nil })
            #expect(entries.allSatisfy { $0.requestHeaders["host"]?.hasPrefix("localhost") == true })
        }
    }

    @Test("no answer under /__admin but the OpenAPI documents carries CORS, across every platform's documented GETs; preflights get no allowance")
    func noCORSAcrossPlatforms() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let port = server.server.http.port
            var paths: Set<String> = []
            for document in [
                "/__admin/openapi.json", "/__admin/openapi/warplink.json", "/__admin/openapi/asleep.json",
                "/__admin/openapi/warrantylife.json", "/__admin/openapi/telematics.json",
            ] {
                let text = try await rawRequest(port: port, "GET", document, host: "127.0.0.1").text
                let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
                for (template, item) in json["paths"] as? [String: Any] ?? [:] where template.hasPrefix("/__admin") {
                    guard (item as? [String: Any])?["get"] != nil else { continue }
                    let path = template.replacingOccurrences(of: "{id}", with: "demo").replacingOccurrences(of: "{document}", with: "asleep.json")
                    paths.insert(path.replacingOccurrences(of: #"\{[^}]+\}"#, with: "x", options: .regularExpression))
                }
            }
            #expect(paths.count > 60)
            for path in paths.sorted() {
                let isDocument = path.hasPrefix("/__admin/openapi")
                let get = try await rawRequest(port: port, "GET", path, host: "127.0.0.1", headers: ["Origin": "http://attacker.example"])
                #expect((get.headers["access-control-allow-origin"] != nil) == isDocument, "GET \(path)")
                let preflight = try await rawRequest(
                    port: port, "OPTIONS", path, host: "127.0.0.1",
                    headers: [
                        "Origin": "http://attacker.example", "Access-Control-Request-Method": "PUT", "Access-Control-Request-Headers": "content-type",
                    ])
                #expect(preflight.headers.keys.contains { $0.hasPrefix("access-control-") } == isDocument, "OPTIONS \(path): \(preflight.headers)")
            }
        }
    }
}

#if os(Linux)
@Suite("HTTPS port: a rebinding page's name")
struct ForeignHostTLSTests {
    @Test("the HTTPS port mints a leaf for any SNI, but a foreign Host is refused 421; localhost and the emulated hosts are answered")
    func foreignNameOverTLS() async throws {
        try await withTLSServer { server, port, context in
            let client = try TLSTestClient(port: port, context: context, serverName: "attacker.test")
            #expect(client.peerCommonName == "attacker.test")
            let read = try client.exchange(httpRequest("/__admin/projects", host: "attacker.test:\(port)"))
            #expect(read.status == 421 && !read.text.contains("demo0000"))
            let clock = try client.exchange(
                httpRequest(
                    "/__admin/projects/demo/clock", method: "PUT", host: "attacker.test:\(port)",
                    headers: ["Content-Length": "17"]) + #"{"mode":"frozen"}"#)
            #expect(clock.status == 421)
            #expect(try await server.client.admin.project("demo").clock().mode != "frozen")
            let local = try TLSTestClient(port: port, context: context, serverName: "localhost")
            #expect(try local.exchange(httpRequest("/__admin/projects", host: "localhost:\(port)")).status == 200)
            let emulated = try TLSTestClient(port: port, context: context, serverName: "api.warplink.app")
            #expect(try emulated.exchange(httpRequest("/__admin/health", host: "api.warplink.app")).status == 200)
            // A page of another origin over HTTPS, under an allowed name: its change is refused too.
            let crossOrigin = try local.exchange(
                httpRequest(
                    "/__admin/projects/demo/reset", method: "POST", host: "localhost:\(port)",
                    headers: ["Origin": "https://localhost:1", "Content-Length": "0"]))
            #expect(crossOrigin.status == 403)
            let sameOrigin = try local.exchange(
                httpRequest(
                    "/__admin/projects/demo/clock", method: "PUT", host: "localhost:\(port)",
                    headers: ["Origin": "https://localhost:\(port)", "Content-Length": "17"]) + #"{"mode":"frozen"}"#)
            #expect(sameOrigin.status == 200)
        }
    }
}
#endif
