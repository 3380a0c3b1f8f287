import Synchronization

/// Request counters and latency histograms, counted on the request path without building a
/// string or taking a lock: every (platform × route × status class) counter and every histogram
/// bucket is an atomic allocated when the router is built; labels are rendered only at scrape time.
public final class RequestMetrics: @unchecked Sendable { // the atomics live in raw memory that never moves; nothing else is mutable
    /// Upper bounds of the latency histogram's buckets, in seconds, as the `le` labels print them.
    public static let bucketBounds: [(label: String, nanoseconds: UInt64)] = [
        ("0.0005", 500_000), ("0.001", 1_000_000), ("0.0025", 2_500_000), ("0.005", 5_000_000), ("0.01", 10_000_000),
        ("0.025", 25_000_000), ("0.05", 50_000_000), ("0.1", 100_000_000), ("0.25", 250_000_000), ("0.5", 500_000_000),
        ("1", 1_000_000_000), ("2.5", 2_500_000_000), ("5", 5_000_000_000), ("10", 10_000_000_000),
    ]
    /// The `status_class` labels; `none` is an exchange that ended without a status (a reset or hang fault).
    public static let statusClasses = ["1xx", "2xx", "3xx", "4xx", "5xx", "none"]
    /// The `route` label of a request no route matched.
    public static let unmatchedRoute = "unmatched"

    /// The `platform` labels: `admin` (core control plane), `proxy` (answered by the proxy), then each platform.
    public let platformNames: [String]
    /// Their UTF-8 lengths: comparing a length first skips most string comparisons.
    private let platformLengths: [Int]
    /// The `route` labels: every route template, then `unmatched`.
    public let routeNames: [String]
    private let routeSlots: [String: Int]
    /// The route slots again, keyed by the address of each template's UTF-8 storage: the router
    /// hands back the very strings it was built with, so most lookups skip hashing the text.
    private let storageSlots: StorageSlots
    private let counters: UnsafeMutablePointer<Atomic<Int>>
    private let counterCount: Int
    /// Per platform: one non-cumulative count per bucket plus one beyond the last bound (`+Inf`).
    private let buckets: UnsafeMutablePointer<Atomic<Int>>
    private let bucketCount: Int
    private let durationSums: UnsafeMutablePointer<Atomic<Int>> // nanoseconds, per platform
    private let faults = Mutex<[FaultKey: Int]>([:])

    private struct FaultKey: Hashable {
        var rule: String
        var project: String
    }

    /// Counters for `platforms` (besides `admin` and `proxy`) and the router's `routeTemplates`.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(platforms: [String], routeTemplates: [String]) {
        platformNames = ["admin", Journal.proxyPlatform] + platforms.filter { $0 != "admin" && $0 != Journal.proxyPlatform }
        platformLengths = platformNames.map(\.utf8.count)
        routeNames = routeTemplates + [Self.unmatchedRoute]
        routeSlots = Dictionary(routeTemplates.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        storageSlots = StorageSlots(routeNames.dropLast())
        counterCount = platformNames.count * routeNames.count * Self.statusClasses.count
        counters = Self.allocateZeroed(counterCount)
        bucketCount = Self.bucketBounds.count + 1
        buckets = Self.allocateZeroed(platformNames.count * bucketCount)
        durationSums = Self.allocateZeroed(platformNames.count)
    }

    deinit {
        for (pointer, count) in [(counters, counterCount), (buckets, platformNames.count * bucketCount), (durationSums, platformNames.count)] {
            pointer.deinitialize(count: count)
            pointer.deallocate()
        }
    }

    private static func allocateZeroed(_ count: Int) -> UnsafeMutablePointer<Atomic<Int>> {
        let pointer = UnsafeMutablePointer<Atomic<Int>>.allocate(capacity: count)
        for index in 0..<count { (pointer + index).initialize(to: Atomic(0)) }
        return pointer
    }

    // MARK: - The request path

    /// Counts one answered request: `platform` as the journal names it, the matched route
    /// template (nil: unmatched), the response status (0: none) and its duration.
    @inline(__always)
    public func observe(platform: String, route: String?, status: Int, nanoseconds: UInt64) {
        let platformIndex = index(ofPlatform: platform)
        let routeIndex = route.flatMap { storageSlots[$0] ?? routeSlots[$0] } ?? routeNames.count - 1
        let statusIndex = (100..<600).contains(status) ? status / 100 - 1 : Self.statusClasses.count - 1
        counters[(platformIndex * routeNames.count + routeIndex) * Self.statusClasses.count + statusIndex].wrappingAdd(1, ordering: .relaxed)
        var bucket = 0
        while bucket < Self.bucketBounds.count && nanoseconds > Self.bucketBounds[bucket].nanoseconds { bucket += 1 }
        buckets[platformIndex * bucketCount + bucket].wrappingAdd(1, ordering: .relaxed)
        durationSums[platformIndex].wrappingAdd(Int(truncatingIfNeeded: nanoseconds), ordering: .relaxed)
    }

    /// Counts a fault that fired, given the journal's note (`rule flt_…: status` or `header: reset`).
    /// Off the fast path: only requests that got a fault come here.
    public func faultFired(note: String, project: String?) {
        let rule: String
        if note.hasPrefix("rule "), let colon = note.firstIndex(of: ":") {
            rule = String(note[note.index(note.startIndex, offsetBy: 5)..<colon])
        } else {
            rule = "header"
        }
        faults.withLock { $0[FaultKey(rule: rule, project: project ?? ""), default: 0] += 1 }
    }

    private func index(ofPlatform name: String) -> Int {
        let length = name.utf8.count
        for index in platformNames.indices where platformLengths[index] == length && platformNames[index] == name { return index }
        return 0 // cannot happen: the emulator names only its own platforms; count it as the control plane
    }

    // MARK: - Scrape time

    /// A non-zero request counter.
    public struct RequestCount: Sendable, Equatable {
        /// The `platform` label.
        public var platform: String
        /// The `route` label.
        public var route: String
        /// The `status_class` label.
        public var statusClass: String
        /// Requests counted.
        public var value: Int
    }

    /// One platform's latency histogram.
    public struct Histogram: Sendable, Equatable {
        /// The `platform` label.
        public var platform: String
        /// Cumulative counts, one per bound of `bucketBounds` then `+Inf`.
        public var cumulative: [Int]
        /// The durations' sum in seconds.
        public var sumSeconds: Double
        /// Requests observed (the `+Inf` bucket).
        public var count: Int { cumulative.last ?? 0 }
    }

    /// Every request counter that is not zero, platform by platform, route by route.
    public func requestCounts() -> [RequestCount] {
        var counts: [RequestCount] = []
        for (platformIndex, platform) in platformNames.enumerated() {
            for (routeIndex, route) in routeNames.enumerated() {
                for (statusIndex, statusClass) in Self.statusClasses.enumerated() {
                    let value = counters[(platformIndex * routeNames.count + routeIndex) * Self.statusClasses.count + statusIndex].load(ordering: .relaxed)
                    if value > 0 { counts.append(RequestCount(platform: platform, route: route, statusClass: statusClass, value: value)) }
                }
            }
        }
        return counts
    }

    /// Every platform's histogram (zero for platforms no request reached yet).
    public func histograms() -> [Histogram] {
        platformNames.enumerated().map { platformIndex, platform in
            var running = 0
            let cumulative = (0..<bucketCount).map { bucket in
                running += buckets[platformIndex * bucketCount + bucket].load(ordering: .relaxed)
                return running
            }
            return Histogram(
                platform: platform, cumulative: cumulative,
                sumSeconds: Double(durationSums[platformIndex].load(ordering: .relaxed)) / 1e9)
        }
    }

    /// Faults fired, by rule id (`header` for the `X-Understudy-Fault` header) and the project of the request.
    public func faultCounts() -> [(rule: String, project: String, value: Int)] {
        faults.withLock { $0.map { ($0.key.rule, $0.key.project, $0.value) } }.sorted { ($0.rule, $0.project) < ($1.rule, $1.project) }
    }
}

/// An open-addressing table from a string's storage address to its route slot. Sound because
/// `RequestMetrics.routeNames` keeps every template alive, so no other string can own one of
/// these addresses; strings stored inline (15 UTF-8 bytes or fewer) have no stable address and
/// are left to the dictionary.
struct StorageSlots: Sendable {
    private var addresses: [UInt]
    private var slots: [Int]
    private let mask: Int

    init<Templates: Collection>(_ templates: Templates) where Templates.Element == String {
        var size = 16
        while size < templates.count * 4 { size *= 2 }
        addresses = Array(repeating: 0, count: size)
        slots = Array(repeating: 0, count: size)
        mask = size - 1
        for (slot, template) in templates.enumerated() {
            guard template.utf8.count > 15, let address = Self.address(of: template) else { continue }
            var index = Self.hash(address) & mask
            while addresses[index] != 0 && addresses[index] != address { index = (index + 1) & mask }
            if addresses[index] == 0 { (addresses[index], slots[index]) = (address, slot) }
        }
    }

    @inline(__always)
    private static func address(of text: String) -> UInt? {
        text.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } ?? nil
    }

    @inline(__always)
    private static func hash(_ address: UInt) -> Int { Int(truncatingIfNeeded: ((address >> 4) &* 0x9E37_79B9_7F4A_7C15) >> 40) }

    /// The slot of the template whose storage `text` shares, or nil.
    @inline(__always)
    subscript(_ text: String) -> Int? {
        guard text.utf8.count > 15, let address = Self.address(of: text) else { return nil }
        var index = Self.hash(address) & mask
        while true {
            let found = addresses[index]
            if found == address { return slots[index] }
            if found == 0 { return nil }
            index = (index + 1) & mask
        }
    }
}
