import Foundation
import HTTPServer
import Testing
import UnderstudyClient
import UnderstudyTesting

/// `GET /__admin/metrics` against a live server: counters move with the requests sent, the
/// histograms are cumulative, and the scrape itself is a probe (not journalled).
@Suite("Prometheus metrics")
struct MetricsTests {
    /// One scrape: every sample by its series (`name{labels}` exactly as served).
    struct Scrape {
        let samples: [String: Double]
        let contentType: String?

        subscript(_ series: String) -> Double { samples[series] ?? 0 }

        /// The series of family `name`'s samples whose labels include `label`.
        func series(_ name: String, with label: String) -> [String: Double] {
            samples.filter { $0.key.hasPrefix(name + "{") && $0.key.contains(label) }
        }
    }

    static func scrape(_ server: UnderstudyTestServer, headers: [String: String] = [:]) async throws -> Scrape {
        let response = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/metrics", headers: headers))
        #expect(response.status == 200, "\(response.text)")
        var samples: [String: Double] = [:]
        for line in response.text.split(separator: "\n") where !line.hasPrefix("#") {
            let space = try #require(line.lastIndex(of: " "))
            samples[String(line[..<space])] = Double(line[line.index(after: space)...].replacingOccurrences(of: "+Inf", with: "inf"))
        }
        return Scrape(samples: samples, contentType: response.headers["content-type"])
    }

    static let validate = #"understudy_requests_total{platform="warplink",route="/warplink/v1/sdk/validate",status_class="#

    @Test("SDK requests move their route's 2xx and 4xx counters by exactly the requests sent, and the platform's histogram by as many")
    func sdkCounters() async throws {
        // Over the socket: the open-connections gauge counts the scrape's own connection.
        try await WarpLinkHarness.with(transport: .live) { h in
            let before = try await Self.scrape(h.server)
            #expect(before.contentType == "text/plain; version=0.0.4; charset=utf-8")
            for _ in 0..<3 { #expect(try await h.warpLink.validate(apiKey: h.sdkKey).status == 200) }
            #expect(try await h.warpLink.validate(apiKey: "wl_live_short").status == 401)
            _ = try await h.server.client.send(ClientRequest(method: "GET", path: "/warplink/v1/no/such/route"))
            let after = try await Self.scrape(h.server)

            #expect(after[Self.validate + #""2xx"}"#] - before[Self.validate + #""2xx"}"#] == 3)
            #expect(after[Self.validate + #""4xx"}"#] - before[Self.validate + #""4xx"}"#] == 1)
            let unmatched = #"understudy_requests_total{platform="warplink",route="unmatched",status_class="4xx"}"#
            #expect(after[unmatched] - before[unmatched] == 1)
            let count = #"understudy_request_duration_seconds_count{platform="warplink"}"#
            #expect(after[count] - before[count] == 5)
            #expect(after[#"understudy_request_duration_seconds_sum{platform="warplink"}"#] > 0)
            // The projects gauge sees the harness's project; the scrape's own connection is open.
            #expect(after["understudy_projects"] == 1)
            #expect(after[#"understudy_open_connections{listener="http"}"#] >= 1)
            #expect(after["understudy_database_bytes"] > 0)
            // The process's own readings: this test process, which embeds the server.
            #expect(after["process_cpu_seconds_total"] >= before["process_cpu_seconds_total"])
            #expect(after["process_cpu_seconds_total"] > 0)
            #if os(Linux)
            #expect(after["process_resident_memory_bytes"] > 1_000_000)
            #expect(after["understudy_heap_in_use_bytes"] > 1_000_000)
            #expect(after["understudy_heap_held_bytes"] >= after["understudy_heap_in_use_bytes"])
            #endif
            // Five small requests never fill the journal's backlog.
            #expect(after.samples["understudy_journal_backlog_waits_total"] == 0)
            // Only the epoll loops time their busy stretches; the Dispatch loop's server has no such series.
            let stretches = #"understudy_event_loop_busy_stretches_total{over="0.025"}"#
            if h.server.server.http.eventLoopKind == .epoll {
                #expect(after.samples[stretches] != nil && after.samples[#"understudy_event_loop_busy_stretches_total{over="0.1"}"#] != nil)
                #expect(after["understudy_event_loop_longest_busy_seconds"] > 0)
            } else {
                #expect(after.samples[stretches] == nil && after.samples["understudy_event_loop_longest_busy_seconds"] == nil)
            }
        }
    }

    @Test("committed writes and the transactions that held them move with a write, per SQLite file; PostgreSQL does not count them")
    func committedWrites() async throws {
        try await WarpLinkHarness.with { h in
            let writes = #"understudy_database_writes_total{database="main"}"#
            let transactions = #"understudy_database_transactions_total{database="main"}"#
            let before = try await Self.scrape(h.server)
            _ = try await h.admin.createLink(WarpLinkLinkSeed(slug: WarpLinkHarness.slug(), destinationURL: "https://example.com/counted"))
            // Reading the journal writes what it has queued: the link's request, and the journal's own count with it.
            _ = try await h.requests(path: "/__admin/**")
            let after = try await Self.scrape(h.server)
            if h.server.server.emulator.services.database.dialect == .sqlite {
                #expect(after[writes] - before[writes] >= 1)
                #expect(after[transactions] - before[transactions] >= 1)
                // A transaction holds one write or more.
                #expect(after[writes] >= after[transactions])
                let journalWrites = #"understudy_database_writes_total{database="journal"}"#
                #expect(after[journalWrites] > before[journalWrites], "\(after.series("understudy_database_writes_total", with: "database"))")
                #expect(after[journalWrites] >= after[#"understudy_database_transactions_total{database="journal"}"#])
            } else {
                #expect(after.samples[writes] == nil && after.samples[transactions] == nil)
            }
        }
    }

    @Test("histogram buckets are cumulative per platform and the +Inf bucket equals _count and the platform's request total")
    func histogramIsCumulative() async throws {
        try await WarpLinkHarness.with { h in
            for _ in 0..<4 { _ = try await h.warpLink.validate(apiKey: h.sdkKey) }
            let scrape = try await Self.scrape(h.server)
            for platform in ["admin", "proxy", "warplink", "asleep", "warrantylife", "telematics"] {
                let buckets = scrape.series("understudy_request_duration_seconds_bucket", with: #"platform="\#(platform)""#)
                let ordered = buckets.map { series, value -> (Double, Double) in
                    let le = series.components(separatedBy: #"le=""#)[1].prefix { $0 != "\"" }
                    return (le == "+Inf" ? .infinity : Double(le) ?? -1, value)
                }.sorted { $0.0 < $1.0 }
                #expect(ordered.count == 15, "\(platform)")
                #expect(zip(ordered, ordered.dropFirst()).allSatisfy { $0.1 <= $1.1 }, "\(platform): \(ordered)")
                let count = scrape[#"understudy_request_duration_seconds_count{platform="\#(platform)"}"#]
                #expect(ordered.last?.1 == count, "\(platform)")
                let total = scrape.series("understudy_requests_total", with: #"platform="\#(platform)""#).values.reduce(0, +)
                #expect(total == count, "\(platform)")
            }
            #expect(scrape[#"understudy_request_duration_seconds_count{platform="warplink"}"#] == 4)
        }
    }

    @Test("a fault rule that fires counts under its id and project; a header fault counts as `header`; both are 5xx requests")
    func faultsFired() async throws {
        try await WarpLinkHarness.with { h in
            let rule = try await h.projectAdmin.addFault(
                FaultRule(match: .init(platform: "warplink", path: "/v1/sdk/validate"), action: .status(503), times: 2))
            let ruleID = try #require(rule.id)
            for _ in 0..<3 { _ = try await h.warpLink.validate(apiKey: h.sdkKey) }
            let headerFault = try await h.server.client.send(
                ClientRequest(
                    method: "GET", path: "/warplink/v1/sdk/validate", headers: ["Authorization": "Bearer " + h.sdkKey, "X-Understudy-Fault": "status=502"]))
            #expect(headerFault.status == 502)
            let scrape = try await Self.scrape(h.server)
            #expect(scrape[#"understudy_faults_fired_total{rule="\#(ruleID)",project="\#(h.project.id)"}"#] == 2)
            #expect(scrape[#"understudy_faults_fired_total{rule="header",project="\#(h.project.id)"}"#] == 1)
            #expect(scrape[Self.validate + #""5xx"}"#] == 3)
            #expect(scrape[Self.validate + #""2xx"}"#] == 1)
        }
    }

    @Test("scrapes are not journalled and, with an admin token, need it (Authorization: Bearer works) while the health probe stays public")
    func probeAndToken() async throws {
        try await UnderstudyTestServer.with(configure: { $0.adminToken = "metrics-secret" }) { server in
            #expect(try await server.client.send(ClientRequest(method: "GET", path: "/__admin/metrics")).status == 401)
            let wrong = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/metrics", headers: ["Authorization": "Bearer wrong"]))
            #expect(wrong.status == 401)
            let health = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/health", headers: ["Authorization": "Bearer wrong"]))
            #expect(health.status == 200)
            let scrape = try await Self.scrape(server, headers: ["Authorization": "Bearer metrics-secret"])
            #expect(scrape[#"understudy_requests_total{platform="admin",route="/__admin/metrics",status_class="4xx"}"#] == 2)
            _ = try await Self.scrape(server, headers: ["Authorization": "Bearer metrics-secret"])
            let journal = try await server.client.send(ClientRequest(method: "GET", path: "/__admin/requests", headers: ["Authorization": "Bearer metrics-secret"]))
            #expect(journal.status == 200)
            #expect(!journal.text.contains("/__admin/metrics"), "\(journal.text)")
        }
    }
}
