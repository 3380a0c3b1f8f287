import Foundation
import HTTPServer
import Synchronization

/// What `GET /__admin/metrics` reports: the request counters (counted on the request path), and
/// gauges read only when scraped — journal totals, projects, open connections, the database size,
/// the process's CPU and memory.
public final class EmulatorMetrics: Sendable {
    /// The path Prometheus scrapes.
    public static let path = "/__admin/metrics"

    private struct Link: Sendable {
        weak var server: HTTPServer?
        var version = "unknown"
        weak var upstreams: UpstreamConnector?
    }

    private let platforms: [String]
    private let requestCounters = AtomicLazyReference<RequestMetrics>()
    private let link = Mutex(Link())
    private let startedAt = MonotonicClock.nanoseconds()
    private let findingCounts = Mutex<[String: Int]>([:])

    /// Metrics for an emulator serving `platforms`; `installRequestCounters` runs once its router is built.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(platforms: [PlatformID]) {
        self.platforms = platforms.map(\.rawValue)
    }

    /// Creates the request counters for the router's route templates (once; later calls return the first).
    public func installRequestCounters(routeTemplates: [String]) -> RequestMetrics {
        requestCounters.storeIfNil(RequestMetrics(platforms: platforms, routeTemplates: routeTemplates))
    }

    /// The request counters, nil before the emulator built its router.
    public var requests: RequestMetrics? { requestCounters.load() }

    /// Lets the connection gauges read `server` (held weakly: the server owns the emulator) and
    /// labels `understudy_build_info` with `version`.
    public func observe(server: HTTPServer, version: String) {
        link.withLock {
            $0.server = server; $0.version = version
        }
    }

    /// Starts a zero count of findings for each rule, so every rule has a series from the start.
    public func registerFindingRules(_ ids: [String]) {
        findingCounts.withLock { counts in for id in ids where counts[id] == nil { counts[id] = 0 } }
    }

    /// Counts one finding of `rule` (each breach, not each distinct finding).
    public func countFinding(rule: String) { findingCounts.withLock { $0[rule, default: 0] += 1 } }

    /// Findings raised since the server started, by rule.
    public var findingsByRule: [String: Int] { findingCounts.withLock { $0 } }

    /// The server's version as `observe(server:version:)` reported it (`unknown` before).
    var serverVersion: String { link.withLock { $0.version } }

    /// Reports the proxy's upstream connections (the slots a passthrough tunnel holds) from `upstreams`.
    public func observe(upstreams: UpstreamConnector) {
        link.withLock { $0.upstreams = upstreams }
    }

    /// Facts the scrape reads from the store.
    public struct StoreFacts: Sendable {
        /// Projects that exist.
        public var projects: Int
        /// Journal entries held.
        public var journalEntries: Int
        /// Journal bytes held (stored body and header bytes).
        public var journalBytes: Int
        /// Journal entries evicted since start.
        public var journalEvictions: Int
        /// Requests that waited for the journal's writer to catch up, since start.
        public var journalBacklogWaits: Int
        /// Journal waits and long polls parked now, waiting for a matching request.
        public var journalWaits: Int
        /// The database files (the main one and the journal's) plus their write-ahead logs, in bytes.
        public var databaseBytes: Int
        /// Writes committed since start and the transactions that held them, by database (`main`,
        /// `journal`); only those whose backend counts them.
        public var committedWrites: [(database: String, writes: Int, transactions: Int)]

        /// Collects the facts.
        public init(
            projects: Int, journalEntries: Int, journalBytes: Int, journalEvictions: Int, journalBacklogWaits: Int, journalWaits: Int = 0,
            databaseBytes: Int, committedWrites: [(database: String, writes: Int, transactions: Int)] = []
        ) {
            self.journalWaits = journalWaits
            self.committedWrites = committedWrites
            self.projects = projects
            self.journalEntries = journalEntries
            self.journalBytes = journalBytes
            self.journalEvictions = journalEvictions
            self.journalBacklogWaits = journalBacklogWaits
            self.databaseBytes = databaseBytes
        }
    }

    /// The whole exposition.
    public func render(_ facts: StoreFacts) -> String {
        var out = MetricsExposition()
        renderRequests(into: &out)
        out.family("understudy_journal_entries", .gauge, help: "Requests the journal holds.")
        out.sample("understudy_journal_entries", facts.journalEntries)
        out.family("understudy_journal_bytes", .gauge, help: "Stored header and body bytes the journal holds (its byte bound counts these).")
        out.sample("understudy_journal_bytes", facts.journalBytes)
        out.family("understudy_journal_evictions_total", .counter, help: "Journal entries evicted to stay within its bounds since the server started.")
        out.sample("understudy_journal_evictions_total", facts.journalEvictions)
        out.family(
            "understudy_journal_backlog_waits_total", .counter,
            help: "Requests whose answer waited for the journal to write what was queued before it (its backlog bound), since the server started.")
        out.sample("understudy_journal_backlog_waits_total", facts.journalBacklogWaits)
        out.family("understudy_journal_waits", .gauge, help: "Journal waits and long polls parked now until a matching request arrives.")
        out.sample("understudy_journal_waits", facts.journalWaits)
        out.family("understudy_projects", .gauge, help: "Projects that exist.")
        out.sample("understudy_projects", facts.projects)
        let (server, version, upstreams) = link.withLock { ($0.server, $0.version, $0.upstreams) }
        out.family("understudy_open_connections", .gauge, help: "Open client connections by listener (plain HTTP, TLS, the intercepting proxy).")
        for listener in [ConnectionInfo.Listener.http, .https, .proxy] {
            out.sample("understudy_open_connections", ["listener": listener.rawValue], server?.connectionCount(of: listener) ?? 0)
        }
        if let stretches = server?.loopBusyStretches {
            out.family(
                "understudy_event_loop_busy_stretches_total", .counter,
                help: "Times an event loop stayed busy this long or longer between two waits for its sockets (requests arriving meanwhile wait unread, before their timing starts)."
            )
            out.sample("understudy_event_loop_busy_stretches_total", ["over": "0.025"], stretches.slow)
            out.sample("understudy_event_loop_busy_stretches_total", ["over": "0.1"], stretches.verySlow)
            out.family("understudy_event_loop_longest_busy_seconds", .gauge, help: "The longest an event loop stayed busy between two waits for its sockets.")
            out.sample("understudy_event_loop_longest_busy_seconds", Double(stretches.longestNanoseconds) / 1e9)
        }
        out.family("understudy_proxy_tunnels", .gauge, help: "Passthrough tunnels the proxy holds open to real hosts.")
        out.sample("understudy_proxy_tunnels", server?.tunnelCount ?? 0)
        out.family(
            "understudy_proxy_upstreams", .gauge,
            help: "Upstream connections the proxy holds (connecting, relaying or tunnelling); at understudy_proxy_upstream_limit it answers 503.")
        out.sample("understudy_proxy_upstreams", upstreams?.upstreamCount ?? 0)
        out.family("understudy_proxy_upstream_limit", .gauge, help: "Most upstream connections the proxy holds at once.")
        out.sample("understudy_proxy_upstream_limit", upstreams?.maxUpstreams ?? 0)
        out.family(
            "understudy_database_bytes", .gauge, help: "Size of the SQLite database files (main and journal) plus their write-ahead logs and the journal's body segment files.")
        out.sample("understudy_database_bytes", facts.databaseBytes)
        if !facts.committedWrites.isEmpty {
            out.family(
                "understudy_database_writes_total", .counter, help: "Writes committed since the server started, by database (main, journal), the server's background work included."
            )
            for counted in facts.committedWrites { out.sample("understudy_database_writes_total", ["database": counted.database], counted.writes) }
            out.family(
                "understudy_database_transactions_total", .counter,
                help: "Transactions that committed those writes: writes queued while the writer was busy commit together, so writes ÷ transactions is how many shared each commit.")
            for counted in facts.committedWrites { out.sample("understudy_database_transactions_total", ["database": counted.database], counted.transactions) }
        }
        renderProcess(into: &out)
        out.family("understudy_uptime_seconds", .gauge, help: "Seconds since the server started.")
        out.sample("understudy_uptime_seconds", Double(MonotonicClock.nanoseconds() &- startedAt) / 1e9)
        out.family("understudy_build_info", .gauge, help: "Always 1; the version label names the running build.")
        out.sample("understudy_build_info", ["version": version], 1)
        return out.text
    }

    /// The process's CPU and memory, under the Prometheus process collector's names where it has
    /// them; the heap families only with glibc's allocator. RSS alone cannot tell a leak from freed
    /// memory the allocator keeps: the heap's live bytes can.
    private func renderProcess(into out: inout MetricsExposition) {
        out.family("process_cpu_seconds_total", .counter, help: "User and system CPU time of the whole process in seconds.")
        out.sample("process_cpu_seconds_total", ProcessUsage.cpuSeconds())
        if let resident = ProcessUsage.residentBytes() {
            out.family("process_resident_memory_bytes", .gauge, help: "Resident memory size in bytes.")
            out.sample("process_resident_memory_bytes", resident)
        }
        if let heap = ProcessUsage.heap() {
            out.family("understudy_heap_in_use_bytes", .gauge, help: "Bytes in live heap allocations, over all of the allocator's arenas.")
            out.sample("understudy_heap_in_use_bytes", heap.inUseBytes)
            out.family(
                "understudy_heap_held_bytes", .gauge,
                help: "Bytes the heap allocator has mapped from the system, live allocations included (pages it released with madvise still count).")
            out.sample("understudy_heap_held_bytes", heap.heldBytes)
        }
    }

    private func renderRequests(into out: inout MetricsExposition) {
        let requests = self.requests
        out.family(
            "understudy_requests_total", .counter,
            help: "Requests answered, by platform (admin: the control plane; proxy: answered by the proxy), route template and status class.")
        for count in requests?.requestCounts() ?? [] {
            out.sample("understudy_requests_total", ["platform": count.platform, "route": count.route, "status_class": count.statusClass], count.value)
        }
        let name = "understudy_request_duration_seconds"
        out.family(name, .histogram, help: "Time from a request's arrival to its answer, by platform.")
        for histogram in requests?.histograms() ?? [] {
            for (bound, value) in zip(RequestMetrics.bucketBounds, histogram.cumulative) {
                out.sample(name + "_bucket", ["platform": histogram.platform, "le": bound.label], value)
            }
            out.sample(name + "_bucket", ["platform": histogram.platform, "le": "+Inf"], histogram.count)
            out.sample(name + "_sum", ["platform": histogram.platform], histogram.sumSeconds)
            out.sample(name + "_count", ["platform": histogram.platform], histogram.count)
        }
        out.family(
            "understudy_faults_fired_total", .counter,
            help: "Faults that fired, by rule id (header: the X-Understudy-Fault header) and the project of the request.")
        for fault in requests?.faultCounts() ?? [] {
            out.sample("understudy_faults_fired_total", ["rule": fault.rule, "project": fault.project], fault.value)
        }
        out.family(
            "understudy_findings_total", .counter,
            help: "Integration-check breaches found since the server started, by rule (each occurrence, all projects together).")
        for (rule, count) in findingsByRule.sorted(by: { $0.key < $1.key }) {
            out.sample("understudy_findings_total", ["rule": rule], count)
        }
    }

    /// The scrape route: `GET /__admin/metrics`.
    static func route(metrics: EmulatorMetrics, journal: Journal) -> Route {
        Route(.get, path) { _, context in
            let projects = try await context.database.read { connection in
                try connection.scalar("SELECT count(*) FROM projects").int ?? 0
            }
            let totals = journal.storedTotals
            let services = context.services
            var databaseBytes = try await services.database.storedBytes()
            if services.journalHasOwnDatabase { databaseBytes += try await services.journalDatabase.storedBytes() }
            databaseBytes += journal.bodyFileBytes
            var committed: [(database: String, writes: Int, transactions: Int)] = []
            if let main = services.database.committedWrites { committed.append(("main", main.writes, main.transactions)) }
            if services.journalHasOwnDatabase, let own = services.journalDatabase.committedWrites {
                committed.append(("journal", own.writes, own.transactions))
            }
            let facts = StoreFacts(
                projects: Int(projects), journalEntries: totals.entries, journalBytes: totals.bytes,
                journalEvictions: journal.evictedSinceStart, journalBacklogWaits: journal.backlogWaitsSinceStart,
                journalWaits: journal.parkedWaits, databaseBytes: databaseBytes, committedWrites: committed)
            var headers = HTTPHeaders()
            headers.set("Content-Type", MetricsExposition.contentType)
            return Response(status: 200, headers: headers, body: Data(metrics.render(facts).utf8))
        }
    }
}
