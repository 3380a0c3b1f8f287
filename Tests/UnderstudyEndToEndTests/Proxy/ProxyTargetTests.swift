import Foundation
import HTTPServer
import TestSockets
import Testing
import UnderstudyTesting

@testable import UnderstudyServer

/// Every spelling of this machine's loopback the resolver accepts, as a CONNECT host.
let loopbackSpellings = [
    "127.0.0.1", "localhost", "127.1", "2130706433", "0x7f000001", "0177.0.0.1", "0x7f.1", "127.0.0.2",
    "0.0.0.0", "0", "[::1]", "[::ffff:127.0.0.1]",
]

/// `Proxy-Authorization` for `credentials`.
func proxyAuthorization(_ credentials: String) -> String { "Basic " + Data(credentials.utf8).base64EncodedString() }

@Suite("Proxy: what passthrough may reach, the password, listening beyond loopback")
struct ProxyTargetTests {
    @Test("by default no spelling of loopback is reached, by CONNECT or absolute form: 403 naming --proxy-allow-private, nothing accepted")
    func loopbackRefused() async throws {
        let upstream = try LoopbackUpstream(.echo)
        defer { upstream.stop() }
        try await UnderstudyTestServer.with { server in
            let proxyPort = try #require(server.server.proxyPort)
            let port = upstream.port
            let replies = try await blocking { () -> [(String, HTTPReply, HTTPReply)] in
                try loopbackSpellings.map { host in
                    (
                        host, try RawClient(port: proxyPort).connectTunnel("\(host):\(port)"),
                        try RawClient(port: proxyPort).request("GET", "http://\(host):\(port)/", host: "\(host):\(port)")
                    )
                }
            }
            for (host, connect, absolute) in replies {
                #expect(connect.status == 403 && connect.text.contains("--proxy-allow-private"), "CONNECT \(host): \(connect.status) \(connect.text)")
                #expect(absolute.status == 403 && absolute.text.contains("--proxy-allow-private"), "GET http://\(host): \(absolute.status) \(absolute.text)")
            }
            #expect(upstream.accepted == 0)
            #expect(server.server.http.tunnelCount == 0 && server.server.emulator.upstreams.upstreamCount == 0)
            print("proxy targets: \(loopbackSpellings.count) loopback spellings × CONNECT and absolute form refused; upstream accepted \(upstream.accepted)")
        }
    }

    @Test("the server's own ports, even with private targets allowed: the proxy port is refused (no nesting), the plain port is served in process")
    func ownListeners() async throws {
        try await UnderstudyTestServer.with(configure: allowPrivate) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let plainPort = server.server.http.port
            let (nested, byName, served, absolute) = try await blocking { () -> (HTTPReply, HTTPReply, HTTPReply, HTTPReply) in
                let nested = try RawClient(port: proxyPort).connectTunnel("127.0.0.1:\(proxyPort)")
                let byName = try RawClient(port: proxyPort).connectTunnel("localhost:\(proxyPort)")
                let tunnel = try RawClient(port: proxyPort)
                let established = try tunnel.connectTunnel("127.1:\(plainPort)")
                guard established.status == 200 else { return (nested, byName, established, established) }
                let served = try tunnel.request("GET", "/__admin/health", host: "127.1:\(plainPort)")
                let absolute = try RawClient(port: proxyPort).request("GET", "http://0x7f000001:\(plainPort)/__admin/health", host: "0x7f000001:\(plainPort)")
                return (nested, byName, served, absolute)
            }
            #expect(nested.status == 403 && nested.text.contains("the proxy itself"), "\(nested.status) \(nested.text)")
            #expect(byName.status == 403, "\(byName.status) \(byName.text)")
            #expect(served.status == 200, "\(served.status) \(served.text)")
            #expect(absolute.status == 200, "\(absolute.status) \(absolute.text)")
            #expect(server.server.http.tunnelCount == 0 && server.server.emulator.upstreams.upstreamCount == 0)
        }
    }

    @Test("with --proxy-password, CONNECTs need Proxy-Authorization (407 and Proxy-Authenticate otherwise), emulated hosts included")
    func password() async throws {
        try await UnderstudyTestServer.with(demo: true, configure: { $0.proxyPassword = "s3cret" }) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let (missing, wrong, inner) = try await blocking { () -> (HTTPReply, HTTPReply, HTTPReply) in
                let missing = try RawClient(port: proxyPort).connectTunnel("api.warplink.app:80")
                let wrongClient = try RawClient(port: proxyPort)
                wrongClient.send("CONNECT api.warplink.app:80 HTTP/1.1\r\nHost: api.warplink.app:80\r\nProxy-Authorization: \(proxyAuthorization("phone:nope"))\r\n\r\n")
                let wrong = try wrongClient.readResponse(tunnel: true)
                let client = try RawClient(port: proxyPort)
                client.send("CONNECT api.warplink.app:80 HTTP/1.1\r\nHost: api.warplink.app:80\r\nProxy-Authorization: \(proxyAuthorization("phone:s3cret"))\r\n\r\n")
                let established = try client.readResponse(tunnel: true)
                guard established.status == 200 else { return (missing, wrong, established) }
                let inner = try client.request(
                    "GET", "/v1/sdk/validate", host: "api.warplink.app",
                    headers: ["Authorization": "Bearer wl_live_demo0000000000000000000000000000"])
                return (missing, wrong, inner)
            }
            #expect(missing.status == 407 && missing.headers["proxy-authenticate"] == "Basic realm=\"understudy\"")
            #expect(wrong.status == 407)
            #expect(inner.status == 200, "\(inner.status) \(inner.text)")
        }
    }

    @Test("listening beyond loopback without a password, passthrough is refused and emulated hosts still work; with one, passthrough works")
    func beyondLoopback() async throws {
        let upstream = try LoopbackUpstream(.echo)
        defer { upstream.stop() }
        let beyond = { (configuration: inout ServerConfiguration) in
            configuration.host = "0.0.0.0"
            configuration.adminToken = "proxy-tests"
            configuration.proxyAllowPrivate = true
        }
        try await UnderstudyTestServer.with(demo: true, configure: beyond) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let (refused, emulated) = try await blocking { () -> (HTTPReply, HTTPReply) in
                (
                    try RawClient(port: proxyPort).connectTunnel("127.0.0.1:\(upstream.port)"),
                    try RawClient(port: proxyPort).connectTunnel("api.warplink.app:443")
                )
            }
            #expect(refused.status == 403 && refused.text.contains("--proxy-password") && refused.text.contains("loopback"), "\(refused.text)")
            #expect(emulated.status == 200)
            #expect(upstream.accepted == 0)
        }
        try await UnderstudyTestServer.with(configure: {
            beyond(&$0); $0.proxyPassword = "pw"
        }) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let echoed = try await blocking { () -> [UInt8] in
                let client = try RawClient(port: proxyPort)
                client.send("CONNECT 127.0.0.1:\(upstream.port) HTTP/1.1\r\nProxy-Authorization: \(proxyAuthorization("u:pw"))\r\n\r\n")
                guard try client.readResponse(tunnel: true).status == 200 else { return [] }
                client.send("ping")
                return try client.receiveSome()
            }
            #expect(echoed == Array("ping".utf8))
        }
    }

    @Test("flags, environment and configuration file set the private-target option and the password; a blank password is a usage error")
    func configuration() throws {
        let flags = try UnderstudyCommand.parse(["--proxy-allow-private", "--proxy-password", "dev:pw"], environment: [:])
        #expect(flags.proxyAllowPrivate && flags.proxyPassword == "dev:pw")
        let environment = try UnderstudyCommand.parse([], environment: ["UNDERSTUDY_PROXY_ALLOW_PRIVATE": "true", "UNDERSTUDY_PROXY_PASSWORD": "pw"])
        #expect(environment.proxyAllowPrivate && environment.proxyPassword == "pw")
        let defaults = try UnderstudyCommand.parse([], environment: [:])
        #expect(!defaults.proxyAllowPrivate && defaults.proxyPassword == nil)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-\(UUID().uuidString).json")
        try Data(#"{"proxyAllowPrivate": true, "proxyPassword": "from-file"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let fromFile = try UnderstudyCommand.parse(["--config", file.path], environment: [:])
        #expect(fromFile.proxyAllowPrivate && fromFile.proxyPassword == "from-file")
        for bad in ["   ", ":pw", "user:"] {
            var configuration = ServerConfiguration()
            configuration.proxyPassword = bad
            #expect(throws: ConfigurationError.self, "\(bad.debugDescription)") { try configuration.validate() }
        }
        #expect(UnderstudyCommand.usage.contains("--proxy-allow-private") && UnderstudyCommand.usage.contains("--proxy-password"))
    }
}
