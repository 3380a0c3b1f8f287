import Foundation
import HTTPServer
import Testing
import UnderstudyClient
import UnderstudyServer
import UnderstudyTesting

/// `--event-loop` and `UNDERSTUDY_EVENT_LOOP` choose the loop; a name this build cannot run is a usage error.
@Suite("Choosing the event loop")
struct EventLoopSelectionTests {
    private static let supported = EventLoopKind.available.map(\.rawValue).joined(separator: ", ")

    @Test("an unknown or unsupported loop name is a usage error (exit 2) that names the supported loops")
    func unknownLoop() async throws {
        #expect(await UnderstudyCommand.main(["understudy", "--event-loop", "kqueue", "--no-https", "--no-proxy"], environment: [:]) == 2)
        #expect(await UnderstudyCommand.main(["understudy", "--event-loop", "", "--no-https", "--no-proxy"], environment: [:]) == 2)
        #expect(await UnderstudyCommand.main(["understudy", "--no-https", "--no-proxy"], environment: ["UNDERSTUDY_EVENT_LOOP": "Epoll"]) == 2)
        #expect(await UnderstudyCommand.main(["understudy", "--event-loop"], environment: [:]) == 2)
        let error = #expect(throws: ConfigurationError.self) {
            _ = try UnderstudyCommand.parse(["--event-loop", "kqueue"], environment: [:])
        }
        #expect(error?.description.contains("kqueue") == true)
        #expect(error?.description.contains(Self.supported) == true, "\(error?.description ?? "")")
    }

    @Test("every loop this build has can be chosen by flag or environment")
    func knownLoops() throws {
        for kind in EventLoopKind.available {
            #expect(try UnderstudyCommand.parse(["--event-loop", kind.rawValue], environment: [:]).eventLoop == kind)
            #expect(try UnderstudyCommand.parse([], environment: ["UNDERSTUDY_EVENT_LOOP": kind.rawValue]).eventLoop == kind)
        }
        #expect(try UnderstudyCommand.parse([], environment: [:]).eventLoop == .platformDefault)
    }

    /// CI runs the end-to-end suites a second time with UNDERSTUDY_EVENT_LOOP=dispatch; this is
    /// what makes a misspelt value fail instead of silently testing the default loop again.
    @Test("a test server runs the loop UNDERSTUDY_EVENT_LOOP names")
    func testServerHonoursVariable() async throws {
        let named = ProcessInfo.processInfo.environment["UNDERSTUDY_EVENT_LOOP"]
        let expected =
            try named.map { try #require(EventLoopKind(rawValue: $0), "UNDERSTUDY_EVENT_LOOP=\($0) names no loop") }
            ?? .platformDefault
        #expect(UnderstudyTestServer.testEventLoop == expected)
        try await UnderstudyTestServer.with { server in
            #expect(server.server.http.eventLoopKind == expected)
            let healthy = try await server.client.admin.health()
            #expect(healthy)
        }
    }

    @Test("the whole server answers on each loop", arguments: EventLoopKind.available)
    func serverOnEachLoop(loop: EventLoopKind) async throws {
        try await UnderstudyTestServer.with(configure: { $0.eventLoop = loop }) { server in
            #expect(server.server.http.eventLoopKind == loop)
            let project = try await server.makeProject(name: "loop-\(loop.rawValue)")
            #expect(project.name == "loop-\(loop.rawValue)")
            let healthy = try await server.client.admin.health()
            #expect(healthy)
        }
    }
}
