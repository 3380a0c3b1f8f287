import Foundation
import PostgresStore

/// A throwaway PostgreSQL database for one test server, on the server `UNDERSTUDY_TEST_DATABASE`
/// names: created empty (the test server migrates it as any server does) and dropped at stop.
struct ScratchDatabase: Sendable {
    /// The environment variable that selects PostgreSQL for test servers.
    static let variable = "UNDERSTUDY_TEST_DATABASE"

    /// The maintenance database's location (where `CREATE DATABASE` runs).
    let server: PostgresLocation
    /// The scratch database's name.
    let name: String
    /// Its URL, as `--database` takes it.
    let url: String

    /// A fresh database when the variable names PostgreSQL; nil when it is unset or empty (SQLite files).
    static func fromEnvironment() throws -> ScratchDatabase? {
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else { return nil }
        let lowered = value.lowercased()
        guard lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://"), let scheme = value.range(of: "://"),
            let slash = value[scheme.upperBound...].firstIndex(of: "/")
        else {
            throw ScratchDatabaseError(description: "\(variable) must be a postgres:// URL ending in a database name (…/postgres)")
        }
        let server = try PostgresLocation(value)
        let name = "understudy_t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        let query = value[slash...].firstIndex(of: "?").map { String(value[$0...]) } ?? ""
        let url = String(value[...slash]) + name + query
        let admin = try PostgresConnection(location: server)
        try admin.executeScript("CREATE DATABASE \(name)")
        return ScratchDatabase(server: server, name: name, url: url)
    }

    /// Drops the database, closing what still uses it; a failure only leaves litter on a throwaway cluster.
    func drop() {
        guard let admin = try? PostgresConnection(location: server) else { return }
        try? admin.executeScript("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}

/// `UNDERSTUDY_TEST_DATABASE` holds something other than a PostgreSQL URL.
struct ScratchDatabaseError: Error, CustomStringConvertible {
    let description: String
}
