import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// Issue #7's benchmark, opt-in: `UNDERSTUDY_BENCH=1 swift test -c release --filter TelematicsBenchmark`.
/// Prints telemetry ingest in samples/s (1,000-sample batches, journal on) and trips-list latency
/// with 1,000 trips, each next to `/__admin/health` measured in the same run.
@Suite("Telematics benchmark", .enabled(if: ProcessInfo.processInfo.environment["UNDERSTUDY_BENCH"] != nil))
struct TelematicsBenchmarkTests {
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    @Test("ingest and trips-list throughput, as ratios to /__admin/health")
    func benchmark() async throws {
        try await TelematicsFixture.with { server, _, admin in
            let sdk = server.client.telematics.session(try await admin.mintTokens(userId: 1), deviceClock: { TelematicsFixture.epochDate })
            let rounds = 50
            let health =
                try await Self.seconds {
                    for _ in 0..<rounds { _ = try await server.client.admin.health() }
                } / Double(rounds)

            let batches = 30
            let start = TelematicsFixture.epochMs - Int64(batches) * 1000 * 1000
            let ingest = try await Self.seconds {
                for batch in 0..<batches {
                    let samples = TelematicsFixture.drive(startMs: start + Int64(batch) * 1_000_000, count: 1000, intervalMs: 1000)
                    let result = try await sdk.uploadTelemetry(TelematicsTelemetryBatch(samples: samples))
                    #expect(result.accepted == 1000)
                }
            }
            let samplesPerSecond = Double(batches * 1000) / ingest
            let perBatch = ingest / Double(batches)

            for day in 0..<1000 {
                let startedAt = Date(timeIntervalSince1970: 1_700_000_000 + Double(day) * 86_400)
                let style = Date.ISO8601FormatStyle()
                try await admin.seedTrip([
                    "userId": 1, "startedAt": .string(style.format(startedAt)),
                    "endedAt": .string(style.format(startedAt.addingTimeInterval(1800))), "distanceKm": 20,
                ])
            }
            var count = 0
            let list =
                try await Self.seconds {
                    for _ in 0..<10 { count = try await sdk.getTripsList().count }
                } / 10
            #expect(count >= 1000)
            print(
                "telematics ingest: \(Int(samplesPerSecond)) samples/s (\(String(format: "%.1f", perBatch * 1000)) ms per 1,000-sample batch, \(String(format: "%.0f", perBatch / health))× health)"
            )
            print(
                "telematics trips list (\(count) trips): \(String(format: "%.1f", list * 1000)) ms (\(String(format: "%.0f", list / health))× health at \(String(format: "%.2f", health * 1000)) ms)"
            )
        }
    }
}
