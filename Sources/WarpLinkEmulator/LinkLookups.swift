import EmulatorCore
import Foundation
import Synchronization

/// One project's links as resolve and the redirect find them by domain and slug, whether each
/// domain is served, and each link's resolve answer when the tap carried no parameters, kept
/// between requests: the link's read and row decoding were a twelfth of a resolve, and reshaping
/// and encoding the answer another twelfth, in the writer's turn. Links, apps and domains change
/// only through the control plane, an import, a reset or a restore, and each of those drops the
/// project's `ProjectStateCache` entries once it has committed, this object with them
/// (`cached(for:in:)`). What depends on the clock (expiry) or the request (the app, the
/// password) is still decided per request.
///
/// A caller takes this object before it reads: a read that could still see the state before a
/// change can then only fill an object the change has already dropped. Misses are not kept, so
/// a link created later is found at once. At most `capacity` links are kept; a full object starts over.
final class LinkLookups: Sendable {
    /// At most this many links are kept per project.
    static let capacity = 4096

    private struct Entries {
        var links: [String: LinkRecord] = [:]
        var served: [String: Bool] = [:]
        var untapped: [String: UntappedAnswer] = [:]
    }

    /// A link reshaped with no tapped parameters, and the resolve answer's bytes.
    struct UntappedAnswer: Sendable {
        /// The URLs and parameters the click records.
        var shaped: ReshapedLink
        /// The encoded `Link` object.
        var body: Data
    }

    private let entries = Mutex(Entries())

    @inline(never) // classes with Mutex storage are allocated only by their own module (see docs/notes)
    init() {}

    /// The project's lookups, from the project state cache (made when the project has none).
    static func cached(for project: ProjectID, in cache: ProjectStateCache) -> LinkLookups {
        cache.derived("warplink.links", project: project) { LinkLookups() }
    }

    /// The link on `domain` with `slug`: kept, or from `load` (kept when found).
    func link(domain: String, slug: String, load: () throws -> LinkRecord?) rethrows -> LinkRecord? {
        try kept(\.links, domain + "\u{1F}" + slug, load: load)
    }

    /// Whether links on `domain` are served: kept, or from `load` (then kept).
    func isServed(domain: String, load: () throws -> Bool) rethrows -> Bool {
        try kept(\.served, domain, load: load) ?? false // `load` never answers nil
    }

    /// `link`'s answer to a resolve without tapped parameters, keyed by its id: kept, or from
    /// `make` (then kept). Reshaping depends only on the link and the tapped parameters, and the
    /// object is dropped with any change to the project's links.
    func untappedAnswer(for link: LinkRecord, make: () -> UntappedAnswer) -> UntappedAnswer {
        kept(\.untapped, link.id, load: make) ?? make() // `make` never answers nil
    }

    /// The value under `key` in the table at `table`: kept, or from `load` (kept unless nil). A
    /// full table starts over.
    private func kept<Value: Sendable>(
        _ table: WritableKeyPath<Entries, [String: Value]>, _ key: String,
        load: () throws -> Value?
    ) rethrows -> Value? {
        if let value = entries.withLock({ $0[keyPath: table][key] }) { return value }
        guard let loaded = try load() else { return nil }
        entries.withLock { all in
            if all[keyPath: table].count >= Self.capacity { all[keyPath: table].removeAll(keepingCapacity: true) }
            all[keyPath: table][key] = loaded
        }
        return loaded
    }
}
