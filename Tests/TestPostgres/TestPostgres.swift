// swift-format-ignore-file: AmbiguousTrailingClosureOverload

import Foundation
import PostgresStore
import Storage
import TestProcesses

/// The PostgreSQL server the tests use: `UNDERSTUDY_TEST_POSTGRES_URL` (CI's cluster), or else a
/// throwaway cluster started once per test process by `.ci/postgres.sh` and stopped when the
/// process ends. With no PostgreSQL binaries the tests fail, saying to install postgresql.
public enum TestPostgres {
    /// The package root (Tests/TestPostgres/TestPostgres.swift → three levels up).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// No PostgreSQL server could be found or started.
    public struct Unavailable: Error, CustomStringConvertible {
        /// Why.
        public let description: String
        /// Creates the error.
        public init(description: String) { self.description = description }
    }

    /// The server's URL (user, password, loopback host and port; database `postgres`).
    public static func serverURL() throws -> String { try server.get() }

    private static let server: Result<String, Unavailable> = {
        if let url = ProcessInfo.processInfo.environment["UNDERSTUDY_TEST_POSTGRES_URL"], !url.isEmpty { return .success(url) }
        do {
            let script = repository.appendingPathComponent(".ci/postgres.sh").path
            // --watch: the script stops the cluster itself once this test process is gone, crashed or not.
            let child = try ChildProcess.run(
                "/bin/bash", [script, "start", "--watch", String(getpid())],
                environment: ProcessInfo.processInfo.environment)
            guard child.status == 0 else {
                let hint = child.status == 3 ? "" : " (is postgresql installed? Debian: apt-get install postgresql)"
                return .failure(Unavailable(description: "cannot start a test PostgreSQL cluster\(hint): \(child.error)"))
            }
            for line in child.standard.split(separator: "\n") where line.hasPrefix("export UNDERSTUDY_TEST_POSTGRES_URL=") {
                return .success(String(line.dropFirst("export UNDERSTUDY_TEST_POSTGRES_URL=".count)))
            }
            return .failure(Unavailable(description: "postgres.sh printed no URL: \(child.standard) \(child.error)"))
        } catch {
            return .failure(Unavailable(description: "cannot run .ci/postgres.sh: \(error)"))
        }
    }()

    /// The server's URL with `database` in place of its database name.
    public static func url(database: String) throws -> String {
        let url = try serverURL()
        guard let slash = url.range(of: "/", options: .backwards), !url[..<slash.lowerBound].hasSuffix("/") else { return url + "/" + database }
        let query = url[slash.upperBound...].firstIndex(of: "?").map { String(url[$0...]) } ?? ""
        return String(url[..<slash.upperBound]) + database + query
    }

    /// A connection to the server's maintenance database.
    public static func adminConnection() throws -> PostgresConnection {
        try PostgresConnection(location: PostgresLocation(serverURL()))
    }

    /// Runs `body` with a database of its own (random name), dropped afterwards, so tests run in parallel.
    public static func withDatabase<T>(_ body: (_ location: PostgresLocation, _ name: String) throws -> T) throws -> T {
        let name = "understudy_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let admin = try adminConnection()
        try admin.executeScript("CREATE DATABASE \(name)")
        defer { try? admin.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
        return try body(try PostgresLocation(url(database: name)), name)
    }

    /// `withDatabase` for async bodies: the database's URL (as `--database` takes it), dropped afterwards.
    /// Starting the cluster (seconds, once per process), creating and dropping the database all wait
    /// on other processes, so they run on a thread of their own: blocked, a thread of the concurrency
    /// pool (as many as cores) stalls every other async test in the process until their requests time out.
    public static func withDatabase<T>(_ body: (_ url: String) async throws -> T) async throws -> T {
        let name = "understudy_test_" + String(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16))
        let address = try await offPool { () throws -> String in
            try adminConnection().executeScript("CREATE DATABASE \(name)")
            return try url(database: name)
        }
        let result: T
        do {
            result = try await body(address)
        } catch {
            await drop(name)
            throw error
        }
        await drop(name)
        return result
    }

    private static func drop(_ name: String) async {
        _ = try? await offPool { try adminConnection().executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)") }
    }

    /// Runs blocking `work` on a thread of its own and waits for it without holding a pool thread.
    private static func offPool<R: Sendable>(_ work: @escaping @Sendable () throws -> R) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in Thread { continuation.resume(with: Result { try work() }) }.start() }
    }

    /// `withDatabase` with a connection to it already open.
    public static func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try withDatabase { location, _ in try body(try PostgresConnection(location: location)) }
    }
}

extension Migrator {
    /// Applies pending migrations over a bare libpq connection, as the stores' connection would.
    @discardableResult
    public func migrate(_ connection: PostgresConnection) throws -> [String] { try migrate(PostgresStoreConnection(connection)) }

    /// Ids of migrations not yet applied, over a bare libpq connection.
    public func pending(_ connection: PostgresConnection) throws -> [String] { try pending(PostgresStoreConnection(connection)) }
}
