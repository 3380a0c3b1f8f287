import EmulatorCore
import Foundation
import Testing
import UnderstudyServer

@Suite("Command line and configuration")
struct CommandLineTests {
    private func configFile(_ json: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-config-\(UUID().uuidString).json").path
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("flags beat environment, which beats the configuration file, which beats the defaults")
    func precedence() throws {
        let file = try configFile(#"{"port": 7000, "host": "127.0.0.1", "database": "from-file.sqlite", "logFormat": "json", "journal": {"maxEntries": 10}}"#)
        let fromFile = try UnderstudyCommand.parse(["--config", file], environment: [:])
        #expect(fromFile.port == 7000 && fromFile.databasePath == "from-file.sqlite" && fromFile.logFormat == .json && fromFile.journal.maxEntries == 10)
        let fromEnvironment = try UnderstudyCommand.parse(["--config", file], environment: ["UNDERSTUDY_PORT": "7100", "UNDERSTUDY_DATABASE": "env.sqlite"])
        #expect(fromEnvironment.port == 7100 && fromEnvironment.databasePath == "env.sqlite")
        let fromFlags = try UnderstudyCommand.parse(["--config", file, "--port", "7200"], environment: ["UNDERSTUDY_PORT": "7100"])
        #expect(fromFlags.port == 7200 && fromFlags.databasePath == "from-file.sqlite")
        let empty = try configFile("{}")
        let defaults = try UnderstudyCommand.parse(["--config", empty], environment: [:])
        #expect(defaults.host == "127.0.0.1" && defaults.port == 8080 && defaults.databasePath == "data/understudy.sqlite")
    }

    @Test("unknown flags, bad values and an explicit missing config file are usage errors (exit 2)")
    func usageErrors() async throws {
        #expect(await UnderstudyCommand.main(["understudy", "--frobnicate"], environment: [:]) == 2)
        #expect(await UnderstudyCommand.main(["understudy", "--port", "eighty"], environment: [:]) == 2)
        #expect(await UnderstudyCommand.main(["understudy", "--config", "/nonexistent/understudy.json"], environment: [:]) == 2)
        #expect(await UnderstudyCommand.main(["understudy", "explode"], environment: [:]) == 2)
        #expect(await UnderstudyCommand.main(["understudy", "--version"], environment: [:]) == 0)
        #expect(await UnderstudyCommand.main(["understudy", "--help"], environment: [:]) == 0)
        let badFile = try configFile(#"{"prot": 1}"#)
        #expect(throws: ConfigurationError.self) { _ = try UnderstudyCommand.parse(["--config", badFile], environment: [:]) }
    }

    @Test("listening off loopback without an admin token refuses to start")
    func adminTokenRequired() throws {
        var configuration = ServerConfiguration()
        configuration.host = "0.0.0.0"
        configuration.databasePath = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString).sqlite").path
        #expect(throws: ConfigurationError.self) { _ = try UnderstudyServer(configuration: configuration) }
        #expect(!FileManager.default.fileExists(atPath: configuration.databasePath))
        configuration.adminToken = "t0ken"
        configuration.port = 0
        configuration.proxyPort = nil // nothing here listens; and no CA in the shared temporary folder
        #expect(throws: Never.self) { _ = try UnderstudyServer(configuration: configuration) }
    }

    @Test("an admin token of white space only is refused at start, like an empty one off loopback")
    func blankAdminToken() throws {
        for blank in [" ", "\t", "  \n "] {
            var configuration = ServerConfiguration()
            configuration.adminToken = blank
            configuration.port = 0
            configuration.databasePath = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString).sqlite").path
            #expect(throws: ConfigurationError.self) { _ = try UnderstudyServer(configuration: configuration) }
            #expect(!FileManager.default.fileExists(atPath: configuration.databasePath))
        }
    }

    @Test("`understudy migrate` applies migrations to a fresh file and is idempotent")
    func migrate() async throws {
        let database = FileManager.default.temporaryDirectory.appendingPathComponent("migrate-\(UUID().uuidString)/db.sqlite").path
        #expect(await UnderstudyCommand.main(["understudy", "migrate", "--database", database], environment: [:]) == 0)
        #expect(FileManager.default.fileExists(atPath: database))
        #expect(await UnderstudyCommand.main(["understudy", "migrate", "--database", database], environment: [:]) == 0)
    }

    @Test("`understudy healthcheck` exits 0 against a ready server and 1 when nothing listens")
    func healthcheck() async throws {
        let server = try await UnderstudyTestServerHandle.start()
        let port = String(server.http.port)
        #expect(await UnderstudyCommand.main(["understudy", "healthcheck", "--port", port], environment: [:]) == 0)
        await server.stop()
        let closed = try ReservedClosedPort()
        defer { closed.release() }
        #expect(await UnderstudyCommand.main(["understudy", "healthcheck", "--port", String(closed.port)], environment: [:]) == 1)
    }
}

/// A bare `UnderstudyServer` on port 0 (the command-line tests need the server, not the client).
enum UnderstudyTestServerHandle {
    static func start() async throws -> UnderstudyServer {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.httpsPort = nil
        configuration.proxyPort = nil // parallel tests must not fight over 8888
        configuration.fixturesPath = ""
        configuration.logRequests = false
        configuration.databasePath = FileManager.default.temporaryDirectory.appendingPathComponent("hc-\(UUID().uuidString)/db.sqlite").path
        let server = try UnderstudyServer(configuration: configuration, logger: .silent)
        try await server.start()
        return server
    }
}
