import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// Upload throughput with 30 KB multipart chunks as a ratio to `/__admin/health`, measured in the
/// same run. Opt-in (`UNDERSTUDY_BENCH=1 swift test --filter AsleepUploadBenchmark`): it measures, it does not check.
@Suite("Asleep upload benchmark", .enabled(if: ProcessInfo.processInfo.environment["UNDERSTUDY_BENCH"] == "1"))
struct AsleepUploadBenchmark {
    static let workers = 4
    static let requestsPerWorker = 250

    @Test("upload req/s relative to health req/s")
    func throughput() async throws {
        try await AsleepFixture.with { fixture in
            var configs: [AsleepConfig] = []
            var sessions: [String] = []
            for _ in 0..<Self.workers {
                let config = try await fixture.asleep.initAsleepConfig(apiKey: fixture.apiKey)
                configs.append(config)
                sessions.append(try await fixture.asleep.startTracking(config: config))
            }
            let chunk = AsleepClient.melChunk(bytes: 30 * 1024)
            let asleep = fixture.asleep, admin = fixture.server.client.admin

            func measure(_ body: @escaping @Sendable (Int, Int) async throws -> Void) async throws -> Double {
                let clock = ContinuousClock()
                let started = clock.now
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<Self.workers {
                        group.addTask { for index in 0..<Self.requestsPerWorker { try await body(worker, index) } }
                    }
                    try await group.waitForAll()
                }
                let elapsed = clock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                return Double(Self.workers * Self.requestsPerWorker) / seconds
            }
            let snapshotConfigs = configs, snapshotSessions = sessions
            let health = try await measure { _, _ in _ = try await admin.health() }
            let uploads = try await measure { worker, index in
                _ = try await asleep.uploadChunk(config: snapshotConfigs[worker], sessionId: snapshotSessions[worker], seqNum: index, chunk: chunk)
            }
            print("asleep upload benchmark: health \(Int(health)) req/s, upload (30 KB multipart) \(Int(uploads)) req/s, ratio \(String(format: "%.3f", uploads / health))")
            #expect(uploads > 0)
        }
    }
}
