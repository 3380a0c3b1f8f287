import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// A running server with one fresh project, its WarpLink keys and control plane.
struct WarpLinkHarness {
    let server: UnderstudyTestServer
    let project: Project
    var sdkKey: String { project.credential("warplink", "sdkKey") }
    var apiKey: String { project.credential("warplink", "apiKey") }
    var warpLink: WarpLinkClient { server.client.warpLink }
    var admin: WarpLinkProjectAdmin { server.client.warpLink.project(project.id) }
    var projectAdmin: ProjectAdmin { server.client.admin.project(project.id) }

    /// Runs `body` with a fresh harness and stops its server before returning, also when `body` throws.
    /// The client goes through the server's pipeline in process (`.router`) unless `transport` says `.live`.
    /// Unless `expectingFindings`, the test then fails on any integration-check finding of the
    /// project: every flow these tests drive uses the SDK as its documentation says.
    static func with<T>(
        transport: UnderstudyTestServer.Transport = .router, expectingFindings: Bool = false, _ body: (WarpLinkHarness) async throws -> T
    ) async throws -> T {
        try await UnderstudyTestServer.with(transport: transport) { server in
            let project = try await server.client.admin.createProject(name: "warplink")
            let result = try await body(WarpLinkHarness(server: server, project: project))
            if !expectingFindings { try await server.expectNoFindings(project: project.id) }
            return result
        }
    }

    /// A unique slug, so the unauthenticated redirect finds this project's link.
    static func slug(_ prefix: String = "l") -> String { prefix + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(10).lowercased() }

    /// Freezes the project clock at a fixed instant and returns it.
    @discardableResult
    func freeze(_ at: String = "2026-06-01T12:00:00.000Z") async throws -> ClockState { try await projectAdmin.freezeClock(at: at) }

    /// Journal entries of this project for `path`, oldest first.
    func requests(path: String) async throws -> [JournalEntry] {
        try await projectAdmin.requests(JournalQuery(path: path)).requests.reversed()
    }
}
