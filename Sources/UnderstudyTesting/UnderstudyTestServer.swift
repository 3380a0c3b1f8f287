import EmulatorCore
import Foundation
import UnderstudyClient
import UnderstudyServer

/// A real Understudy server started in-process on a free port with a throwaway SQLite file,
/// plus a client pointed at it. For this package's end-to-end tests and for users' own suites.
///
/// ```swift
/// let server = try await UnderstudyTestServer.start()
/// defer { Task { await server.stop() } }
/// let project = try await server.client.admin.createProject(name: "checkout")
/// ```
public final class UnderstudyTestServer: Sendable {
    /// The running server.
    public let server: UnderstudyServer
    /// A client for it.
    public let client: Understudy
    /// The server's root URL.
    public let url: URL
    private let folder: URL

    private init(server: UnderstudyServer, client: Understudy, url: URL, folder: URL) {
        self.server = server
        self.client = client
        self.url = url
        self.folder = folder
    }

    /// Starts a server on 127.0.0.1 with a fresh database. `configure` may change any setting
    /// (timeouts, journal bounds, demo fixtures…); by default no demo project is created and
    /// nothing is logged.
    public static func start(demo: Bool = false, configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> UnderstudyTestServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.databasePath = folder.appendingPathComponent("understudy.sqlite").path
        configuration.logRequests = false
        if !demo { configuration.fixturesPath = "" }
        configure(&configuration)
        let server = try UnderstudyServer(configuration: configuration, logger: Logger(minimumLevel: .error, logsRequests: configuration.logRequests))
        try await server.start()
        let url = URL(string: server.url)!
        return UnderstudyTestServer(server: server, client: Understudy(baseURL: url, adminToken: configuration.adminToken), url: url, folder: folder)
    }

    /// Creates a project and returns it.
    public func makeProject(name: String = "test") async throws -> Project {
        try await client.admin.createProject(name: name)
    }

    /// Stops the server and deletes its database.
    public func stop() async {
        await server.stop(gracePeriod: 2)
        try? FileManager.default.removeItem(at: folder)
    }
}
