import COpenSSL
import Dispatch
import EmulatorCore
import Foundation
import HTTPServer
import PostgresStore
import Storage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `understudy` command line: `serve` (default), `migrate`, `healthcheck`, `ca`, the control
/// commands (`projects`, `journal`, `faults`, `clock`, `findings`), `help [COMMAND]` (and each command's
/// `--help`, `CommandHelp`), `--version`.
public enum UnderstudyCommand {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    static let usage = """
        Usage: understudy [serve] [options]
               understudy migrate [--database PATH] [--migrations PATH]
               understudy healthcheck [--host HOST] [--port PORT]
               understudy ca export [--format pem|der] [--output FILE] | ca path | ca reset  [--ca-dir PATH]
               understudy projects|journal|devices|faults|clock|findings …   a running server's control plane
               understudy help COMMAND | understudy COMMAND --help   one command's flags, with examples
               understudy --help | --version

        Serves local stand-ins for the WarpLink, Asleep, WarrantyLife and Sentilant Telematics backends.

        \(CommandHelp.serveOptions)
        """

    /// Runs the command line and returns the process exit code.
    public static func main(_ arguments: [String], environment: [String: String] = ProcessInfo.processInfo.environment) async -> Int32 {
        // Before any other OpenSSL call, which would register OpenSSL's exit handler: it frees
        // libcrypto's state while Dispatch threads (a TLS or libpq connection closing) may still be
        // inside it, and a server stopped by SIGTERM once crashed there after logging "stopped".
        // The process is ending; nothing needs freeing.
        OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
        var arguments = Array(arguments.dropFirst())
        var command = "serve"
        var named = false
        if let first = arguments.first, !first.hasPrefix("-") {
            command = first
            arguments.removeFirst()
            named = true
        }
        guard CommandHelp.commands.contains(command) else {
            printError("understudy: unknown command `\(command)`\n\n\(usage)")
            return 2
        }
        if command == "help" { return help(arguments) }
        // Help is looked for before anything runs: `ca reset --help` explains reset and does not reset.
        if arguments.contains("--help") || arguments.contains("-h") {
            print(named ? CommandHelp.text(for: command) ?? usage : usage)
            return 0
        }
        // The control commands talk to a running server and have flags of their own.
        if ControlCommandLine.groups.contains(command) { return await ControlCommand.run([command] + arguments, environment: environment) }
        if arguments.contains("--version") || command == "version" {
            print("understudy \(version)")
            return 0
        }
        // `ca` has verbs and flags of its own before the shared ones.
        if command == "ca" { return CertificateAuthorityCommand.run(arguments, environment: environment) }
        let configuration: ServerConfiguration
        do {
            configuration = try parse(arguments, environment: environment)
            // A value that cannot work (a bad public URL, say) is a usage error, not a failed start.
            if command == "serve" { try configuration.validate() }
        } catch let error as ConfigurationError {
            printError("understudy: \(error.description)\n\n\(usage)")
            return 2
        } catch {
            printError("understudy: \(ErrorText.of(error))")
            return 2
        }
        // A PostgreSQL --database takes its own path through serve and migrate (PostgresCommand).
        if command == "serve" || command == "migrate" {
            guard let location = PostgresCommand.location(configuration) else { return 2 }
            if case .postgres(let postgres) = location {
                // A wrong location is reported as such (host and database, never the password) before anything starts.
                if command == "migrate" { return PostgresCommand.migrate(postgres, configuration) }
                guard PostgresCommand.connect(postgres) != nil else { return 1 }
            }
        }
        switch command {
        case "serve": return await serve(configuration)
        case "migrate": return migrate(configuration)
        default: return await healthcheck(configuration)
        }
    }

    /// `understudy help [COMMAND]`: the overview, or one command's help.
    private static func help(_ arguments: [String]) -> Int32 {
        let named = arguments.filter { $0 != "--help" && $0 != "-h" }
        guard let name = named.first else {
            // `help --help` explains `help`; `help` alone is the overview.
            print(arguments.isEmpty ? usage : CommandHelp.help)
            return 0
        }
        guard named.count == 1, let text = CommandHelp.text(for: name) else {
            printError("understudy: `help` takes one command name: \(CommandHelp.commands.joined(separator: ", ")); not `\(named.joined(separator: " "))`")
            return 2
        }
        print(text)
        return 0
    }

    /// Builds the configuration from defaults, the config file, the environment and the flags.
    public static func parse(_ arguments: [String], environment: [String: String]) throws -> ServerConfiguration {
        var configuration = ServerConfiguration()
        // The config path itself may come from flags or environment, so find it first.
        if let path = environment["UNDERSTUDY_CONFIG"] { configuration.configPath = path; configuration.configPathExplicit = true }
        if let index = arguments.firstIndex(of: "--config") {
            guard index + 1 < arguments.count else { throw ConfigurationError(description: "--config needs a value") }
            configuration.configPath = arguments[index + 1]
            configuration.configPathExplicit = true
        }
        if let data = FileManager.default.contents(atPath: configuration.configPath) {
            let json: JSONValue
            do { json = try JSONValue.parse(data) } catch {
                throw ConfigurationError(description: "\(configuration.configPath) is not valid JSON")
            }
            try configuration.apply(file: json)
        } else if configuration.configPathExplicit {
            throw ConfigurationError(description: "configuration file \(configuration.configPath) not found")
        }
        try configuration.apply(environment: environment)

        var index = 0
        func value(_ flag: String) throws -> String {
            index += 1
            guard index < arguments.count else { throw ConfigurationError(description: "\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let flag = arguments[index]
            switch flag {
            case "--host": configuration.host = try value(flag)
            case "--port": configuration.port = try configuration.parseInt(try value(flag), flag)
            case "--database": configuration.databasePath = try value(flag)
            case "--config": _ = try value(flag)
            case "--migrations": configuration.migrationsPath = try value(flag)
            case "--fixtures": configuration.fixturesPath = try value(flag)
            case "--seed-dir": configuration.seedDirectory = try value(flag)
            case "--seed-skip-invalid": configuration.seedSkipInvalid = true
            case "--export-on-exit": configuration.exportOnExitDirectory = try value(flag)
            case "--ready-file": configuration.readyFile = try value(flag)
            case "--log-format": configuration.logFormat = try configuration.logFormatValue(try value(flag))
            case "--no-request-log": configuration.logRequests = false
            case "--admin-token": configuration.adminToken = try value(flag)
            case "--header-timeout": configuration.headerTimeout = try configuration.parseDouble(try value(flag), flag)
            case "--idle-timeout": configuration.idleTimeout = try configuration.parseDouble(try value(flag), flag)
            case "--max-body-bytes": configuration.maxBodyBytes = try configuration.parseInt(try value(flag), flag)
            case "--no-journal": configuration.journal.enabled = false
            case "--no-checks": configuration.checks = false
            case "--https-port": configuration.httpsPort = try configuration.parseInt(try value(flag), flag)
            case "--no-https": configuration.httpsPort = nil
            case "--proxy-port": configuration.proxyPort = try configuration.parseInt(try value(flag), flag)
            case "--no-proxy": configuration.proxyPort = nil
            case "--proxy-mode": configuration.proxyMode = try configuration.proxyModeValue(try value(flag))
            case "--proxy-allow-private": configuration.proxyAllowPrivate = true
            case "--proxy-password": configuration.proxyPassword = try value(flag)
            case "--public-url": configuration.publicURL = try value(flag)
            case "--ca-dir": configuration.caDirectory = try value(flag)
            case "--event-loop": configuration.eventLoop = try configuration.eventLoopValue(try value(flag))
            case "--allowed-host": configuration.allowedHosts.append(try value(flag))
            default: throw ConfigurationError(description: "unknown option \(flag)")
            }
            index += 1
        }
        return configuration
    }

    private static func serve(_ configuration: ServerConfiguration) async -> Int32 {
        let started = MonotonicClock.nanoseconds()
        HeapSetup.apply()
        // Signals arrive on a Dispatch source so the handler may do real work (not async-signal-safe
        // code). Installed before anything starts: a SIGTERM during start-up (a supervisor giving
        // up early) is kept until the server is up, then stops it cleanly instead of killing it.
        let stop = AsyncStream<Int32>.makeStream()
        signal(SIGTERM, SIG_IGN)
        signal(SIGINT, SIG_IGN)
        let signalQueue = DispatchQueue(label: "understudy.signals")
        let sources = [SIGTERM, SIGINT].map { number -> DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: signalQueue)
            source.setEventHandler { stop.continuation.yield(number) }
            source.resume()
            return source
        }
        // A file left by an earlier run must not pass for this one's.
        if let path = configuration.readyFile { try? FileManager.default.removeItem(atPath: path) }
        let server: UnderstudyServer
        do {
            server = try UnderstudyServer(configuration: configuration)
            try await server.start()
        } catch {
            if configuration.logFormat == .json {
                Logger(format: .json).error("cannot start", [("error", ErrorText.of(error))])
            } else {
                printError("understudy: cannot start: \(ErrorText.of(error))")
            }
            return 1
        }
        let logger = server.emulator.services.logger
        logger.log(
            .info, "understudy \(version) listening",
            values: [
                ("url", .string(server.url)), ("database", .string((try? DatabaseLocation(configuration.databasePath))?.redactedDescription ?? configuration.databasePath)),
                ("readyMs", .double((MonotonicClock.millisecondsSince(started) * 10).rounded() / 10)),
            ])
        if let httpsURL = server.httpsURL { logger.log(.info, "HTTPS listening", values: [("url", .string(httpsURL))]) }
        if let caPath = server.caCertificatePath { logger.log(.info, "local CA", values: [("certificate", .string(caPath))]) }
        if let proxyPort = server.proxyPort {
            let proxy = server.emulator.services.settings
            logger.log(
                .info, "proxy listening",
                values: [
                    ("port", .int(Int64(proxyPort))), ("mode", .string(configuration.proxyMode.rawValue)),
                    ("passthrough", .string(proxy.proxy.effectiveMode(listensBeyondLoopback: proxy.listensBeyondLoopback))),
                    ("password", .bool(proxy.proxy.password != nil)),
                ])
        }
        if let seeds = server.seedReport, let directory = configuration.seedDirectory {
            logger.log(
                .info, "seeded projects",
                values: [
                    ("directory", .string(directory)), ("projects", .array(seeds.imported.map(JSONValue.string))),
                    ("replaced", .array(seeds.replaced.map(JSONValue.string))), ("skipped", .array(seeds.skipped.map(JSONValue.string))),
                ])
        }
        if let directory = configuration.exportOnExitDirectory { logger.log(.info, "bundles are written at exit", values: [("directory", .string(directory))]) }
        if !server.appliedMigrations.isEmpty { logger.log(.info, "applied migrations", values: [("ids", .array(server.appliedMigrations.map(JSONValue.string)))]) }
        await printDemo(server, logger: logger)
        if let path = configuration.readyFile {
            do {
                try AtomicFile.write(ReadyFile.contents(of: server), to: path)
            } catch {
                logger.log(.error, "cannot write the ready file", values: [("error", .string(error.description))])
                await server.stop()
                return 1
            }
        }
        let trimmer = IdleMemoryTrimmer { before, after in
            guard let before, let after else { return }
            logger.log(.debug, "returned freed memory", values: [("rssBeforeKB", .int(Int64(before / 1024))), ("rssAfterKB", .int(Int64(after / 1024)))])
        }

        for await number in stop.stream {
            logger.log(
                .info, "shutting down",
                values: [
                    ("signal", .string(number == SIGTERM ? "SIGTERM" : "SIGINT")),
                    ("inFlight", .int(Int64(server.http.requestsInFlight))),
                ])
            break
        }
        trimmer.cancel()
        await server.stop()
        if let path = configuration.readyFile { try? FileManager.default.removeItem(atPath: path) } // gone or never written: nothing to undo
        for source in sources { source.cancel() }
        logger.info("stopped")
        return 0
    }

    private static func printDemo(_ server: UnderstudyServer, logger: Logger) async {
        // The banner is a convenience: a failed read leaves the projects out of it, never the addresses.
        let projects = (try? await server.emulator.projects.list()) ?? []
        let addresses = server.emulator.services.addresses
        var banner = StartupBanner(
            projects: projects, platforms: server.emulator.platforms, addresses: addresses,
            lanAddresses: addresses.listensOnEveryInterface ? LANAddresses.ipv4() : [])
        banner.caSource = server.caLocationSource
        if logger.format == .json {
            // JSON logs stay machine-readable: the banner is one object, not a text block.
            logger.log(.info, projects.contains(where: \.isDemo) ? "demo project ready" : "ready", values: banner.fields)
        } else {
            printError(banner.text)
        }
    }

    private static func migrate(_ configuration: ServerConfiguration) -> Int32 {
        do {
            let database = try SQLiteDatabase(path: configuration.databasePath, readerCount: 1)
            let journal = try UnderstudyServer.openJournalFile(besides: configuration.databasePath)
            let directory = try Migrator.locateDirectory(configured: configuration.migrationsPath)
            let migrator = try Migrator(directory: directory), journalMigrator = try Migrator(directory: Migrator.journalDirectory(inside: directory))
            let applied =
                try database.withWriterBlocking { try migrator.migrate($0) }
                + journal.withWriterBlocking { try journalMigrator.migrate($0) }.map { "journal/" + $0 }
            print(applied.isEmpty ? "database is up to date" : "applied: \(applied.joined(separator: ", "))")
            return 0
        } catch {
            printError("understudy: migrate failed: \(ErrorText.of(error))")
            return 1
        }
    }

    /// Exit 0 when a server answers `/__admin/ready` with 200 (for Docker healthchecks without curl).
    private static func healthcheck(_ configuration: ServerConfiguration) async -> Int32 {
        let host = ["0.0.0.0", "::", "[::]"].contains(configuration.host) ? "127.0.0.1" : configuration.host
        guard let status = HealthProbe.status(host: host, port: configuration.port, path: "/__admin/ready", timeout: 3) else {
            printError("understudy: no answer from \(host):\(configuration.port)")
            return 1
        }
        if status == 200 { print("ready"); return 0 }
        printError("understudy: /__admin/ready answered \(status)")
        return 1
    }

    /// An error as the command line prints it: its description, never its fields (`ErrorText`);
    /// for the files that import the client library, whose names would clash with EmulatorCore's.
    static func text(of error: any Error) -> String { ErrorText.of(error) }

    static func printError(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
