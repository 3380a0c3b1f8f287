import EmulatorCore
import Foundation
import HTTPServer
import Testing

@Suite("Metrics counters and exposition text")
struct MetricsExpositionTests {
    static func makeCounters() -> RequestMetrics {
        RequestMetrics(platforms: ["acme"], routeTemplates: ["/acme/v1/things/{id}", "/__admin/health"])
    }

    static func render(_ metrics: EmulatorMetrics) -> String {
        metrics.render(EmulatorMetrics.StoreFacts(projects: 2, journalEntries: 3, journalBytes: 4, journalEvictions: 5, journalBacklogWaits: 7, journalWaits: 8, databaseBytes: 6))
    }

    @Test("label values escape backslash, double quote and line feed; help text escapes backslash and line feed only")
    func escaping() {
        #expect(MetricsExposition.escapeLabelValue(#"a"b\c"# + "\nd") == #"a\"b\\c\nd"#)
        #expect(MetricsExposition.escapeLabelValue("plain/{id}") == "plain/{id}")
        #expect(MetricsExposition.escapeHelp(#"say "hi" \ bye"# + "\nnext") == #"say "hi" \\ bye\nnext"#)
        #expect(MetricsExposition.format(.infinity) == "+Inf" && MetricsExposition.format(-.infinity) == "-Inf")
        #expect(MetricsExposition.format(.nan) == "NaN" && MetricsExposition.format(0.25) == "0.25")
    }

    @Test("a fault on a project whose id holds a quote, a backslash and a line feed renders one escaped sample line")
    func escapedFaultLabel() {
        let metrics = EmulatorMetrics(platforms: [PlatformID("acme")])
        let counters = metrics.installRequestCounters(routeTemplates: ["/acme/v1/things/{id}"])
        counters.faultFired(note: "rule flt_1: status", project: "we\"ird\\\nid")
        counters.faultFired(note: "header: reset", project: nil)
        let text = Self.render(metrics)
        #expect(text.contains(#"understudy_faults_fired_total{rule="flt_1",project="we\"ird\\\nid"} 1"# + "\n"), "\(text)")
        #expect(text.contains(#"understudy_faults_fired_total{rule="header",project=""} 1"#))
        // Every line is a comment or one sample: the line feed in the id did not split a line.
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            #expect(line.hasPrefix("# HELP ") || line.hasPrefix("# TYPE ") || line.hasPrefix("understudy_") || line.hasPrefix("process_"), "\(line)")
        }
        #expect(text.hasSuffix("\n"))
        // The store's facts are samples of their own families.
        #expect(text.contains("# TYPE understudy_journal_backlog_waits_total counter\nunderstudy_journal_backlog_waits_total 7\n"))
        #expect(text.contains("\nunderstudy_journal_evictions_total 5\n"))
        #expect(text.contains("# TYPE understudy_journal_waits gauge\nunderstudy_journal_waits 8\n"))
        // No backend counted its writes: no family for them.
        #expect(!text.contains("understudy_database_writes_total"))
    }

    @Test("committed writes and transactions render one sample per database, in the order given")
    func committedWrites() {
        let metrics = EmulatorMetrics(platforms: [PlatformID("acme")])
        let text = metrics.render(
            EmulatorMetrics.StoreFacts(
                projects: 0, journalEntries: 0, journalBytes: 0, journalEvictions: 0, journalBacklogWaits: 0,
                databaseBytes: 0, committedWrites: [("main", 12, 5), ("journal", 3, 2)]))
        #expect(
            text.contains(
                "# TYPE understudy_database_writes_total counter\n"
                    + "understudy_database_writes_total{database=\"main\"} 12\nunderstudy_database_writes_total{database=\"journal\"} 3\n"), "\(text)")
        #expect(
            text.contains(
                "# TYPE understudy_database_transactions_total counter\n"
                    + "understudy_database_transactions_total{database=\"main\"} 5\nunderstudy_database_transactions_total{database=\"journal\"} 2\n"))
    }

    @Test("status classes: 1xx…5xx by hundreds; no status (0) and out-of-range statuses are `none`; unknown routes are `unmatched`")
    func statusClassesAndRoutes() {
        let counters = Self.makeCounters()
        for status in [100, 204, 299, 302, 404, 499, 500, 599, 0, 600] {
            counters.observe(platform: "acme", route: "/acme/v1/things/{id}", status: status, nanoseconds: 1)
        }
        counters.observe(platform: "acme", route: nil, status: 404, nanoseconds: 1)
        counters.observe(platform: "acme", route: "/not/registered", status: 404, nanoseconds: 1)
        counters.observe(platform: "admin", route: "/__admin/health", status: 200, nanoseconds: 1)
        let counts = Dictionary(uniqueKeysWithValues: counters.requestCounts().map { ("\($0.platform) \($0.route) \($0.statusClass)", $0.value) })
        #expect(
            counts == [
                "acme /acme/v1/things/{id} 1xx": 1, "acme /acme/v1/things/{id} 2xx": 2, "acme /acme/v1/things/{id} 3xx": 1,
                "acme /acme/v1/things/{id} 4xx": 2, "acme /acme/v1/things/{id} 5xx": 2, "acme /acme/v1/things/{id} none": 2,
                "acme unmatched 4xx": 2, "admin /__admin/health 2xx": 1,
            ])
    }

    @Test("a duration on a bucket's bound falls in that bucket (le is ≤); beyond the last bound only +Inf counts it; the sum is in seconds")
    func bucketBounds() throws {
        let counters = Self.makeCounters()
        counters.observe(platform: "proxy", route: nil, status: 200, nanoseconds: 500_000)
        counters.observe(platform: "proxy", route: nil, status: 200, nanoseconds: 500_001)
        counters.observe(platform: "proxy", route: nil, status: 200, nanoseconds: 20_000_000_000)
        let proxy = try #require(counters.histograms().first { $0.platform == "proxy" })
        #expect(proxy.cumulative.count == RequestMetrics.bucketBounds.count + 1)
        #expect(proxy.cumulative[0] == 1 && proxy.cumulative[1] == 2 && proxy.cumulative[RequestMetrics.bucketBounds.count - 1] == 2)
        #expect(proxy.count == 3)
        #expect(abs(proxy.sumSeconds - 20.001000001) < 1e-9)
        #expect(counters.histograms().first { $0.platform == "acme" }?.count == 0)
    }

    @Test("observations from two threads at once are all counted (prints ns per observation; the time is reported, never asserted)")
    func concurrentObservations() throws {
        let counters = Self.makeCounters()
        // Small on purpose: a debug build is slow, and a long CPU-bound loop starves other suites
        // running beside it. Benchmarks/metrics-observe.sh times 1e6 optimised observations.
        let perThread = 10_000
        let started = MonotonicClock.nanoseconds()
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            let route: String? = thread == 0 ? "/acme/v1/things/{id}" : nil
            for index in 0..<perThread {
                counters.observe(platform: "acme", route: route, status: 200 + (index & 1) * 300, nanoseconds: UInt64(index & 0xFFFFF) * 1000)
            }
        }
        let elapsed = MonotonicClock.nanoseconds() - started
        print("metrics: \(Double(elapsed) / Double(2 * perThread)) ns per observation (wall time over 2 threads, this build)")
        let acme = try #require(counters.histograms().first { $0.platform == "acme" })
        #expect(acme.count == 2 * perThread)
        let counts = counters.requestCounts()
        #expect(counts.reduce(0) { $0 + $1.value } == 2 * perThread)
        #expect(counts.first { $0.route == "unmatched" && $0.statusClass == "5xx" }?.value == perThread / 2)
    }
}
