import Foundation
import Synchronization

/// The sliding one-minute request windows behind the rate-limit headers every WarpLink response
/// carries ([W-E1]), per key (or per client IP when there is no key). In memory: they are
/// per-process traffic accounting, not project state, so resets and snapshots leave them alone.
public final class RateLimitWindows: Sendable {
    private let windows = Mutex<[String: [Double]]>([:])

    /// No requests seen yet.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init() {}

    /// Records a request by `bucket` at `now` and returns (remaining, reset epoch seconds, allowed).
    /// The window is `limit` requests per sliding minute; a refused request does not count.
    public func consume(_ bucket: String, now: Date, limit: Int = 60) -> (remaining: Int, reset: Int, allowed: Bool) {
        let time = now.timeIntervalSince1970
        return windows.withLock { all in
            // Taken out of the dictionary, the array is referenced once and trimmed in place;
            // filtering a copy into a new array cost two allocations on every WarpLink request.
            var recent = all.removeValue(forKey: bucket) ?? []
            recent.removeAll { !($0 > time - 60 && $0 <= time + 1) }
            let allowed = recent.count < limit
            if allowed { recent.append(time) }
            all[bucket] = recent
            // Bound the memory: past 10 000 buckets, forget those idle for a minute.
            if all.count > 10_000 { all = all.filter { !$0.value.isEmpty && ($0.value.last ?? 0) > time - 60 } }
            let reset = Int(((recent.first ?? time) + 60).rounded(.up)) // checked: `now` is a project clock reading, inside Timestamp.range
            return (max(0, limit - recent.count), reset, allowed)
        }
    }
}
