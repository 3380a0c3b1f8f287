import Foundation
import PostgresStore
import Storage
import TestPostgres
import TestProcesses
import Testing

/// `understudy migrate` and `understudy serve` with a PostgreSQL `--database`, through the real
/// binary (`swift build` first): what they apply and print, and how a bad location fails.
@Suite("understudy with a PostgreSQL database")
struct CommandTests {
    private static let binary = TestPostgres.repository.appendingPathComponent(".build/debug/understudy").path

    private static func understudy(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ChildProcess {
        #expect(FileManager.default.isExecutableFile(atPath: binary), "build the package first: \(binary)")
        // The developer's own UNDERSTUDY_* and libpq PG* variables must not steer the test.
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") && !$0.key.hasPrefix("PG") }
        environment.merge(extra) { $1 }
        let migrations = ["--migrations", TestPostgres.repository.appendingPathComponent("Migrations").path]
        return try ChildProcess.run(binary, arguments + migrations, environment: environment)
    }

    private static let serveFlags = ["--port", "0", "--https-port", "0", "--proxy-port", "0", "--no-request-log"]

    @Test("migrate --database postgres://… applies the PostgreSQL migrations, then reports up to date")
    func migrateURL() throws {
        let ids = try Migration.files(in: Migrator.postgresDirectory(inside: TestPostgres.repository.appendingPathComponent("Migrations"))).map(\.id)
        try TestPostgres.withDatabase { location, name in
            let url = try TestPostgres.url(database: name)
            let first = try Self.understudy(["migrate", "--database", url])
            #expect(first.status == 0, "\(first.error)")
            #expect(first.standard == "applied: \(ids.joined(separator: ", "))\n")
            let second = try Self.understudy(["migrate", "--database", url.replacingOccurrences(of: "postgres://", with: "postgresql://")])
            #expect(second.status == 0, "\(second.error)")
            #expect(second.standard == "database is up to date\n")
            let connection = try PostgresConnection(location: location)
            #expect(try connection.queryOne("SELECT count(*) AS n FROM schema_migrations")?.int("n") == Int64(ids.count))
            #expect(try connection.queryOne("SELECT to_regclass('telematics_trips') IS NOT NULL AS present")?.int("present") == 1)
        }
    }

    @Test("a libpq keyword string in UNDERSTUDY_DATABASE selects PostgreSQL too")
    func migrateKeywords() throws {
        try TestPostgres.withDatabase { location, name in
            let keywords = "host=\(location.host) port=\(location.port) dbname=\(name) user=\(location.user) password='\(location.value("password") ?? "")'"
            let run = try Self.understudy(["migrate"], environment: ["UNDERSTUDY_DATABASE": keywords])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.standard.hasPrefix("applied: 0001_core"))
            // No SQLite file named after the keyword string appeared in the working directory.
            #expect(!FileManager.default.fileExists(atPath: keywords))
        }
    }

    @Test("the configuration file's database key selects PostgreSQL too")
    func configurationFile() throws {
        try TestPostgres.withDatabase { _, name in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-pg-\(UUID().uuidString).json")
            defer { try? FileManager.default.removeItem(at: file) }
            let url = try TestPostgres.url(database: name).replacingOccurrences(of: "postgres://", with: "postgresql://")
            try JSONSerialization.data(withJSONObject: ["database": url]).write(to: file)
            let run = try Self.understudy(["migrate", "--config", file.path])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.standard.hasPrefix("applied: 0001_core"))
        }
    }

    @Test("serve against a closed port: one line naming database, host and port, exit 1, no password")
    func closedPort() throws {
        let port = try Self.closedPort()
        let secret = "s3cr:et@pw"
        let url = "postgres://someone:\(secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)@127.0.0.1:\(port)/shop"
        let run = try Self.understudy(["serve", "--database", url] + Self.serveFlags)
        #expect(run.status == 1)
        let lines = run.error.split(separator: "\n")
        #expect(lines.count == 1, "\(run.error)")
        #expect(lines.first?.hasPrefix("understudy: cannot open PostgreSQL database \"shop\" on host 127.0.0.1:\(port): ") == true, "\(run.error)")
        #expect(run.error.contains("refused"), "\(run.error)")
        #expect(!run.error.contains(secret) && !run.error.contains("s3cr"), "\(run.error)")
        #expect(run.standard.isEmpty)
    }

    @Test("serve and migrate with a database that does not exist: one line with libpq's reason, exit 1")
    func wrongDatabase() throws {
        let url = try TestPostgres.url(database: "missing_\(UUID().uuidString.prefix(8).lowercased())")
        let location = try PostgresLocation(url)
        let password = try #require(location.value("password"))
        for command in ["serve", "migrate"] {
            let run = try Self.understudy([command, "--database", url] + (command == "serve" ? Self.serveFlags : []))
            #expect(run.status == 1)
            let lines = run.error.split(separator: "\n")
            #expect(lines.count == 1, "\(run.error)")
            #expect(lines.first?.hasPrefix("understudy: cannot open PostgreSQL database \"\(location.database)\" on host \(location.host):\(location.port): ") == true)
            #expect(run.error.contains("does not exist"), "\(run.error)")
            #expect(!run.error.contains(password))
        }
    }

    @Test("serve with a wrong password: refused, the password not printed")
    func wrongPassword() throws {
        let location = try PostgresLocation(TestPostgres.url(database: "postgres"))
        let wrong = "not-the-password-\(UUID().uuidString.prefix(6))"
        let url = "postgres://\(location.user):\(wrong)@\(location.host):\(location.port)/postgres"
        let run = try Self.understudy(["serve", "--database", url] + Self.serveFlags)
        #expect(run.status == 1)
        #expect(run.error.contains("password authentication failed"), "\(run.error)")
        #expect(!run.error.contains(wrong))
    }

    @Test("serve with a reachable PostgreSQL migrates it, serves the demo project from it, and stops cleanly on SIGTERM")
    func serves() throws {
        try TestPostgres.withDatabase { location, name in
            let port = try Self.closedPort()
            let url = try TestPostgres.url(database: name)
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") && !$0.key.hasPrefix("PG") }
            environment["UNDERSTUDY_DATABASE"] = url
            let migrations = TestPostgres.repository.appendingPathComponent("Migrations").path
            let server = try SpawnedProcess.start(
                Self.binary,
                [
                    "serve", "--port", String(port), "--https-port", "0", "--proxy-port", "0", "--no-request-log",
                    "--migrations", migrations, "--fixtures", TestPostgres.repository.appendingPathComponent("Config/fixtures").path,
                ],
                environment: environment)
            defer { if server.isRunning { server.send(SIGKILL) } }
            var projects = ""
            let deadline = Date().addingTimeInterval(30)
            while Date() < deadline, server.isRunning {
                let fetched = try ChildProcess.run("/usr/bin/env", ["curl", "-sf", "http://127.0.0.1:\(port)/__admin/projects/demo"], environment: environment)
                if fetched.status == 0 { projects = fetched.standard; break }
                Thread.sleep(forTimeInterval: 0.2)
            }
            #expect(projects.contains("\"id\":\"demo\""), "\(projects)")
            // The demo project's row is in PostgreSQL, not in a SQLite file.
            let connection = try PostgresConnection(location: location)
            #expect(try connection.queryOne("SELECT count(*) AS n FROM projects WHERE id = 'demo'")?.int("n") == 1)
            server.send(SIGTERM)
            let ended = server.collect()
            #expect(ended.status == 0, "\(ended.ending) \(ended.error)")
            #expect(!ended.error.contains((try? PostgresLocation(TestPostgres.serverURL()).value("password")) ?? "\u{0}"))
            #expect(!ended.standard.contains((try? PostgresLocation(TestPostgres.serverURL()).value("password")) ?? "\u{0}"))
        }
    }

    @Test("with a PostgreSQL database the local CA is the per-user one, or data/ when one is there; never a folder named after the URL")
    func certificateAuthorityFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-ca-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("UNDERSTUDY_") }
        environment["HOME"] = folder.appendingPathComponent("home").path
        environment["XDG_DATA_HOME"] = ""
        func caPath() throws -> ChildProcess {
            try ChildProcess.run(
                "/bin/sh",
                [
                    "-c", "cd \"$0\" && exec \"$@\"", folder.path, Self.binary, "ca", "path",
                    "--database", "postgres://someone:topsecret@127.0.0.1:1/shop",
                ], environment: environment)
        }
        let run = try caPath()
        #expect(run.status == 0, "\(run.error)")
        #expect(run.standard.hasPrefix(folder.appendingPathComponent("home").path), "\(run.standard)")
        #expect(!run.standard.contains("topsecret") && !run.error.contains("topsecret"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("postgres:").path))
        // A CA an earlier version made in data/ (the PostgreSQL database has no folder) keeps being used.
        _ = try ChildProcess.run(Self.binary, ["ca", "path", "--ca-dir", folder.appendingPathComponent("data").path], environment: environment)
        let kept = try caPath()
        #expect(kept.standard == folder.appendingPathComponent("data/understudy-ca.pem").path + "\n", "\(kept.standard)")
    }

    @Test("a malformed PostgreSQL URL is a usage error")
    func malformed() throws {
        let run = try Self.understudy(["migrate", "--database", "postgres://u:topsecret@h:notaport/db"])
        #expect(run.status == 2)
        #expect(run.error.contains("port"), "\(run.error)")
        #expect(!run.error.contains("topsecret"))
    }

    /// A loopback port nothing listens on: bound, then released (nothing else in the test binds it).
    private static func closedPort() throws -> Int {
        let child = try ChildProcess.run(
            "/usr/bin/env", ["python3", "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"],
            environment: ProcessInfo.processInfo.environment)
        return try #require(Int(child.standard.trimmingCharacters(in: .whitespacesAndNewlines)))
    }
}
