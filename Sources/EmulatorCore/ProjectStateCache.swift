import Foundation
import Synchronization

/// A credential as a request presents it, before it is looked up.
public struct PresentedCredential: Sendable, Hashable {
    /// The platform's name for the kind (`sdkKey`, `apiKey`, `accessToken`, `developerKey`, …).
    public var kind: String
    /// The value the credential is looked up by: as sent, or the part of it that names the
    /// project (a tenant key inside a token).
    public var value: String
    /// The credential as the request carried it (the whole token when `value` is a part of it).
    public var sent: String
    /// Where the request carried it, named in the journal when it names no project (`unknown_credential`).
    public var carrier: Carrier?
    /// Whether it can name a project by itself. A credential read only within the project another
    /// one named (a user's token looked up under the project an app key named, an app secret
    /// checked against its app) cannot: a request that presents only such credentials is
    /// journalled as `no_credential`, not `unknown_credential`.
    public var namesProject: Bool

    /// Where a request carries a credential.
    public enum Carrier: Sendable, Hashable {
        /// A header, by the name the platform documents (`Authorization`, `X-API-Key`).
        case header(String)
        /// A field of the request body (`app_id`).
        case bodyField(String)
    }

    /// A presented credential of `kind`, looked up by `value` and sent as `sent` (default: `value`)
    /// in `carrier`.
    public init(kind: String, value: String, sent: String? = nil, carrier: Carrier? = nil, namesProject: Bool = true) {
        self.kind = kind
        self.value = value
        self.sent = sent ?? value
        self.carrier = carrier
        self.namesProject = namesProject
    }
}

/// A known credential: whose it is and what the platform's handlers need to know about it, so
/// they need not look it up again.
public struct CredentialRecord: Sendable {
    /// The project that owns it.
    public var project: ProjectID
    /// The platform's name for the kind (`sdkKey`, `apiKey`, `accessToken`, `developerKey`, …).
    public var kind: String
    /// The value.
    public var value: String
    /// The platform's own record of it (a key row with scopes and state, a token row), which
    /// its handlers read back with `details(as:)`.
    public var details: (any Sendable)?

    /// A record of `value` owned by `project`.
    public init(project: ProjectID, kind: String, value: String, details: (any Sendable)? = nil) {
        self.project = project
        self.kind = kind
        self.value = value
        self.details = details
    }

    /// The platform's record, when it is of type `type`.
    public func details<T>(as type: T.Type) -> T? { details as? T }
}

/// Every platform's credential → project lookups, and values platforms derive from a project's
/// stored state (its effective settings), in one cache with one invalidation rule: any change to
/// a project's state (a control-plane write under `/__admin/projects/{id}`, a reset, a snapshot
/// restore, a deletion, an import, or a platform saying so after an SDK call that changes
/// credentials) drops that project's entries. Unknown credentials are not cached, so a credential
/// created later is found at once.
///
/// A load that overlaps an invalidation is not cached: every invalidation bumps a generation, and
/// a loaded value is stored only if the generation did not move while it was being loaded, so a
/// request racing a control-plane write can never re-cache what the write replaced.
public final class ProjectStateCache: Sendable {
    private struct Key: Hashable {
        var platform: PlatformID
        var kind: String
        var value: String
    }

    private struct DerivedKey: Hashable {
        var project: ProjectID
        var name: String
    }

    private struct Entries {
        var credentials: [Key: CredentialRecord] = [:]
        var derived: [DerivedKey: any Sendable] = [:]
        var generation = 0
    }

    private let entries = Mutex(Entries())

    /// An empty index.
    @inline(never) // classes with Mutex storage are allocated only by their own module (see docs/notes)
    public init() {}

    /// The record of `credential` on `platform`: from the cache, or from `load` (then cached).
    public func resolve(
        _ credential: PresentedCredential, platform: PlatformID,
        load: (PresentedCredential) async throws -> CredentialRecord?
    ) async throws -> CredentialRecord? {
        let key = Key(platform: platform, kind: credential.kind, value: credential.value)
        let (cached, generation) = entries.withLock { ($0.credentials[key], $0.generation) }
        if let cached { return cached }
        guard let found = try await load(credential) else { return nil }
        entries.withLock { if $0.generation == generation { $0.credentials[key] = found } }
        return found
    }

    /// The value `name` derived from `project`'s state: cached, or made by `load` (then cached
    /// until the project's state changes). For per-request work such as resolving a platform's
    /// settings document, which profiles showed at an eighth of a request's cost.
    public func derived<T: Sendable>(_ name: String, project: ProjectID, load: () throws -> T) rethrows -> T {
        let key = DerivedKey(project: project, name: name)
        let (cached, generation) = entries.withLock { ($0.derived[key], $0.generation) }
        if let value = cached as? T { return value }
        let value = try load()
        entries.withLock { if $0.generation == generation { $0.derived[key] = value } }
        return value
    }

    /// `derived(_:project:load:)` for a value whose load reads the database asynchronously.
    public func derived<T: Sendable>(_ name: String, project: ProjectID, load: () async throws -> T) async rethrows -> T {
        let key = DerivedKey(project: project, name: name)
        let (cached, generation) = entries.withLock { ($0.derived[key], $0.generation) }
        if let value = cached as? T { return value }
        let value = try await load()
        entries.withLock { if $0.generation == generation { $0.derived[key] = value } }
        return value
    }

    /// Drops every cached credential and derived value of `project`.
    public func invalidate(project: ProjectID) {
        entries.withLock { all in
            all.generation += 1
            all.credentials = all.credentials.filter { $0.value.project != project }
            all.derived = all.derived.filter { $0.key.project != project }
        }
    }

    /// Drops everything (after a restore that may have moved credentials between projects).
    public func invalidateAll() {
        entries.withLock { all in
            all.generation += 1
            all.credentials.removeAll()
            all.derived.removeAll()
        }
    }

    /// How many credentials are cached (for tests and metrics).
    public var count: Int { entries.withLock { $0.credentials.count } }
}
