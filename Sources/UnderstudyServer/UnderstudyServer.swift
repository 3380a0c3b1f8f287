import AsleepEmulator
import EmulatorCore
import Foundation
import HTTPServer
import PostgresStore
import Storage
import Synchronization
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
    /// What the HTTP server runs for each request (the dashboard in front of the emulator): a
    /// test's in-process client hands requests to it directly.
    public let application: any HTTPApplication
    /// Migrations applied at start (empty when the database was current).
    public let appliedMigrations: [String]
    /// The local certificate authority whose leaves the TLS listeners present; nil when neither
    /// the HTTPS port nor the proxy is on.
    public let certificateAuthority: LocalCertificateAuthority?
    /// The TLS settings (and handshake counters) of the HTTPS port and of tunnels the proxy
    /// intercepts; nil when `certificateAuthority` is.
    public let tls: TLSServerContext?
    /// This server's claim on its CA folder, so `understudy ca reset` elsewhere refuses while it runs.
    private let caClaim: CertificateAuthorityUse?
    /// Why the CA lives where it does; nil when neither the HTTPS port nor the proxy is on.
    public let caLocationSource: CALocationSource?
    /// What the seed directory imported at start; nil when no seed directory was configured.
    public var seedReport: SeedReport? { seeds.withLock { $0 } }
    private let seeds = Mutex<SeedReport?>(nil)

    /// The event loop turn a handler's write is made in: writes of the requests one loop handles
    /// in one pass are committed together.
    private static let loopTurn: @Sendable () -> WriteTurn? = {
        LoopTurn.current.map { turn in WriteTurn(owner: turn.id, othersMayWrite: turn.hasQueuedWork, atEnd: turn.afterQueuedWork) }
    }

    /// Opens the database, applies migrations and builds the emulator; does not listen yet.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(configuration: ServerConfiguration, logger: Logger? = nil) throws {
        try configuration.validate()
        self.configuration = configuration
        let migrations = try Migrator.locateDirectory(configured: configuration.migrationsPath)
        let database: any Database
        var journalDatabase: (any Database)?
        var journalBodyDirectory: String?
        switch try DatabaseLocation(configuration.databasePath) {
        case .sqlite(let path):
            database = try SQLiteDatabase(path: path, currentTurn: Self.loopTurn)
            let migrator = try Migrator(directory: migrations)
            let journalFile = try Self.openJournalFile(besides: path)
            let journalMigrator = try Migrator(directory: Migrator.journalDirectory(inside: migrations))
            appliedMigrations =
                try database.withWriterBlocking { try migrator.migrate($0) }
                + journalFile.withWriterBlocking { try journalMigrator.migrate($0) }.map { "journal/" + $0 }
            journalDatabase = journalFile
            journalBodyDirectory = Self.journalBodyDirectory(besides: path)
        case .postgres(let location):
            let postgres = try PostgresDatabase(location: location)
            let migrator = try Migrator(directory: Migrator.postgresDirectory(inside: migrations))
            appliedMigrations = try postgres.migrate(with: migrator)
            database = postgres
        }
        let logger = logger ?? Logger(format: configuration.logFormat, logsRequests: configuration.logRequests)
        var settings = EmulatorSettings(
            journal: configuration.journal, adminToken: configuration.adminToken,
            platformConfiguration: configuration.platforms,
            fixturesDirectory: Self.locateFixtures(configuration.fixturesPath),
            proxy: ProxySettings(
                refusesUnknownHosts: configuration.proxyMode == .refuse,
                allowsPrivateTargets: configuration.proxyAllowPrivate, password: configuration.proxyPassword),
            listensBeyondLoopback: !configuration.isLoopback)
        settings.allowedHosts = try configuration.allowedHostNames()
        settings.checksEnabled = configuration.checks
        let services = EmulatorServices(
            database: database, journalDatabase: journalDatabase, journalBodyDirectory: journalBodyDirectory,
            logger: logger, settings: settings)
        let platforms = try PlatformRegistry.makePlatforms(settings)
        emulator = try Emulator(services: services, platforms: platforms)
        let httpConfiguration = HTTPServerConfiguration(
            host: configuration.host, port: configuration.port,
            limits: HTTPParserLimits(maxBodyBytes: configuration.maxBodyBytes),
            headerTimeout: configuration.headerTimeout, idleTimeout: configuration.idleTimeout,
            eventLoop: configuration.eventLoop)
        // The dashboard (`/__admin/ui`, and `/` when no platform claims the host) sits in front of the emulator.
        application = DashboardApplication(emulator: emulator)
        http = HTTPServer(configuration: httpConfiguration, application: application)
        emulator.metrics.observe(server: http, version: UnderstudyCommand.version)
        if configuration.httpsPort != nil || configuration.proxyPort != nil {
            // The public URL's host is on the no-SNI certificate: a device that dials its address gets a name that matches.
            let publicHost = configuration.publicURL.flatMap { URL(string: $0)?.host }
            let location = configuration.caLocation
            caLocationSource = location.source
            // Claimed before loading: a reset in progress finishes first, and none starts after.
            caClaim = try CertificateAuthorityUse(directory: location.path)
            let authority = try LocalCertificateAuthority(directory: location.path, defaultNames: publicHost.map { [$0] } ?? [])
            certificateAuthority = authority
            tls = try TLSServerContext(certificates: authority)
        } else {
            caClaim = nil
            caLocationSource = nil
            certificateAuthority = nil
            tls = nil
        }
    }

    /// The page size of a new journal file. A journalled 30 KB upload spans eight 4 KiB pages and
    /// two of these: in SQLite alone its insert, commit, checkpoint copy and eviction cost 117 µs
    /// on 4 KiB pages and 81 µs on 16 KiB ones, and the journal's writer, which every upload at
    /// 16 connections waited on once it fell behind, spends most of its time there.
    public static let journalPageSize = 16_384

    /// Opens (creating it if needed) the request journal's file next to the database at `path`.
    ///
    /// Its writer keeps statement journals in memory. The journal's inserts run inside the group
    /// commit's transaction, so SQLite journals the pages each statement changes in case that
    /// statement alone must roll back; on 16 KiB pages a batch's insert passed SQLite's 64 KiB
    /// and the journal became a file in /var/tmp, created and deleted some 40 times a second
    /// under load. The journal's bounds cap what a statement can change: a batch, an eviction of a
    /// hundredth, at most the whole journal when a project with every entry is cleared.
    public static func openJournalFile(besides path: String) throws -> SQLiteDatabase {
        try SQLiteDatabase(path: journalPath(besides: path), readerCount: 1, pageSize: journalPageSize, statementJournalsInMemory: true)
    }

    /// The request journal's SQLite file next to the database at `path`: `understudy.sqlite` →
    /// `understudy.requests.sqlite` (a name of its own: SQLite itself owns `…-journal`).
    public static func journalPath(besides path: String) -> String {
        // NSString's path methods keep a relative path relative, where URL would resolve it.
        let file = path as NSString
        return file.pathExtension.isEmpty ? path + ".requests" : file.deletingPathExtension + ".requests." + file.pathExtension
    }

    /// The directory of the journal's large bodies next to the database at `path`:
    /// `understudy.sqlite` → `understudy.requests.bodies` (see `JournalBodyFile`).
    public static func journalBodyDirectory(besides path: String) -> String {
        let file = path as NSString
        return (file.pathExtension.isEmpty ? path : file.deletingPathExtension) + ".requests.bodies"
    }

    /// Starts listening and loads projects and the demo fixtures. Returns the bound port.
    @discardableResult
    public func start() async throws -> Int {
        let port = try http.start()
        let services = emulator.services
        services.setListening(host: configuration.host, port: port)
        // Validated at init, so a configured URL always parses here.
        services.setPublicURL(configuration.publicURL.flatMap(PublicURL.init))
        if let tls, let httpsPort = configuration.httpsPort {
            // Same loops, limits, timeouts and application as the plain port; only the transport differs.
            let bound = try http.addListener(ListenerConfiguration(host: configuration.host, port: httpsPort, kind: .https, transport: tls))
            services.setBoundHTTPSPort(bound)
        }
        if let proxyPort = configuration.proxyPort {
            // The proxy shares the loops, limits and application; intercepted :443 tunnels use the same TLS settings.
            let bound = try http.addListener(ListenerConfiguration(host: configuration.host, port: proxyPort, kind: .proxy, intercept: tls))
            services.setBoundProxyPort(bound)
        }
        services.setCACertificatePath(certificateAuthority?.certificatePath)
        // Seeds go in before `load()` marks the server ready, so a readiness probe never answers 200
        // while they are missing; a seed bundle for the demo project's id takes the fixtures' place.
        var seeded = SeedReport()
        if let directory = configuration.seedDirectory {
            do {
                seeded = try await ProjectBundleStore(emulator: emulator).seed(from: directory, skipInvalid: configuration.seedSkipInvalid)
            } catch let error as BundleFileError {
                throw StartupError(description: "seed bundle \(error.file): \(error.reason)")
            }
            for skipped in seeded.skipped { services.logger.error("seed bundle skipped", [("reason", skipped)]) }
            let report = seeded
            seeds.withLock { $0 = report }
        }
        do {
            try await emulator.load()
        } catch let error as AdminError {
            // The demo project's fixtures can collide with a seeded project (an export of the demo
            // seeded under another id): name the seed file, the one thing the user can change.
            guard case .string(let holder)? = error.details?["project"], let file = seeded.files[holder] else { throw error }
            throw StartupError(description: "\(error.message) Project `\(holder)` was seeded from \(file).")
        }
        return port
    }

    /// The plain-HTTP URL a client on this machine uses (`http://127.0.0.1:<port>`); devices are
    /// told `emulator.services.advertisedEndpoints(for:)` instead, which honours the public URL.
    public var url: String { emulator.services.serverURL }

    /// The bound port of the intercepting proxy, or nil when it is off (or before `start()`).
    public var proxyPort: Int? { http.port(of: .proxy) }

    /// The bound HTTPS port (useful with port 0); nil when the TLS listener is off or not started.
    public var httpsPort: Int? { http.port(of: .https) }

    /// The HTTPS URL a client on this machine uses (`https://127.0.0.1:<port>`); nil without HTTPS.
    public var httpsURL: String? {
        guard let httpsPort, let plain = URL(string: url), let host = plain.host else { return nil }
        return "https://\(host.contains(":") ? "[\(host)]" : host):\(httpsPort)"
    }

    /// The path of the CA certificate clients must trust; nil when no TLS listener is on.
    public var caCertificatePath: String? { certificateAuthority?.certificatePath }

    /// Stops accepting, finishes in-flight requests and flushes the journal.
    public func stop(gracePeriod: Double = 10) async {
        // Long polls (an open dashboard) answer at once instead of holding the shutdown.
        emulator.journal.endWaits()
        await http.shutdown(gracePeriod: gracePeriod)
        do {
            try await emulator.journal.flush()
        } catch {
            emulator.services.logger.error("journal entries could not be written at shutdown", [("error", ErrorText.of(error))])
        }
        await emulator.checks.flush() // findings raised by the last requests are kept, and exported below
        if let directory = configuration.exportOnExitDirectory { await exportBundles(to: directory) }
        // How well writes were grouped into transactions: the group commit's one figure of merit.
        let services = emulator.services
        var files: [(name: String, database: any Database)] = [("database writes", services.database)]
        if services.journalHasOwnDatabase { files.append(("journal writes", services.journalDatabase)) }
        for (name, database) in files {
            guard let file = database as? SQLiteDatabase else { continue }
            let commits = file.groupCommitCounts
            emulator.services.logger.info(
                name,
                [
                    ("writes", String(commits.writes)), ("transactions", String(commits.transactions)),
                    ("checkpoints", String(file.checkpointsRun)),
                    ("background_checkpoint_frames", String(file.checkpointFrames.background)),
                    ("writer_checkpoint_frames", String(file.checkpointFrames.writer)),
                    ("deferred_writer_checkpoints", String(file.deferredWriterCheckpoints)),
                    ("writer_checkpoint_ms", String(format: "%.1f", file.checkpointWriterMilliseconds.total)),
                    ("longest_writer_checkpoint_ms", String(format: "%.1f", file.checkpointWriterMilliseconds.longest)),
                ])
        }
    }

    private func exportBundles(to directory: String) async {
        // A test seam: stalls each file halfway so a test can kill the process mid-export.
        let stall = ProcessInfo.processInfo.environment["UNDERSTUDY_TEST_EXPORT_STALL_MS"].flatMap(Double.init)
        var midWrite: (@Sendable () -> Void)?
        if let stall { midWrite = { Thread.sleep(forTimeInterval: stall / 1000) } }
        do {
            let report = try await ProjectBundleStore(emulator: emulator).exportAll(to: directory, midWrite: midWrite)
            for failure in report.failures {
                emulator.services.logger.error("project bundle not exported", [("file", failure.file), ("reason", failure.reason)])
            }
            emulator.services.logger.log(.info, "exported project bundles", values: [("directory", .string(directory)), ("files", .int(Int64(report.written.count)))])
        } catch {
            emulator.services.logger.error("project bundles could not be exported at shutdown", [("directory", directory), ("error", ErrorText.of(error))])
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

/// Why the server could not start, in one line for the command line (`understudy: cannot start: …`).
public struct StartupError: Error, CustomStringConvertible, Sendable {
    /// The line.
    public let description: String
}
