import AsleepEmulator
import EmulatorCore
import Foundation
import HTTPServer
import SQLiteStore
import TelematicsEmulator
import UnderstudyDashboard
import WarpLinkEmulator
import WarrantyLifeEmulator

/// A running Understudy: database opened and migrated, the four platforms wired, listening.
public final class UnderstudyServer: Sendable {
    /// The configuration it was started with.
    public let configuration: ServerConfiguration
    /// The emulator (projects, faults, journal, platforms).
    public let emulator: Emulator
    /// The HTTP server.
    public let http: HTTPServer
    /// Migrations applied at start (empty when the database was current).
    public let appliedMigrations: [String]

    /// Opens the database, applies migrations and builds the emulator; does not listen yet.
    public init(configuration: ServerConfiguration, logger: Logger? = nil) throws {
        try configuration.validate()
        self.configuration = configuration
        let database = try Database(path: configuration.databasePath)
        let migrator = try Migrator(directory: try Migrator.locateDirectory(configured: configuration.migrationsPath))
        appliedMigrations = try database.withWriterBlocking { try migrator.migrate($0) }
        let logger = logger ?? Logger(format: configuration.logFormat, logsRequests: configuration.logRequests)
        let settings = EmulatorSettings(journal: configuration.journal, adminToken: configuration.adminToken,
                                        platformConfiguration: configuration.platforms,
                                        fixturesDirectory: Self.locateFixtures(configuration.fixturesPath))
        let services = EmulatorServices(database: database, logger: logger, settings: settings)
        let platforms = try PlatformRegistry.makePlatforms(settings)
        emulator = try Emulator(services: services, platforms: platforms)
        let httpConfiguration = HTTPServerConfiguration(
            host: configuration.host, port: configuration.port,
            limits: HTTPParserLimits(maxBodyBytes: configuration.maxBodyBytes),
            headerTimeout: configuration.headerTimeout, idleTimeout: configuration.idleTimeout,
            eventLoop: configuration.eventLoop)
        // The dashboard (`/__admin/ui`, and `/` when no platform claims the host) sits in front of the emulator.
        http = HTTPServer(configuration: httpConfiguration, application: DashboardApplication(emulator: emulator))
    }

    /// Starts listening and loads projects and the demo fixtures. Returns the bound port.
    @discardableResult
    public func start() async throws -> Int {
        let port = try http.start()
        let services = emulator.services
        services.setListening(host: configuration.host, port: port)
        // Validated at init, so a configured URL always parses here.
        services.setPublicURL(configuration.publicURL.flatMap(PublicURL.init))
        // The HTTPS port, the proxy port and the CA path are advertised once those listeners are
        // bound: whoever starts them calls `setBoundHTTPSPort`, `setBoundProxyPort` and
        // `setCACertificatePath` on `emulator.services` (nothing is advertised that does not listen).
        try await emulator.load()
        return port
    }

    /// The plain-HTTP URL a client on this machine uses (`http://127.0.0.1:<port>`); devices are
    /// told `emulator.services.advertisedEndpoints(for:)` instead, which honours the public URL.
    public var url: String { emulator.services.serverURL }

    /// Stops accepting, finishes in-flight requests and flushes the journal.
    public func stop(gracePeriod: Double = 10) async {
        // Long polls (an open dashboard) answer at once instead of holding the shutdown.
        emulator.journal.endWaits()
        await http.shutdown(gracePeriod: gracePeriod)
        do {
            try await emulator.journal.flush()
        } catch {
            emulator.services.logger.error("journal entries could not be written at shutdown", [("error", String(describing: error))])
        }
    }

    private static func locateFixtures(_ configured: String?) -> String? {
        if let configured { return configured.isEmpty ? nil : configured }
        let local = FileManager.default.currentDirectoryPath + "/Config/fixtures"
        if FileManager.default.fileExists(atPath: local + "/project.json") { return local }
        // Sources/UnderstudyServer/UnderstudyServer.swift → package root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let baked = root.appendingPathComponent("Config/fixtures").path
        return FileManager.default.fileExists(atPath: baked + "/project.json") ? baked : nil
    }
}
