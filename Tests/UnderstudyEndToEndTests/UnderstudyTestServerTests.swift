import Foundation
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
