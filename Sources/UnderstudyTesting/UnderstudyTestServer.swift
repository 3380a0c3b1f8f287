import EmulatorCore
import Foundation
import HTTPServer
import PostgresStore
import UnderstudyClient
import UnderstudyServer

/// A real Understudy server started in-process on a free port with a throwaway SQLite file,
/// plus a client pointed at it. For this package's end-to-end tests and for users' own suites.
///
/// With `UNDERSTUDY_TEST_DATABASE` set to a PostgreSQL URL (`postgres://user:pass@host:port/postgres`),
/// each server gets a throwaway database of its own on that server instead, created at start and
/// dropped at stop: the same suite then runs on PostgreSQL.
///
/// ```swift
/// try await UnderstudyTestServer.with { server in
///     let project = try await server.client.admin.createProject(name: "checkout")
///     // … drive the SDK or the client against server.url …
/// }
/// ```
///
/// `with` stops the server (and deletes its database) when the body returns or throws, and waits
/// for that before it returns, so no server outlives its test. `start()`/`stop()` remain for a
/// test that needs the server's lifetime in its own hands (restarting on the same database, say);
/// it must then await `stop()` on every path itself.
public final class UnderstudyTestServer: Sendable {
    /// The running server.
    public let server: UnderstudyServer
    /// A client for it.
    public let client: Understudy
    /// The server's root URL.
    public let url: URL
    private let folder: URL
    private let scratch: ScratchDatabase?

    private init(server: UnderstudyServer, client: Understudy, url: URL, folder: URL, scratch: ScratchDatabase?) {
        self.server = server
        self.client = client
        self.url = url
        self.folder = folder
        self.scratch = scratch
    }

    /// How `client` reaches the server. The server listens either way, so a test may still
    /// dial `url` with its own HTTP client.
    public enum Transport: Sendable {
        /// Over the server's socket, as an app does: framing, body limits, socket faults are real.
        case live
        /// Handed to the server's request pipeline in process: the same routing, handlers,
        /// journal and faults, without a socket, for tests where the socket is not the point.
        case router
    }

    /// Starts a server as `start(demo:configure:)` does, runs `body` with it, and stops it before
    /// returning `body`'s result or rethrowing its error.
    public static func with<T>(
        demo: Bool = false,
        transport: Transport = .live,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        isolation: isolated (any Actor)? = #isolation,
        _ body: (UnderstudyTestServer) async throws -> T
    ) async throws -> T {
        let folder = try makeFolder()
        let (configuration, scratch) = try prepare(demo: demo, folder: folder, configure: configure)
        let server = try await launch(configuration, folder: folder, scratch: scratch, transport: transport)
        let result: T
        do {
            result = try await body(server)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        return result
    }

    /// Starts a server on 127.0.0.1 with a fresh database. `configure` may change any setting
    /// (timeouts, journal bounds, demo fixtures…); by default no demo project is created and
    /// nothing is logged. The caller owns the server and must await `stop()`; prefer `with`.
    public static func start(
        demo: Bool = false, transport: Transport = .live, configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> UnderstudyTestServer {
        let folder = try makeFolder()
        let (configuration, scratch) = try prepare(demo: demo, folder: folder, configure: configure)
        return try await launch(configuration, folder: folder, scratch: scratch, transport: transport)
    }

    private static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// The test defaults (loopback, free port, database in `folder` or `scratch`, quiet) with `configure` applied.
    private static func configuration(demo: Bool, folder: URL, scratch: ScratchDatabase?, configure: (inout ServerConfiguration) -> Void) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        // Free ports for TLS and the proxy too: parallel suites must not fight over 8443 and 8888.
        configuration.httpsPort = 0
        configuration.proxyPort = 0
        configuration.eventLoop = testEventLoop
        configuration.databasePath = scratch?.url ?? folder.appendingPathComponent("understudy.sqlite").path
        configuration.logRequests = false
        // The working directory of a consumer's tests is the consumer's own package, which may
        // have a Migrations/ or Config/ of its own: use this package's, unless `configure` says otherwise.
        if let root = packageRoot {
            configuration.migrationsPath = root.appendingPathComponent("Migrations").path
            if demo { configuration.fixturesPath = root.appendingPathComponent("Config/fixtures").path }
        }
        if !demo { configuration.fixturesPath = "" }
        configure(&configuration)
        // A PostgreSQL database has no folder to keep the local CA beside: the server's own
        // folder, not a `data/` in the working directory that every test server would share.
        if configuration.caDirectory == nil, DatabaseLocation.namesPostgres(configuration.databasePath) { configuration.caDirectory = folder.path }
        return configuration
    }

    /// This package's root as it was built (this file is Sources/UnderstudyTesting/…; a package
    /// reached by URL lives in the consumer's .build/checkouts), when its Migrations/ is still there.
    private static var packageRoot: URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        let found = FileManager.default.fileExists(atPath: root.appendingPathComponent("Migrations").path, isDirectory: &isDirectory)
        return found && isDirectory.boolValue ? root : nil
    }

    /// The loop tests run on: `UNDERSTUDY_EVENT_LOOP` when set (CI runs the suites once per loop), else the default.
    public static var testEventLoop: EventLoopKind {
        ProcessInfo.processInfo.environment["UNDERSTUDY_EVENT_LOOP"].flatMap(EventLoopKind.init(rawValue:)) ?? .platformDefault
    }

    /// The configuration, with a scratch PostgreSQL database when the environment asks for one and
    /// `configure` kept it (a test that chose its own database keeps that one).
    private static func prepare(demo: Bool, folder: URL, configure: (inout ServerConfiguration) -> Void) throws -> (ServerConfiguration, ScratchDatabase?) {
        let scratch: ScratchDatabase?
        do {
            scratch = try ScratchDatabase.fromEnvironment()
        } catch {
            discard(folder)
            throw error
        }
        let configuration = configuration(demo: demo, folder: folder, scratch: scratch, configure: configure)
        guard let scratch, scratch.url == configuration.databasePath else {
            scratch?.drop()
            return (configuration, nil)
        }
        return (configuration, scratch)
    }

    private static func launch(
        _ configuration: ServerConfiguration, folder: URL, scratch ownScratch: ScratchDatabase?, transport: Transport
    ) async throws -> UnderstudyTestServer {
        let server: UnderstudyServer
        do {
            server = try UnderstudyServer(configuration: configuration, logger: Logger(minimumLevel: .error, logsRequests: configuration.logRequests))
        } catch {
            discard(folder)
            ownScratch?.drop()
            throw error
        }
        do {
            try await server.start()
            guard let url = URL(string: server.url) else { throw UnderstudyTestServerError.unusableURL(server.url) }
            let clientTransport: UnderstudyTransport
            switch transport {
            case .live: clientTransport = .http
            case .router: clientTransport = .inProcess(InProcessExchange(server: server, url: url).send)
            }
            return UnderstudyTestServer(
                server: server, client: Understudy(baseURL: url, adminToken: configuration.adminToken, transport: clientTransport), url: url,
                folder: folder, scratch: ownScratch)
        } catch {
            // It may already be listening; nothing else will ever stop it or delete its folder.
            await server.stop(gracePeriod: 0)
            discard(folder)
            ownScratch?.drop()
            throw error
        }
    }

    /// Deletes a test server's folder. A folder that cannot be removed is only litter in the
    /// temporary directory (every server uses a fresh one), never worth failing a test over.
    private static func discard(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The bound HTTPS port (a free one); nil when the configuration turned HTTPS off.
    public var httpsPort: Int? { server.httpsPort }

    /// The bound port of the intercepting proxy (`http://127.0.0.1:<port>` as an app's proxy); nil when it is off.
    public var proxyPort: Int? { server.proxyPort }

    /// The local CA certificate (a PEM file in the server's temporary folder) that TLS clients must
    /// trust to reach `httpsPort`; nil when neither HTTPS nor the proxy is on.
    public var caCertificatePath: String? { server.caCertificatePath }

    /// Creates a project and returns it.
    public func makeProject(name: String = "test") async throws -> Project {
        try await client.admin.createProject(name: name)
    }

    /// Stops the server and deletes its database.
    public func stop() async {
        await server.stop(gracePeriod: 2)
        Self.discard(folder)
        scratch?.drop()
    }
}

/// Why a test server could not be started.
public enum UnderstudyTestServerError: Error, Equatable, CustomStringConvertible {
    /// The server advertised a URL that `URL(string:)` does not accept.
    case unusableURL(String)

    /// A sentence for test failures.
    public var description: String {
        switch self {
        case .unusableURL(let text): return "the test server's URL \(text) is not a valid URL"
        }
    }
}
