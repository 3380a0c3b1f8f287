import Foundation
import Testing
import UnderstudyClient
import UnderstudyTesting

/// Throughput of the two hot WarrantyLife paths as ratios to `/__admin/health` in the same run.
/// Off by default (timings are meaningless in a normal test run); one command:
/// `UNDERSTUDY_BENCH=1 swift test --filter WarrantyLifeBenchmark` (use `-c release` for real numbers).
@Suite("WarrantyLife benchmark")
struct WarrantyLifeBenchmark {
    static let seconds = Double(ProcessInfo.processInfo.environment["UNDERSTUDY_BENCH_SECONDS"] ?? "") ?? 3
    static let concurrency = 8

    /// Requests per second of `call`, run by `concurrency` workers for `seconds`.
    static func rate(_ call: @escaping @Sendable () async throws -> Void) async throws -> Double {
        let deadline = Date().addingTimeInterval(seconds)
        let start = Date()
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var done = 0
                    while Date() < deadline { try await call(); done += 1 }
                    return done
                }
            }
            return try await group.reduce(0, +)
        }
        return Double(total) / Date().timeIntervalSince(start)
    }

    @Test(
        "gzip readings ingest (1,000-reading batches) and voucher lookups, as ratios to /__admin/health",
        .enabled(if: ProcessInfo.processInfo.environment["UNDERSTUDY_BENCH"] != nil))
    func throughput() async throws {
        try await WarrantyLifeFixture.with { f in
            try await f.user("bench@example.com")
            try await f.admin.createVoucher(["code": "BENCH"])
            let repo = f.repository(device: "BENCH-DEVICE")
            try await repo.getTokenViaUserPassword(username: "bench@example.com", password: "secret-pass")
            let item = try await repo.createItem(model: "iPhone", mpn: "iPhone14,2")
            let itemID = try #require(item["id"]?.string)
            let eventID = try await repo.createSensorEvent(itemId: itemID, body: ["eventAt": "2026-11-30 10:00:00.000", "sensorEventType": 1111])
            let batch: [AnyJSON] = (0..<1_000).map { index in
                [
                    "readingAt": .string(String(format: "2026-11-30 10:00:%02d.%03d", index / 1000, index % 1000)), "accelerationX": 0.01, "accelerationY": 0.02,
                    "accelerationZ": -9.81, "gyroscopeX": 0.1, "gyroscopeY": 0.2, "gyroscopeZ": 0.3, "magnetometerX": 1, "magnetometerY": 2, "magnetometerZ": 3,
                    "pitch": 1.5, "roll": 2.5, "yaw": 3.5, "relativeAltitude": -1, "pressure": -1, "phase": 5000,
                ]
            }
            let client = f.client
            let health = try await Self.rate { _ = try await client.admin.health() }
            let batches = try await Self.rate { _ = try await repo.uploadSensorReadings(itemId: itemID, sensorEventId: eventID, readings: batch) }
            let lookups = try await Self.rate { _ = try await repo.getVoucherByVoucherCode(voucherCode: "BENCH") }
            print(
                String(
                    format: "warrantylife bench: health %.0f req/s | readings %.0f batches/s = %.0f readings/s (%.3f× health) | voucher lookup %.0f req/s (%.3f× health)",
                    health, batches, batches * 1_000, batches / health, lookups, lookups / health))
            #expect(batches > 0 && lookups > 0 && health > 0)
        }
    }
}
