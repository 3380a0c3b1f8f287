import EmulatorCore
import Foundation
import Storage
import Testing

@testable import TelematicsEmulator

/// Ingests fixed batches into a fresh database and compares every stored row (samples, periods,
/// trips, batches) with a digest captured from the per-sample ingest path before the batched one
/// replaced it: faster ingest must not change one stored bit.
@Suite("Telemetry ingest stores exactly what the per-sample path stored")
struct TelemetryIngestGoldenTests {
    /// Digest of `dump()` after the two batches below, captured on the per-sample path. Since the
    /// sample table lost its rowid, samples are dumped in key order: this digest was taken with that
    /// dump on the schema before the change, where the rowid-ordered digest still matched.
    static let golden = "915b8abedd06b13132489029282101df50259d95d862df85f83590d331bac22b"

    /// A batch body exercising aliases, ISO times, duplicates, nulls, iOS's −1 speed, speeding and
    /// idle gaps (so periods close and are processed into trips), in a shuffled order.
    static func body(batchID: String, startMs: Int64, count: Int, seed: UInt64) -> Data {
        var state = seed
        func next() -> UInt64 { state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407; return state >> 33 }
        var samples: [String] = []
        for index in 0..<count {
            // A 700 s pause every 150 samples closes the period (idle timeout 600 s).
            let ms = startMs + Int64(index) * 2000 + Int64(index / 150) * 700_000
            let latitude = 40.2 + Double(index) * 0.000271 + Double(next() % 1000) * 1e-9
            var fields: [String] = []
            switch index % 5 {
            case 0: fields.append("\"timestampMs\":\(ms)")
            case 1: fields.append("\"t\":\(ms)")
            case 2: fields.append("\"timestamp\":\"\(Timestamp.format(Date(timeIntervalSince1970: Double(ms) / 1000)))\"")
            case 3: fields.append("\"timestampMs\":\(ms).0")
            default: fields.append("\"timestamp\":null,\"timestampMs\":\(ms)")
            }
            fields.append(index % 3 == 0 ? "\"lat\":\(latitude)" : "\"latitude\":\(latitude)")
            fields.append(index % 4 == 0 ? "\"lon\":-8.4" : "\"longitude\":-8.4000000\(index % 10)")
            switch index % 6 {
            case 0: fields.append("\"speedMps\":\(15 + Double(next() % 100) / 10)")
            case 1: fields.append("\"speedKmh\":\(50 + next() % 40)")
            case 2: fields.append("\"speedMps\":-1")
            case 3: fields.append("\"speedMps\":null,\"speedKmh\":1.25e1")
            default: break
            }
            if index % 7 == 0 { fields.append("\"speedLimitKmh\":50") }
            switch index % 4 {
            case 0: fields.append("\"screenLocked\":true,\"handsFree\":false")
            case 1: fields.append("\"screenLocked\":false")
            case 2: fields.append("\"phoneInUse\":true,\"screenLocked\":true")
            default: fields.append("\"screenLocked\":false,\"handsFree\":true")
            }
            fields.append(index % 2 == 0 ? "\"courseDeg\":\(next() % 360)" : "\"headingDeg\":\(Double(next() % 3600) / 10)")
            fields.append(index % 3 == 0 ? "\"horizontalAccuracyM\":5" : "\"accuracyM\":\(Double(next() % 100) / 7)")
            if index % 5 == 0 { fields.append("\"altitudeM\":\(Double(next() % 10000) / 100)") } else if index % 5 == 1 { fields.append("\"altM\":null") }
            fields.append("\"extra\":{\"nested\":[1,2,{\"x\":\"y\"}]}")
            samples.append("{" + fields.joined(separator: ",") + "}")
            // Every 40th sample repeats with another position: the first stored wins.
            if index % 40 == 0 { samples.append("{\"timestampMs\":\(ms),\"latitude\":1,\"longitude\":2}") }
        }
        // Reverse blocks of 10, so the parser's sort has work to do.
        var shuffled: [String] = []
        for start in stride(from: 0, to: samples.count, by: 10) { shuffled += samples[start..<min(start + 10, samples.count)].reversed() }
        return Data("{\"batchId\":\"\(batchID)\",\"deviceId\":\"dev-1\",\"platform\":\"ios\",\"samples\":[\(shuffled.joined(separator: ","))]}".utf8)
    }

    /// Every stored row of the project's telemetry tables, doubles as bit patterns.
    static func dump(_ connection: any StoreConnection) throws -> String {
        var lines: [String] = []
        for table in ["telematics_samples", "telematics_periods", "telematics_trips", "telematics_batches"] {
            // Samples have no rowid (a table keyed by user and time): they are listed in key order.
            let select = table == "telematics_samples" ? "SELECT * FROM \(table) ORDER BY project_id, user_id, ts_ms" : "SELECT rowid AS rid, * FROM \(table) ORDER BY rowid"
            for row in try connection.query(select) {
                let cells = row.values.map { value -> String in
                    switch value {
                    case .null: return "null"
                    case .integer(let number): return "i\(number)"
                    case .real(let number): return "r" + String(number.bitPattern, radix: 16)
                    case .text(let text): return "t" + text
                    case .blob(let data): return "b\(data.count)"
                    }
                }
                lines.append(table + " " + cells.joined(separator: "|"))
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test("a sample row decodes by position as by name, with the same errors")
    func positionalSampleDecoding() throws {
        func row(_ values: [SQLValue]) -> Row { Row(columns: Sample.columns, values: values) }
        let values: [SQLValue] = [.integer(5), .real(40.5), .integer(-8), .null, .real(90), .null, .real(1.5), .null, .integer(1)]
        #expect(try Sample(positional: row(values)) == Sample(row: row(values)))
        #expect(try Sample(positional: row(values)).phoneInUse == true)
        var nullTime = values
        nullTime[0] = .null
        #expect(throws: RowDecodingError.unexpectedNull("ts_ms")) { try Sample(positional: row(nullTime)) }
        #expect(throws: RowDecodingError.unexpectedNull("ts_ms")) { try Sample(row: row(nullTime)) }
        var textSpeed = values
        textSpeed[3] = .text("fast")
        #expect(throws: RowDecodingError.wrongType(column: "speed_kmh", expected: "Double", found: "TEXT")) { try Sample(positional: row(textSpeed)) }
        #expect(throws: RowDecodingError.wrongType(column: "speed_kmh", expected: "Double", found: "TEXT")) { try Sample(row: row(textSpeed)) }
    }

    @Test("two overlapping batches store the same samples, periods, trips and batch rows as before")
    func storedRowsMatchThePerSamplePath() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("telemetry-golden-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let connection = try SQLiteConnection(path: directory.appendingPathComponent("db.sqlite").path)
        _ = try Migrator(directory: Migrator.locateDirectory(configured: nil)).migrate(connection)
        try connection.run("INSERT INTO projects (id, name, created_at) VALUES ('p1', 'golden', '2026-01-01T00:00:00Z')")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let store = TelematicsStore(connection: connection)
        var accepted: [Int] = []
        // The second batch starts inside the first, so some of its samples are already stored.
        for (batchID, start, seed) in [("b-one", Int64(1_790_000_000_000), UInt64(1)), ("b-two", Int64(1_790_000_100_000), UInt64(2))] {
            let batch = try TelemetryParser.parseBatch(Self.body(batchID: batchID, startMs: start, count: 400, seed: seed))
            let count = try connection.transaction {
                let processor = PeriodProcessor(store: store, project: "p1", settings: TelematicsSettings(), now: now)
                let count = try processor.ingest(userID: 7, batchID: batchID, batch: batch, vehicleID: 3, serviceCode: "SVC")
                try store.insertBatch(
                    "p1", batchID: batchID, userID: 7, batch: batch, vehicleID: 3, serviceCode: "SVC", accepted: count,
                    at: now.timeIntervalSince1970)
                return count
            }
            accepted.append(count)
        }
        let dump = try Self.dump(connection)
        let digest = SHA256Digest.hex(Data(("accepted \(accepted)\n" + dump).utf8))
        let trips = try connection.query("SELECT count(*) AS n FROM telematics_trips").first?.values.first
        #expect(trips != .integer(0), "the batches must yield trips, or the digest would not cover segmentation")
        if digest != Self.golden {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("telemetry-golden-dump.txt")
            try? Data(("accepted \(accepted)\n" + dump).utf8).write(to: path)
            Issue.record("stored rows differ from the per-sample path: digest \(digest), accepted \(accepted); the dump is at \(path.path)")
        }
    }
}
