import EmulatorCore
import Foundation
import Synchronization

/// In-memory state shared by every copy of the platform value: which project a key or custom
/// domain belongs to (the request path needs both before any handler runs), and the per-key
/// request windows behind the rate-limit headers.
public final class WarpLinkState: Sendable {
    private let keyOwners = Mutex<[String: ProjectID]>([:])
    private let domainOwners = Mutex<[String: ProjectID]>([:])
    private let windows = Mutex<[String: [Double]]>([:])
    private let servicesBox = Mutex<EmulatorServices?>(nil)

    /// The services, once the platform has started (hooks without a context reach the database through them).
    public var services: EmulatorServices? {
        get { servicesBox.withLock { $0 } }
        set { servicesBox.withLock { $0 = newValue } }
    }

    /// Settings a project has until it changes them (the configuration's `warplink.settings`).
    public let defaultSettings: MatchingSettings
    /// The project unknown well-formed keys are provisioned into ([W-K1] alternative), if any.
    public let autoProvisionProject: ProjectID?

    /// Empty state with the server-wide defaults.
    @inline(never) // see Database.init: classes with Atomic/Mutex storage are allocated in their own module
    public init(defaultSettings: MatchingSettings = MatchingSettings(), autoProvisionProject: ProjectID? = nil) {
        self.defaultSettings = defaultSettings
        self.autoProvisionProject = autoProvisionProject
    }

    /// The cached project of a key value.
    public func project(forKey value: String) -> ProjectID? { keyOwners.withLock { $0[value] } }

    /// Remembers a key's project.
    public func remember(key value: String, project: ProjectID) { keyOwners.withLock { $0[value] = project } }

    /// Forgets a key (deleted).
    public func forget(key value: String) { keyOwners.withLock { _ = $0.removeValue(forKey: value) } }

    /// Drops everything cached about a project.
    public func forget(project: ProjectID) {
        keyOwners.withLock { cache in cache = cache.filter { $0.value != project } }
    }

    /// The project owning custom domain `host`.
    public func project(forDomain host: String) -> ProjectID? { domainOwners.withLock { $0[host] } }

    /// The custom-domain table.
    public func domains() -> [String: ProjectID] { domainOwners.withLock { $0 } }

    /// Replaces the custom-domain table (after load, reset, restore, domain changes).
    public func setDomains(_ owners: [String: ProjectID]) { domainOwners.withLock { $0 = owners } }

    /// Records a request by `bucket` at `now` and returns (remaining, reset epoch seconds, allowed).
    /// The window is 60 requests per sliding minute ([W-E1]).
    public func consume(_ bucket: String, now: Date, limit: Int = 60) -> (remaining: Int, reset: Int, allowed: Bool) {
        let time = now.timeIntervalSince1970
        return windows.withLock { all in
            var recent = (all[bucket] ?? []).filter { $0 > time - 60 && $0 <= time + 1 }
            let allowed = recent.count < limit
            if allowed { recent.append(time) }
            all[bucket] = recent
            if all.count > 10_000 { all = all.filter { !$0.value.isEmpty && ($0.value.last ?? 0) > time - 60 } }
            let reset = Int(((recent.first ?? time) + 60).rounded(.up))
            return (max(0, limit - recent.count), reset, allowed)
        }
    }
}
