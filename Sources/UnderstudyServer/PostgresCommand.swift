import Foundation
import PostgresStore
import Storage

/// What `migrate` and `serve` do first when `--database` names PostgreSQL: read the location and
/// check that it can be reached, so a wrong one is one clear line and exit status 1.
enum PostgresCommand {
    /// The `--database` value read as SQLite or PostgreSQL; nil (after printing why) when it is
    /// PostgreSQL by its form but malformed.
    static func location(_ configuration: ServerConfiguration) -> DatabaseLocation? {
        do {
            return try DatabaseLocation(configuration.databasePath)
        } catch {
            UnderstudyCommand.printError("understudy: --database: \(UnderstudyCommand.text(of: error))")
            return nil
        }
    }

    /// One line naming the database, host and port, with libpq's reason; never the password.
    static func cannotOpen(_ location: PostgresLocation, _ message: String) -> String {
        "understudy: cannot open PostgreSQL database \"\(location.database)\" on host \(location.host):\(location.port): \(message)"
    }

    /// Connects, or prints `cannotOpen` and returns nil.
    static func connect(_ location: PostgresLocation) -> PostgresConnection? {
        do {
            return try PostgresConnection(location: location)
        } catch let error as PostgresError {
            UnderstudyCommand.printError(cannotOpen(location, error.message))
        } catch {
            UnderstudyCommand.printError("understudy: cannot open PostgreSQL database \"\(location.database)\": \(UnderstudyCommand.text(of: error))")
        }
        return nil
    }

    /// `understudy migrate` on PostgreSQL: applies `Migrations/postgres/` and prints what it applied.
    static func migrate(_ location: PostgresLocation, _ configuration: ServerConfiguration) -> Int32 {
        guard let connection = connect(location) else { return 1 }
        do {
            let folder = Migrator.postgresDirectory(inside: try Migrator.locateDirectory(configured: configuration.migrationsPath))
            let applied = try Migrator(directory: folder).migrate(PostgresStoreConnection(connection))
            print(applied.isEmpty ? "database is up to date" : "applied: \(applied.joined(separator: ", "))")
            return 0
        } catch let error as StoreUnavailableError {
            UnderstudyCommand.printError(cannotOpen(location, error.reason))
        } catch {
            UnderstudyCommand.printError("understudy: migrate failed: \(UnderstudyCommand.text(of: error))")
        }
        return 1
    }
}
