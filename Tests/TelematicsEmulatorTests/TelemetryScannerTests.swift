import EmulatorCore
import Foundation
import Testing

@testable import TelematicsEmulator

/// The one-pass telemetry decode gives the reference parse's batch or gives up, so the route's
/// answers (accepted batches and 400s alike) are the reference path's.
@Suite("Telemetry scanner")
struct TelemetryScannerTests {
    /// One random member value for a sample key: mostly well-formed, sometimes null, mistyped or odd.
    static func value(for key: String, _ generator: inout SystemRandomNumberGenerator) -> String {
        switch Int.random(in: 0..<12, using: &generator) {
        case 0: return "null"
        case 1: return "\"text\""
        case 2: return Bool.random(using: &generator) ? "true" : "false"
        case 3: return "[1]"
        case 4: return "\"2026-11-03T12:00:0\(Int.random(in: 0...9, using: &generator)).250Z\""
        case 5: return "-1"
        case 6: return String(Double.random(in: -200...200, using: &generator))
        case 7: return "1.5e2"
        default:
            switch key {
            case "timestampMs", "t": return String(1_790_000_000_000 + Int64.random(in: 0..<1_000_000, using: &generator))
            case "latitude", "lat": return String(Double.random(in: -90...90, using: &generator))
            case "longitude", "lon": return String(Double.random(in: -180...180, using: &generator))
            case "phoneInUse", "screenLocked", "handsFree": return Bool.random(using: &generator) ? "true" : "false"
            default: return String(Int.random(in: 0...400, using: &generator))
            }
        }
    }

    static let keys = SampleKey.allCases.map(\.name) + ["platform", "extra"]

    /// A random batch body (valid most of the time).
    static func body(_ generator: inout SystemRandomNumberGenerator) -> String {
        var samples: [String] = []
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            var fields = ["\"timestampMs\":\(1_790_000_000_000 + Int64.random(in: 0..<1_000_000, using: &generator))", "\"latitude\":40.5", "\"longitude\":-8.25"]
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                let key = keys.randomElement(using: &generator)!
                fields.append("\"\(key)\":\(value(for: key, &generator))")
            }
            fields.shuffle(using: &generator)
            samples.append("{" + fields.joined(separator: ",") + "}")
        }
        var members = ["\"samples\":[" + samples.joined(separator: ",") + "]"]
        let extras = [
            "\"batchId\":\"B-1\"", "\"batchId\":7", "\"batchId\":\"\"", "\"userId\":5", "\"userId\":\"x\"", "\"vehicleId\":2.0",
            "\"deviceId\":\"d\"", "\"serviceCode\":\"S\"", "\"events\":[]", "\"events\":[{\"type\":\"hardBraking\",\"timestampMs\":1790000000500}]",
            "\"events\":{}", "\"attentionEvents\":[]", "\"platform\":\"ios\"",
        ]
        for _ in 0..<Int.random(in: 0...3, using: &generator) { members.append(extras.randomElement(using: &generator)!) }
        members.shuffle(using: &generator)
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The outcome of a parse, comparable: the batch's contents or the error.
    static func outcome(_ parse: () throws(TelematicsError) -> TelemetryBatch) -> String {
        do throws(TelematicsError) {
            let batch = try parse()
            return "ok \(batch.batchId ?? "-") \(batch.userId ?? -1) \(batch.vehicleId ?? -1) \(batch.serviceCode ?? "-") \(batch.deviceId ?? "-") "
                + "\(batch.samples) \(batch.events) \(batch.attentionEvents)"
        } catch {
            return "error \(error.status) \(error.code) \(error.message)"
        }
    }

    @Test("1,000 random bodies: the scanned parse and the reference parse give the same batch or the same error")
    func differential() {
        var generator = SystemRandomNumberGenerator()
        var scanned = 0, mismatches: [String] = []
        for _ in 0..<1000 {
            let text = Self.body(&generator)
            let data = Data(text.utf8)
            if TelemetryScanner.scan(data) != nil { scanned += 1 }
            let fast = Self.outcome { () throws(TelematicsError) in try TelemetryParser.parseBatch(data) }
            let reference = Self.outcome { () throws(TelematicsError) in try TelemetryParser.parseBatchReference(data) }
            if fast != reference { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "differ: \(mismatches.prefix(3))")
        #expect(scanned > 100, "the scanner took only \(scanned) of 1,000 bodies")
    }

    @Test("every sample key's name finds that key, and names a byte or a letter off find none")
    func keyLookup() {
        func lookup(_ name: String) -> SampleKey? {
            let quoted = Array("\"\(name)\"".utf8)
            return quoted.withUnsafeBufferPointer { bytes in
                var scanner = JSONScanner(bytes: bytes)
                guard let range = scanner.string() else { return nil }
                return TelemetryScanner.key(scanner, range)
            }
        }
        #expect(Set(SampleKey.allCases.map(\.name)).count == SampleKey.allCases.count)
        for key in SampleKey.allCases {
            #expect(lookup(key.name) == key, "\(key.name)")
            // The same length with the last byte changed, one byte longer and one shorter.
            #expect(lookup(String(key.name.dropLast()) + "_") == nil, "\(key.name)")
            #expect(lookup(key.name + "s") == nil, "\(key.name)")
            if key.name.count > 1 { #expect(lookup(String(key.name.dropLast())) == nil, "\(key.name)") }
            #expect(lookup(key.name.uppercased()) == nil, "\(key.name)")
        }
        for name in ["", "x", "la", "lan", "alt", "speedXps", "accuracyN", "altitudeN", "headingDex", "timestampMS"] {
            #expect(lookup(name) == nil, "\(name)")
        }
    }

    @Test("the SDK's plain batch and a bare array are scanned, not reparsed")
    func commonShapeIsScanned() throws {
        let body = Data(
            """
            {"batchId":"A","deviceId":"d","platform":"ios","samples":[{"timestampMs":1790000001000,"latitude":40.2,"longitude":-8.4,"speedMps":15,
            "courseDeg":0,"horizontalAccuracyM":5,"screenLocked":true,"handsFree":false},{"t":1790000000000,"lat":40.1,"lon":-8.4,"speedKmh":-1}]}
            """.utf8)
        let scan = try #require(TelemetryScanner.scan(body))
        #expect(scan.samples.count == 2 && scan.members["batchId"] == "A" && scan.members["platform"] == "ios")
        #expect(
            scan.samples[0]
                == Sample(
                    timestampMs: 1_790_000_001_000, latitude: 40.2, longitude: -8.4, speedKmh: 54, courseDeg: 0,
                    horizontalAccuracyM: 5, phoneInUse: false))
        let batch = try TelemetryParser.parseBatch(body)
        #expect(batch.batchId == "a" && batch.samples.map(\.timestampMs) == [1_790_000_000_000, 1_790_000_001_000] && batch.samples[0].speedKmh == nil)
        #expect(TelemetryScanner.scan(Data("[{\"t\":5,\"lat\":1,\"lon\":2}]".utf8))?.samples.count == 1)
    }

    @Test("malformed samples: the scanner gives up and the route's 400 is the reference parse's")
    func malformedSamples() {
        let cases: [(String, String)] = [
            ("{\"samples\":[{\"latitude\":1,\"longitude\":2}]}", "`samples.0.timestampMs` is required (epoch ms or ISO 8601)."),
            ("{\"samples\":[{\"t\":1,\"latitude\":91,\"longitude\":2}]}", "`samples.0` needs a `latitude` in −90…90 and a `longitude` in −180…180."),
            ("{\"samples\":[{\"t\":1,\"latitude\":1,\"longitude\":\"2\"}]}", "`samples.0` needs a `latitude` in −90…90 and a `longitude` in −180…180."),
            ("{\"samples\":[{\"t\":1,\"lat\":1,\"lon\":2}, 5]}", "`samples.1` must be an object."),
            ("{\"samples\":[{\"t\":\"yesterday\",\"lat\":1,\"lon\":2}]}", "`samples.0.timestampMs` is required (epoch ms or ISO 8601)."),
            ("{\"samples\":[{\"t\":1e300,\"lat\":1,\"lon\":2}]}", "`samples.0.timestampMs` is required (epoch ms or ISO 8601)."),
            ("{\"samples\":[{\"t\":1,\"lat\":1,\"lon\":2,}]}", "The telemetry body is not valid JSON."),
            ("{\"samples\":[{\"t\":1,\"lat\":1,\"lon\":2}]} x", "The telemetry body is not valid JSON."),
            ("{\"samples\":{}}", "`samples` must be an array."),
            ("{\"samples\":[],\"batchId\":3}", "`batchId` must be a non-empty string."),
            ("\"samples\"", "The telemetry body must be an object with `samples`."),
            ("{\"batchId\":\"x\"}", "`samples` must be an array."),
        ]
        for (text, message) in cases {
            let data = Data(text.utf8)
            let fast = Self.outcome { () throws(TelematicsError) in try TelemetryParser.parseBatch(data) }
            #expect(fast == "error 400 INVALID_BATCH \(message)", "\(text)")
            #expect(fast == Self.outcome { () throws(TelematicsError) in try TelemetryParser.parseBatchReference(data) }, "\(text)")
        }
        // A repeated key, an escape or UTF-8 in a sample: not scanned, but still accepted by the reference parse.
        for text in [
            "{\"samples\":[{\"t\":1,\"t\":2,\"lat\":1,\"lon\":2}]}", "{\"samples\":[{\"t\":1,\"lat\":1,\"lon\":2,\"n\":\"\\u00e9\"}]}",
            "{\"samples\":[{\"t\":1,\"lat\":1,\"lon\":2,\"n\":\"\u{e9}\"}]}",
        ] {
            #expect(TelemetryScanner.scan(Data(text.utf8)) == nil, "\(text)")
            #expect((try? TelemetryParser.parseBatch(Data(text.utf8)))?.samples.count == 1, "\(text)")
        }
    }
}
