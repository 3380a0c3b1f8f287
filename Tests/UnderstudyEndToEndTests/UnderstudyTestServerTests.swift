import Foundation
import HTTPServer
import Testing
import UnderstudyClient
import UnderstudyTesting

/// `UnderstudyTestServer.with` tears its server down before it returns, whichever way the body ends.
@Suite("Scoped test server")
struct UnderstudyTestServerTests {
    private struct BodyFailure: Error, Equatable {}

    @Test("with returns the body's value, and by then the server is stopped and its database deleted")
    func returnsValue() async throws {
        var seen: UnderstudyTestServer?
        let value = try await UnderstudyTestServer.with { server in
            seen = server
            let healthy = try await server.client.admin.health()
            #expect(healthy)
            return 42
        }
        #expect(value == 42)
        let server = try #require(seen)
        #expect(server.server.http.isShuttingDown)
        #expect(server.server.http.connectionCount == 0)
        #expect(!FileManager.default.fileExists(atPath: server.server.configuration.databasePath))
    }

    @Test("when the body throws, with stops the server first and rethrows the body's error")
    func bodyThrows() async throws {
        var seen: UnderstudyTestServer?
        await #expect(throws: BodyFailure()) {
            try await UnderstudyTestServer.with { server in
                seen = server
                _ = try await server.makeProject()
                throw BodyFailure()
            }
        }
        let server = try #require(seen)
        #expect(server.server.http.isShuttingDown)
        #expect(server.server.http.connectionCount == 0)
        #expect(!FileManager.default.fileExists(atPath: server.server.configuration.databasePath))
    }

    @Test("with applies demo and configure like start")
    func configuration() async throws {
        try await UnderstudyTestServer.with(demo: true, configure: { $0.maxBodyBytes = 1234 }) { server in
            #expect(server.server.configuration.maxBodyBytes == 1234)
            let demo = try await server.client.admin.project("demo").get()
            #expect(demo.isDemo)
        }
    }
}

/// The router transport: the client's requests go through the server's own request reader and
/// pipeline in process, so they are answered and journalled as over the socket.
@Suite("Test server: router transport")
struct RouterTransportTests {
    @Test("a router request is answered and journalled as the same request over the socket is")
    func sameAsLive() async throws {
        func exchange(_ transport: UnderstudyTestServer.Transport) async throws -> (status: Int, body: AnyJSON?, journal: JournalEntry?) {
            try await UnderstudyTestServer.with(transport: transport) { server in
                let project = try await server.makeProject(name: "t")
                let key = project.credential("warplink", "sdkKey")
                let response = try await server.client.send(
                    ClientRequest(method: "GET", path: "/warplink/v1/sdk/validate", query: [("x", "a b")], headers: ["Authorization": "Bearer " + key]))
                let entry = try await server.client.admin.project(project.id).requests(JournalQuery(path: "/warplink/v1/sdk/validate")).requests.first
                return (response.status, try? JSONDecoder().decode(AnyJSON.self, from: response.body), entry)
            }
        }
        let live = try await exchange(.live), router = try await exchange(.router)
        #expect(router.status == 200 && router.status == live.status)
        #expect(router.body?["valid"] == true && router.body == live.body)
        let (routed, dialled) = (try #require(router.journal), try #require(live.journal))
        #expect(routed.query == "x=a%20b" && routed.query == dialled.query)
        #expect(routed.requestHeaders["host"]?.hasPrefix("127.0.0.1:") == true)
        // Each server made its own key: the same redaction, a different tail.
        #expect(routed.requestHeaders["authorization"]?.hasPrefix("Bearer [redacted …") == true)
        #expect(Set(routed.requestHeaders.keys).isSubset(of: Set(dialled.requestHeaders.keys)), "\(routed.requestHeaders.keys) \(dialled.requestHeaders.keys)")
    }

    @Test("the reader's rules still hold in process: a gzip body is decoded, an oversized one is a 413, a reset fault is a lost connection")
    func readerRules() async throws {
        try await UnderstudyTestServer.with(transport: .router, configure: { $0.maxBodyBytes = 1_000 }) { server in
            let project = try await server.makeProject(name: "t")
            let admin = server.client.admin.project(project.id)
            let gzipped = Gzip.compress(Data(#"{"name":"zipped"}"#.utf8))
            let created = try await server.client.send(
                ClientRequest(
                    method: "POST", path: "/__admin/projects", headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                    body: gzipped))
            #expect(created.status == 201, "\(String(decoding: created.body, as: UTF8.self))")
            let large = try await server.client.send(
                ClientRequest(method: "POST", path: "/__admin/projects", headers: ["Content-Type": "application/json"], body: Data(count: 2_000)))
            #expect(large.status == 413)
            _ = try await admin.addFault(FaultRule(match: .init(platform: "warplink"), action: .init(type: "reset")))
            await #expect(throws: UnderstudyClientError.self) {
                _ = try await server.client.warpLink.validate(apiKey: project.credential("warplink", "sdkKey"))
            }
        }
    }
}
