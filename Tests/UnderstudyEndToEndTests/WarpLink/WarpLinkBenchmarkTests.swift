import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// Throughput of resolve and attribution match as a ratio to `/__admin/health` in the same run,
/// and resolve latency with 10 versus 10,000 links. Off by default (it is slow and noisy on a
/// shared machine); run with `UNDERSTUDY_BENCH=1 swift test --filter WarpLinkBenchmark`.
@Suite("WarpLink benchmark", .enabled(if: ProcessInfo.processInfo.environment["UNDERSTUDY_BENCH"] == "1"))
struct WarpLinkBenchmarkTests {
    static let concurrency = 8

    /// Requests per second of `request` over `total` calls spread on `concurrency` tasks.
    static func throughput(total: Int, _ request: @escaping @Sendable (Int) async throws -> Int) async throws -> (perSecond: Double, failures: Int) {
        let start = Date()
        let failures = try await withThrowingTaskGroup(of: Int.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var failed = 0
                    var index = worker
                    while index < total {
                        if try await request(index) >= 400 { failed += 1 }
                        index += concurrency
                    }
                    return failed
                }
            }
            return try await group.reduce(0, +)
        }
        return (Double(total) / Date().timeIntervalSince(start), failures)
    }

    /// Median latency in milliseconds of `count` sequential calls.
    static func medianLatency(count: Int, _ request: () async throws -> Void) async throws -> Double {
        var samples: [Double] = []
        for _ in 0..<count {
            let start = Date()
            try await request()
            samples.append(Date().timeIntervalSince(start) * 1000)
        }
        return samples.sorted()[samples.count / 2]
    }

    @Test("resolve and match throughput relative to health; resolve latency with 10 and 10,000 links")
    func benchmark() async throws {
        try await WarpLinkHarness.with { h in
            let total = Int(ProcessInfo.processInfo.environment["UNDERSTUDY_BENCH_REQUESTS"] ?? "") ?? 2_000
            let client = h.server.client
            let warpLink = h.warpLink
            let key = h.sdkKey
            let slugs = (0..<10).map { "bench\($0)" }
            for slug in slugs { _ = try await h.admin.createLink(WarpLinkLinkSeed(slug: slug, destinationURL: "https://example.com/\(slug)", customParams: ["a": "1"])) }

            let health = try await Self.throughput(total: total) { _ in try await client.send(ClientRequest(method: "GET", path: "/__admin/health")).status }
            let resolve = try await Self.throughput(total: total) { index in try await warpLink.resolve(slug: slugs[index % 10], tappedQuery: "x=\(index)", apiKey: key).status }
            let body = WarpLinkAttributionRequest(acceptLanguage: "en-US", timezoneOffset: 240, timezone: "America/Toronto")
            let match = try await Self.throughput(total: total) { _ in try await warpLink.matchAttribution(body, apiKey: key).status }
            print(
                String(
                    format: "warplink bench: health %.0f req/s; resolve %.0f req/s (ratio %.2f, %d failed); match %.0f req/s (ratio %.2f, %d failed)",
                    health.perSecond, resolve.perSecond, resolve.perSecond / health.perSecond, resolve.failures,
                    match.perSecond, match.perSecond / health.perSecond, match.failures))

            let small = try await Self.medianLatency(count: 300) { _ = try await warpLink.resolve(slug: "bench3", apiKey: key) }
            let admin = h.admin
            _ = try await Self.throughput(total: 9_990) { index in
                (try? await admin.createLink(WarpLinkLinkSeed(slug: "many\(index)", destinationURL: "https://example.com/m\(index)"))) == nil ? 500 : 201
            }
            let large = try await Self.medianLatency(count: 300) { _ = try await warpLink.resolve(slug: "bench3", apiKey: key) }
            print(String(format: "warplink bench: resolve median %.2f ms with 10 links, %.2f ms with 10,000 links (ratio %.2f)", small, large, large / small))
            #expect(resolve.failures == 0 && match.failures == 0)
            #expect(try await admin.links().count == 10_000)
        }
    }
}
