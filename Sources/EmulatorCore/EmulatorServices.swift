import Foundation
import HTTPServer
import Storage
import Synchronization

/// Settings the core and platforms read.
public struct EmulatorSettings: Sendable {
    /// Journal bounds.
    public var journal: JournalLimits
    /// Token required on `/__admin` (always when listening off loopback); nil means open.
    public var adminToken: String?
    /// Each platform's section of the configuration file (`"<name>": {...}`), or null.
    public var platformConfiguration: [PlatformID: JSONValue]
    /// Folder with `project.json` and `<platform>.json` demo fixtures; nil loads no demo project.
    public var fixturesDirectory: String?
    /// What the intercepting proxy does with hosts no platform emulates.
    public var proxy: ProxySettings
    /// Whether the server listens beyond loopback, so other machines may send it requests: the
    /// proxy then passes through only with its password, and webhooks reach private addresses
    /// only where the project allows them.
    public var listensBeyondLoopback: Bool
    /// Host names answered besides the built-in ones (`--allowed-host`; see `HostAllowList`).
    public var allowedHosts: [AllowedHostName] = []
    /// Whether the integration checks run (`--checks off` turns them off; see `CheckEngine`).
    public var checksEnabled = true

    /// Creates settings with defaults.
    public init(
        journal: JournalLimits = JournalLimits(), adminToken: String? = nil,
        platformConfiguration: [PlatformID: JSONValue] = [:], fixturesDirectory: String? = nil, proxy: ProxySettings = ProxySettings(),
        listensBeyondLoopback: Bool = false
    ) {
        self.journal = journal
        self.adminToken = adminToken
        self.platformConfiguration = platformConfiguration
        self.fixturesDirectory = fixturesDirectory
        self.proxy = proxy
        self.listensBeyondLoopback = listensBeyondLoopback
    }

    /// The configuration section of `platform` (null when absent).
    public func configuration(for platform: PlatformID) -> JSONValue { platformConfiguration[platform] ?? .null }
}

/// How big the journal may grow before the oldest entries are evicted.
public struct JournalLimits: Sendable, Equatable {
    /// Most entries kept across all projects.
    public var maxEntries: Int
    /// Most stored body and header bytes kept across all projects.
    public var maxBytes: Int
    /// Bytes of each request and response body kept (the rest is cut; sizes are still recorded).
    public var bodyCaptureBytes: Int
    /// Whether requests are journalled at all.
    public var enabled: Bool
    /// Bytes of recorded exchanges (their bodies, and 1 KB each for the rest) that may wait to be
    /// written before requests wait for the journal to catch up.
    public var backlogBytes: Int

    /// Creates limits; defaults are 50,000 entries, 256 MiB and 64 KiB per body, and a 64 MiB backlog.
    public init(
        maxEntries: Int = 50_000, maxBytes: Int = 256 * 1024 * 1024, bodyCaptureBytes: Int = 64 * 1024, enabled: Bool = true,
        backlogBytes: Int = 64 * 1024 * 1024
    ) {
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        self.bodyCaptureBytes = bodyCaptureBytes
        self.enabled = enabled
        self.backlogBytes = backlogBytes
    }
}

/// The shared services every handler reaches through its context.
public final class EmulatorServices: Sendable {
    /// The database.
    public let database: any Database
    /// Where the request journal is kept: a SQLite file of its own next to a SQLite `database`
    /// (its commits would otherwise empty every reader's page cache and queue SDK writes behind
    /// them), or `database` itself (PostgreSQL, and tests).
    public let journalDatabase: any Database
    /// Where the journal keeps large bodies outside `journalDatabase` (next to a journal file of
    /// its own); nil keeps them in the database.
    public let journalBodyDirectory: String?
    /// Whether `journalDatabase` is a database of its own rather than `database` itself.
    public var journalHasOwnDatabase: Bool { journalDatabase.location != database.location }
    /// Per-project clocks.
    public let clocks: ClockStore
    /// Logging.
    public let logger: Logger
    /// Settings.
    public let settings: EmulatorSettings
    /// Side effects (mail, push, webhooks) recorded for tests to read.
    public let outbox: Outbox
    /// Every platform's credential → project lookups and per-project derived state (settings, link tables), with one invalidation rule.
    public let projectCache: ProjectStateCache
    /// SDK answers derived from the data, reused while the database has not changed.
    public let derivedAnswers: DerivedAnswers
    /// Names this instance in its announcements to others sharing the database, so it skips its own.
    public let instanceID = UUID().uuidString
    private let addressesValue = Mutex(ServerAddresses())
    private let generators = Mutex<[ProjectID: IDGenerator]>([:])
    private let rounds = Mutex<[String: Int]>([:])

    /// Creates the services.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(
        database: any Database, journalDatabase: (any Database)? = nil, journalBodyDirectory: String? = nil,
        logger: Logger = .silent, settings: EmulatorSettings = EmulatorSettings()
    ) {
        self.database = database
        self.journalDatabase = journalDatabase ?? database
        self.journalBodyDirectory = journalBodyDirectory
        self.clocks = ClockStore()
        self.logger = logger
        self.settings = settings
        self.outbox = Outbox(database: database)
        self.projectCache = ProjectStateCache()
        self.derivedAnswers = DerivedAnswers()
    }

    /// Counts one finished round of the background loop `loop` (a platform's worker tick), so a
    /// test can wait for rounds to have run instead of sleeping for as long as they might take.
    public func finishedBackgroundRound(_ loop: String) { rounds.withLock { $0[loop, default: 0] += 1 } }

    /// How many rounds of the background loop `loop` have finished since the server started.
    public func backgroundRounds(_ loop: String) -> Int { rounds.withLock { $0[loop] ?? 0 } }

    /// After a committed write that changed `project`'s cached state (nil: something global, or
    /// projects made or deleted): drops this instance's cached credentials of it and, on a shared
    /// database, tells the other instances, which resync theirs. A failed announcement is logged:
    /// the others catch up with the next one.
    public func projectChanged(_ project: ProjectID?) async {
        if let project { projectCache.invalidate(project: project) }
        guard database.isShared else { return }
        let payload = instanceID + " " + (project ?? "*")
        do {
            try await database.write { try $0.announce(payload) }
        } catch {
            logger.error("a change could not be announced to the other instances", [("error", String(describing: error))])
        }
    }

    /// Where the server listens, its other ports, the CA and the public URL (see the setters below).
    public var addresses: ServerAddresses {
        get { addressesValue.withLock { $0 } }
        set { addressesValue.withLock { $0 = newValue } }
    }

    /// The plain-HTTP URL a client on this machine uses, e.g. `http://127.0.0.1:8080` (not what
    /// is advertised to devices: see `advertisedEndpoints(for:)`).
    public var serverURL: String { addresses.localURL }

    /// Records the listen address and the bound plain-HTTP port (the server calls this once bound).
    public func setListening(host: String, port: Int) {
        addressesValue.withLock {
            $0.listenHost = host; $0.httpPort = port
        }
    }

    /// Records the bound HTTPS port, or nil when no TLS listener runs.
    public func setBoundHTTPSPort(_ port: Int?) { addressesValue.withLock { $0.httpsPort = port } }

    /// Records the bound intercepting-proxy port, or nil when the proxy is off.
    public func setBoundProxyPort(_ port: Int?) { addressesValue.withLock { $0.proxyPort = port } }

    /// Records the local CA's certificate file (PEM), or nil when there is none; also served at `/__admin/ca.pem`.
    public func setCACertificatePath(_ path: String?) { addressesValue.withLock { $0.caCertificatePath = path } }

    /// Records the configured public URL (nil: advertise what each request's `Host` says).
    public func setPublicURL(_ url: PublicURL?) { addressesValue.withLock { $0.publicURL = url } }

    /// What to advertise to the client of `request` (its `Host` and listener), or — with no
    /// request — what the banner prints: the public URL, else the listen address.
    public func advertisedEndpoints(for request: Request?) -> AdvertisedEndpoints {
        let addresses = self.addresses
        guard let request else { return addresses.advertised }
        return addresses.advertised(forHost: request.headers["host"], listener: request.connection.listener)
    }

    /// The project's current time.
    public func now(for project: ProjectID?) -> Date { clocks.now(for: project) }

    /// Runs `body` with the project's id generator: seeded projects get repeatable ids, others random ones.
    public func generateIDs<T>(for project: ProjectID?, _ body: (inout IDGenerator) -> T) -> T {
        guard let project else {
            var generator = IDGenerator()
            return body(&generator)
        }
        return generators.withLock { all in
            var generator = all[project] ?? IDGenerator()
            let result = body(&generator)
            all[project] = generator
            return result
        }
    }

    /// The project that was issued `value` as one of its `platform` credentials at creation (from
    /// `project_credentials`), or nil. Not cached here: callers go through `credentials`.
    public func project(forIssuedCredential value: String, platform: PlatformID) async throws -> ProjectID? {
        try await database.read { connection in
            try connection.scalar("SELECT project_id FROM project_credentials WHERE platform = ? AND value = ?", platform.rawValue, value).string
        }
    }

    /// Sets (or clears) the seeded generator of a project.
    public func setGenerator(_ generator: IDGenerator?, for project: ProjectID) {
        generators.withLock { $0[project] = generator }
    }
}
