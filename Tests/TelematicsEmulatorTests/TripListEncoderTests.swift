import EmulatorCore
import Foundation
import Storage
import Testing

@testable import TelematicsEmulator

@Suite("Trip list encoder prints what the Wire.tripResume trees printed")
struct TripListEncoderTests {
    static let columns = [
        "id", "user_id", "vehicle_id", "period_id", "started_ms", "ended_ms", "distance_km", "duration_sec", "start_lat", "start_lon", "end_lat",
        "end_lon", "avg_speed_kmh", "max_speed_kmh", "score", "hard_braking_count", "abrupt_acceleration_count", "hard_cornering_count",
        "speeding_count", "sample_speeding_count", "speeding_duration_sec", "distraction_count", "distraction_duration_sec", "manual_event_count",
    ]

    /// xorshift: deterministic, so a failing case reproduces.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        mutating func int(_ range: ClosedRange<Int64>) -> Int64 { range.lowerBound + Int64(next() % UInt64(range.upperBound - range.lowerBound + 1)) }
        mutating func chance() -> Bool { next() % 3 == 0 }
    }

    static let awkwardDoubles: [Double] = [
        0, -0.0, 0.1, 1e-7, 0.0005, 0.0015, -0.0005, 2.675, 1e14 + 0.4, 1e15, 1e16, 123_456.789_5, -98.7654,
        52.520_008, 13.404_954, -33.868_82, 151.209_296, 179.999_999_9, 1.0 / 3, 7,
    ]

    static func trip(_ random: inout Random, index: Int) -> TripRecord {
        func double() -> SQLValue {
            if random.chance() { return .real(awkwardDoubles[Int(random.next() % UInt64(awkwardDoubles.count))]) }
            return .real(Double(random.int(-1_000_000_000...1_000_000_000)) / Double([1, 10, 1000, 1_000_000][Int(random.next() % 4)]))
        }
        func optionalDouble() -> SQLValue { random.chance() ? .null : double() }
        func optionalInt() -> SQLValue { random.chance() ? .null : .integer(random.int(-5...Int64(Int32.max))) }
        func count() -> SQLValue { .integer(random.chance() ? random.int(Int64(Int32.min)...Int64(Int32.max)) : random.int(0...40)) }
        let start = random.int(-2_000_000_000_000...4_000_000_000_000)
        let values: [SQLValue] = [
            .integer(Int64(index)), .integer(4), optionalInt(), optionalInt(), .integer(start), .integer(start + random.int(0...90_000_000)),
            double(), count(), optionalDouble(), optionalDouble(), optionalDouble(), optionalDouble(), double(), double(), count(), count(), count(),
            count(), count(), count(), count(), count(), count(), count(),
        ]
        let byName = try! TripRecord(row: Row(columns: columns, values: values))
        #expect((try? TripRecord(positional: Row(columns: TripRecord.columns, values: values))) == byName)
        return byName
    }

    static func treeBytes(_ trips: [TripRecord]) -> Data { JSONValue.array(trips.map(Wire.tripResume)).encoded() }

    @Test("random trips: every optional present and absent, negative and large numbers, awkward fractions")
    func randomTrips() {
        var random = Random(state: 0x2545_F491_4F6C_DD1D)
        for round in 0..<300 {
            let trips = (0..<Int(random.next() % 6)).map { Self.trip(&random, index: round * 10 + $0) }
            let direct = TripListEncoder.encode(trips)
            #expect(direct == Self.treeBytes(trips), "round \(round): \(String(decoding: direct, as: UTF8.self))")
        }
    }

    @Test("an empty list and a list of 100 seeded-looking trips")
    func shapes() throws {
        #expect(TripListEncoder.encode([]) == Self.treeBytes([]))
        #expect(String(decoding: TripListEncoder.encode([]), as: UTF8.self) == "[]")
        let trips = (0..<100).map { day -> TripRecord in
            let start = Int64(1_672_560_000_000 + day * 86_400_000)
            let values: [SQLValue] = [
                .integer(Int64(day + 1)), .integer(4), .null, .null, .integer(start), .integer(start + 1_800_000), .real(20), .integer(1800),
                .null, .null, .null, .null, .real(40), .real(40), .integer(100), .integer(0), .integer(0), .integer(0), .integer(0), .integer(0),
                .integer(0), .integer(0), .integer(0), .integer(0),
            ]
            return try! TripRecord(row: Row(columns: Self.columns, values: values))
        }
        let direct = TripListEncoder.encode(trips)
        #expect(direct == Self.treeBytes(trips))
        let first = try #require(try JSONValue.parse(direct)[0])
        #expect(first["startedAt"] == "2023-01-01T08:00:00.000000Z")
        #expect(first["startLocation"] == .null)
    }

    static func outcome(_ read: () throws -> TripRecord) -> (record: TripRecord?, error: RowDecodingError?) {
        do { return (try read(), nil) } catch { return (nil, error as? RowDecodingError) }
    }

    @Test("the positional read of the trip list refuses what the read by name refuses, with the same error")
    func positionalErrors() throws {
        #expect(Self.columns == TripRecord.columns)
        let base: [SQLValue] = [
            .integer(1), .integer(4), .null, .integer(3), .integer(0), .integer(1), .real(1), .integer(1), .null, .null, .null,
            .null, .real(1), .real(1), .integer(1), .integer(0), .integer(0), .integer(0), .integer(0), .integer(0), .integer(0),
            .integer(0), .integer(0), .integer(0),
        ]
        for index in base.indices {
            for bad in [SQLValue.text("x"), .null] {
                var values = base
                values[index] = bad
                let byName = Self.outcome { try TripRecord(row: Row(columns: Self.columns, values: values)) }
                let positional = Self.outcome { try TripRecord(positional: Row(columns: TripRecord.columns, values: values)) }
                #expect(byName.record == positional.record && byName.error == positional.error, "column \(index) = \(bad)")
                if case .null = bad, [2, 3, 8, 9, 10, 11].contains(index) { #expect(byName.record != nil) } else { #expect(byName.error != nil) }
            }
        }
        #expect(throws: RowDecodingError.self) { try TripRecord(positional: Row(columns: Array(TripRecord.columns.dropLast()), values: Array(base.dropLast()))) }
    }
}
