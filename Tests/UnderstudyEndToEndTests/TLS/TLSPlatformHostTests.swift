// The TLS test clients use Glibc sockets (socket pairs, SOCK_STREAM, MSG_NOSIGNAL); the server side is portable.
#if os(Linux)
import COpenSSL
import Foundation
import Testing
import UnderstudyServer
import UnderstudyTesting
import TestSockets

/// Starts a demo server with HTTPS on (Telematics serving `telematics.example.com`) and a client
/// context that trusts only the server's exported CA.
func withTLSServer<T>(
    configure: (inout ServerConfiguration) -> Void = { _ in }, version: Int32? = nil,
    _ body: (UnderstudyTestServer, Int, TLSClientContext) async throws -> T
) async throws -> T {
    try await UnderstudyTestServer.with(
        demo: true,
        configure: { configuration in
            configuration.platforms[.telematics] = ["hosts": ["telematics.example.com"]]
            configure(&configuration)
        }
    ) { server in
        let port = try #require(server.httpsPort)
        let context = try TLSClientContext(caPath: try #require(server.caCertificatePath), version: version)
        return try await body(server, port, context)
    }
}

/// A request line plus Host, the given headers and `Connection`.
func httpRequest(_ path: String, method: String = "GET", host: String, headers: [String: String] = [:], close: Bool = false) -> String {
    var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host)\r\n"
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
    if close { text += "Connection: close\r\n" }
    return text + "\r\n"
}

@Suite("HTTPS: the platforms' real hosts")
struct TLSPlatformHostTests {
    /// For each platform: its real host (SNI and Host), a cheap authenticated request with the demo
    /// project's credentials, and what only that platform's real answer contains.
    static let platformRequests: [(host: String, path: String, headers: [String: String], expect: String)] = [
        ("api.warplink.app", "/v1/sdk/validate", ["Authorization": "Bearer wl_live_demoapi0000000000000000000000000"], #""valid":true"#),
        (
            "api.asleep.ai", "/ai/v1/users/G-20260101000000-DemoUser000000000001", ["x-api-key": "demo-asleep-api-key-0000000000000000000000"],
            "G-20260101000000-DemoUser000000000001"
        ),
        ("www.warrantylife.com", "/mapi/wi/100/developer-keys/validate", ["X-WL-Developer-Key": "demo0000000000000000000000000000"], "{"),
        ("telematics.example.com", "/api/v1/users/me", ["Authorization": "Bearer tma_demo000000_DemoAccessToken0000000000000000001"], #""userName""#),
    ]

    @Test("each platform's real host, verified against the exported CA with the name checked, gives that platform's answer")
    func platformHosts() async throws {
        try await withTLSServer { server, port, context in
            for request in Self.platformRequests {
                let client = try TLSTestClient(port: port, context: context, serverName: request.host)
                #expect(client.peerCommonName == request.host)
                let reply = try client.exchange(httpRequest(request.path, host: request.host, headers: request.headers))
                #expect(reply.status == 200, "\(request.host): \(reply.status) \(reply.text)")
                #expect(reply.text.contains(request.expect), "\(request.host): \(reply.text)")
                // The same request without the host name's meaning: the plain port needs the prefix.
                #expect(try client.exchange(httpRequest(request.path, host: "127.0.0.1", headers: request.headers)).status == 404, "\(request.host)")
            }
            #expect(server.server.tls?.failedHandshakeCount == 0)
        }
    }

    @Test("project answers advertise the bound HTTPS port and the CA path, and the advertised HTTPS URL works")
    func advertised() async throws {
        try await withTLSServer { server, port, context in
            let project = try await server.client.admin.project("demo").get()
            let warpLink = try #require(project.httpsBaseURLs["warplink"])
            #expect(warpLink == "https://127.0.0.1:\(port)/warplink" && project.proxy.caCertificatePath == server.caCertificatePath)
            let client = try TLSTestClient(port: port, context: context, serverName: nil) // what a client of that URL does
            let request = Self.platformRequests[0]
            #expect(try client.exchange(httpRequest("/warplink" + request.path, host: "127.0.0.1:\(port)", headers: request.headers)).status == 200)
        }
    }

    @Test("TLS 1.2 and TLS 1.3 both negotiate, and ALPN says http/1.1")
    func versionsAndALPN() async throws {
        for version in [TLS1_2_VERSION, TLS1_3_VERSION] {
            try await withTLSServer(version: version) { _, port, context in
                let client = try TLSTestClient(port: port, context: context, serverName: "api.warplink.app")
                #expect(client.version == version && client.negotiatedProtocol == "http/1.1")
                #expect(try client.exchange(httpRequest("/__admin/health", host: "api.warplink.app")).status == 200)
            }
        }
        try await withTLSServer { _, port, context in
            let noALPN = try TLSTestClient(port: port, context: context, serverName: "api.warplink.app", alpn: [])
            let h2Only = try TLSTestClient(port: port, context: context, serverName: "api.warplink.app", alpn: ["h2"])
            #expect(noALPN.negotiatedProtocol == nil && h2Only.negotiatedProtocol == nil)
            #expect(try h2Only.exchange(httpRequest("/__admin/health", host: "localhost")).status == 200)
        }
    }

    @Test("keep-alive and three pipelined requests on one TLS connection, answered in order")
    func keepAliveAndPipelining() async throws {
        try await withTLSServer { _, port, context in
            let warpLink = Self.platformRequests[0]
            let client = try TLSTestClient(port: port, context: context, serverName: warpLink.host)
            for _ in 0..<3 { #expect(try client.exchange(httpRequest(warpLink.path, host: warpLink.host, headers: warpLink.headers)).status == 200) }
            // Three requests in three records sent before any answer is read: OpenSSL reads them
            // ahead together, so the connection must keep reading from what OpenSSL holds.
            let paths = ["/v1/sdk/validate", "/nope", "/v1/sdk/validate"]
            for path in paths { try client.send(httpRequest(path, host: warpLink.host, headers: warpLink.headers)) }
            let statuses = try paths.map { _ in try client.readReply().status }
            #expect(statuses == [200, 404, 200])
            #expect(try client.exchange(httpRequest("/v1/sdk/validate", host: warpLink.host, headers: warpLink.headers, close: true)).status == 200)
            #expect(client.waitForClose())
        }
    }

    @Test("no SNI (a client dialing the IP) gets the default certificate, valid for 127.0.0.1")
    func defaultCertificate() async throws {
        try await withTLSServer { server, port, context in
            let client = try TLSTestClient(port: port, context: context, serverName: nil, expectedName: "127.0.0.1")
            #expect(try client.exchange(httpRequest("/__admin/health", host: "127.0.0.1:\(port)")).status == 200)
            let localhost = try TLSTestClient(port: port, context: context, serverName: nil, expectedName: "localhost")
            #expect(try localhost.exchange(httpRequest("/__admin/health", host: "localhost")).status == 200)
            #expect(server.server.tls?.completedHandshakeCount == 2)
        }
    }

    @Test("an SNI name no platform serves gets a certificate minted for it, and its Host the plain port's answer: 421, a name not allowed")
    func unknownName() async throws {
        try await withTLSServer { server, port, context in
            let plainAnswer = try await server.client.send(.init(method: "GET", path: "/no/such/route", headers: ["Host": "unknown.example.org"]))
            let client = try TLSTestClient(port: port, context: context, serverName: "unknown.example.org")
            #expect(client.peerCommonName == "unknown.example.org")
            let reply = try client.exchange(httpRequest("/no/such/route", host: "unknown.example.org"))
            #expect(reply.status == 421 && reply.status == plainAnswer.status)
            #expect(reply.headers["content-type"] == plainAnswer.headers["content-type"])
            // The name does not verify for another host: the certificate is the SNI name's alone.
            #expect(throws: TLSTestClient.Failure.self) {
                _ = try TLSTestClient(port: port, context: context, serverName: "unknown.example.org", expectedName: "api.warplink.app")
            }
        }
    }
}
#endif
