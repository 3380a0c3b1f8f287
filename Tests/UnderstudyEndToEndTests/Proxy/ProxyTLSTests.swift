import Foundation
import TestSockets
import Testing
import UnderstudyServer
import UnderstudyTesting

private let demoSDKKey = "wl_live_demo0000000000000000000000000000"

/// The server's CA certificate in PEM, as `understudy ca export` gives it to a device.
private func caPEM(_ server: UnderstudyTestServer) throws -> String {
    let authority = try #require(server.server.certificateAuthority)
    return String(decoding: try authority.exportCertificate(as: .pem), as: UTF8.self)
}

@Suite("Proxy: intercepted HTTPS tunnels")
struct ProxyTLSTests {
    @Test(
        "CONNECT api.warplink.app:443, TLS verified against the exported CA with the hostname check on, GET /v1/sdk/validate with the demo key → 200 from Understudy, journalled as via the proxy"
    )
    func warpLinkOverTLS() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let pem = try caPEM(server)
            let (alpn, answer, again) = try await blocking { () -> (String, HTTPReply, HTTPReply) in
                let proxy = try RawClient(port: proxyPort)
                let established = try proxy.connectTunnel("api.warplink.app:443")
                guard established.status == 200 else { return ("", established, established) }
                let tls = try TunnelTLSClient(over: proxy, serverName: "api.warplink.app", trusting: pem)
                let answer = try tls.request("GET", "/v1/sdk/validate", host: "api.warplink.app", headers: ["Authorization": "Bearer " + demoSDKKey])
                let again = try tls.request("GET", "/v1/sdk/validate", host: "api.warplink.app", headers: ["Authorization": "Bearer " + demoSDKKey])
                return (tls.negotiatedProtocol, answer, again)
            }
            #expect(alpn == "http/1.1")
            #expect(answer.status == 200 && answer.text.contains("\"valid\"") && again.status == 200)
            let entries = try await proxyJournal(server, query: "via=proxy&platform=warplink")
            #expect(entries.count == 2 && entries.allSatisfy { $0["proxyHost"] as? String == "api.warplink.app" && $0["projectID"] as? String == "demo" })
        }
    }

    @Test("a ClientHello sent right behind the CONNECT head (before our 200) still completes the handshake")
    func clientHelloPipelined() async throws {
        try await UnderstudyTestServer.with(demo: true) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let pem = try caPEM(server)
            let answer = try await blocking { () -> HTTPReply in
                let proxy = try RawClient(port: proxyPort)
                // One write: the CONNECT head and the ClientHello behind it; the 200 is read after.
                let tls = try TunnelTLSClient(
                    over: proxy, serverName: "api.warplink.app", trusting: pem,
                    connectFirst: "CONNECT api.warplink.app:443 HTTP/1.1\r\nHost: api.warplink.app:443\r\n\r\n")
                return try tls.request("GET", "/v1/sdk/validate", host: "api.warplink.app", headers: ["Authorization": "Bearer " + demoSDKKey])
            }
            #expect(answer.status == 200)
        }
    }

    @Test("the TLS tunnel presents a certificate for the CONNECT host that a client trusting another CA rejects")
    func untrustedCARejected() async throws {
        try await UnderstudyTestServer.with { server in
            let proxyPort = try #require(server.server.proxyPort)
            // Another server's CA, in its own folder: a different key.
            let stranger = try await UnderstudyTestServer.with { other in try caPEM(other) }
            let rejected = try await blocking { () -> Bool in
                let proxy = try RawClient(port: proxyPort)
                _ = try proxy.connectTunnel("api.warplink.app:443")
                do {
                    _ = try TunnelTLSClient(over: proxy, serverName: "api.warplink.app", trusting: stranger)
                    return false
                } catch {
                    return true
                }
            }
            #expect(rejected)
        }
    }

    @Test("every platform's real host over an intercepted TLS tunnel reaches that platform")
    func everyPlatformOverTLS() async throws {
        try await UnderstudyTestServer.with(demo: true, configure: { $0.platforms[.telematics] = ["hosts": ["telematics.example.com"]] }) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let pem = try caPEM(server)
            let plainPort = server.server.http.port
            let keys = [
                "api.asleep.ai": ["x-api-key": "demo-asleep-api-key-0000000000000000000000"],
                "www.warrantylife.com": ["X-WL-Developer-Key": "demo0000000000000000000000000000"], "telematics.example.com": [:],
            ]
            for (host, path) in [
                ("api.asleep.ai", "/ai/v1/users/none"), ("www.warrantylife.com", "/mapi/wi/100/developer-keys/validate"),
                ("telematics.example.com", "/api/v1/vehicles/types"),
            ] {
                let headers = keys[host] ?? [:]
                let (reply, direct) = try await blocking { () -> (HTTPReply, HTTPReply) in
                    let proxy = try RawClient(port: proxyPort)
                    _ = try proxy.connectTunnel(host + ":443")
                    let reply = try TunnelTLSClient(over: proxy, serverName: host, trusting: pem).request("GET", path, host: host, headers: headers)
                    let direct = try RawClient(port: plainPort).request("GET", path, host: host, headers: headers)
                    return (reply, direct)
                }
                #expect(reply.status == direct.status && reply.body.count == direct.body.count, "\(host): \(reply.status) \(reply.text) vs \(direct.status) \(direct.text)")
                let entries = try await proxyJournal(server, query: "via=proxy&proxyHost=\(host)")
                // The CONNECT itself is the proxy's entry; the request inside belongs to the platform.
                #expect(entries.contains { $0["method"] as? String == "CONNECT" && $0["platform"] as? String == "proxy" })
                let platforms = Set(entries.filter { $0["method"] as? String != "CONNECT" }.compactMap { $0["platform"] as? String })
                #expect(platforms.count == 1 && !platforms.contains("admin") && !platforms.contains("proxy"), "\(host): \(platforms)")
            }
        }
    }
}
