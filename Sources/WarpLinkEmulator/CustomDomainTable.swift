import EmulatorCore
import Foundation
import Storage
import Synchronization

/// Which project owns each custom domain, in memory: Host routing (`pathPrefix(forHost:)`) and
/// the identification of an unauthenticated short-link tap must answer before any handler runs,
/// and `pathPrefix(forHost:)` cannot reach the database. Reloaded from the store whenever the
/// domains may have changed.
public final class CustomDomainTable: Sendable {
    private let owners = Mutex<[String: ProjectID]>([:])
    private let source = Mutex<(any Database)?>(nil)

    /// An empty table.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init() {}

    /// The project owning custom domain `host`.
    public func owner(of host: String) -> ProjectID? { owners.withLock { $0[host] } }

    /// The whole table.
    public var all: [String: ProjectID] { owners.withLock { $0 } }

    /// Replaces the table.
    public func replace(with table: [String: ProjectID]) { owners.withLock { $0 = table } }

    /// Remembers the database later reloads read from (hooks such as `projectStateDidChange` get no services).
    public func attach(_ database: any Database) { source.withLock { $0 = database } }

    /// Reads the table again from the attached database; without one, drops `project`'s domains.
    public func reload(dropping project: ProjectID? = nil) async throws {
        guard let database = source.withLock({ $0 }) else {
            if let project { replace(with: all.filter { $0.value != project }) }
            return
        }
        replace(with: try await database.read { try WarpLinkStore(connection: $0).allDomainOwners() })
    }
}
