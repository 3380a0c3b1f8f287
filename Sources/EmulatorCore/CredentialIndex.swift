import Foundation
import Synchronization

/// A credential as a request presents it, before it is looked up.
public struct PresentedCredential: Sendable, Hashable {
    /// The platform's name for the kind (`sdkKey`, `apiKey`, `accessToken`, `developerKey`, …).
    public var kind: String
    /// The credential's value as sent.
    public var value: String

    /// A presented credential of `kind`.
    public init(kind: String, value: String) {
        self.kind = kind
        self.value = value
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

/// Every platform's credential → project lookups in one cache with one invalidation rule: any
/// change to a project's state (a control-plane write under `/__admin/projects/{id}`, a reset, a
/// snapshot restore, a deletion, or a platform saying so after an SDK call that changes
/// credentials) drops that project's entries. Unknown credentials are not cached, so a credential
/// created later is found at once.
public final class CredentialIndex: Sendable {
    private struct Key: Hashable {
        var platform: PlatformID
        var kind: String
        var value: String
    }

    private let entries = Mutex<[Key: CredentialRecord]>([:])

    /// An empty index.
    @inline(never) // classes with Mutex storage are allocated only by their own module (see docs/notes)
    public init() {}

    /// The record of `credential` on `platform`: from the cache, or from `load` (then cached).
    public func resolve(_ credential: PresentedCredential, platform: PlatformID,
                        load: (PresentedCredential) async throws -> CredentialRecord?) async throws -> CredentialRecord? {
        let key = Key(platform: platform, kind: credential.kind, value: credential.value)
        if let cached = entries.withLock({ $0[key] }) { return cached }
        guard let found = try await load(credential) else { return nil }
        entries.withLock { $0[key] = found }
        return found
    }

    /// Drops every cached credential of `project`.
    public func invalidate(project: ProjectID) {
        entries.withLock { all in all = all.filter { $0.value.project != project } }
    }

    /// Drops everything (after a restore that may have moved credentials between projects).
    public func invalidateAll() {
        entries.withLock { $0.removeAll() }
    }

    /// How many credentials are cached (for tests and metrics).
    public var count: Int { entries.withLock { $0.count } }
}
