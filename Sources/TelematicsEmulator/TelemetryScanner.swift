import EmulatorCore
import Foundation

/// The keys a telemetry sample is read by (with the SDK's aliases), in one fixed order so a
/// scanned sample can keep its values in a small array instead of a dictionary.
enum SampleKey: Int, CaseIterable {
    case timestampMs, timestamp, t, latitude, lat, longitude, lon, speedMps, speedKmh, phoneInUse, screenLocked, handsFree
    case courseDeg, headingDeg, horizontalAccuracyM, accuracyM, altitudeM, altM, speedLimitKmh

    /// The member name on the wire.
    var name: String { Self.names[rawValue] }

    private static let names = ["timestampMs", "timestamp", "t", "latitude", "lat", "longitude", "lon", "speedMps", "speedKmh", "phoneInUse",
                                "screenLocked", "handsFree", "courseDeg", "headingDeg", "horizontalAccuracyM", "accuracyM", "altitudeM", "altM",
                                "speedLimitKmh"]
    /// The names' bytes, for comparing scanned keys without making strings.
    static let utf8Names: [[UInt8]] = names.map { Array($0.utf8) }
}

/// The one-pass decode of a telemetry body: samples go straight from the bytes into `Sample`
/// values, without a `JSONValue` tree or a dictionary per sample. It gives up (nil) on anything
/// unusual — invalid or unexpected JSON, escapes, repeated keys, a sample the rules refuse — and
/// `TelemetryParser` then runs the reference parse, which gives the client its precise 400.
enum TelemetryScanner {
    /// The top-level members other than `samples` (parsed by the reference parser, they are few and
    /// small) and the samples in body order; nil when the reference path must decide.
    static func scan(_ data: Data) -> (members: [String: JSONValue], samples: [Sample])? {
        data.withUnsafeBytes { raw -> (members: [String: JSONValue], samples: [Sample])? in
            var scanner = JSONScanner(bytes: raw.bindMemory(to: UInt8.self))
            var members: [String: JSONValue] = [:]
            var samples: [Sample]?
            scanner.skipWhitespace()
            if scanner.peek == UInt8(ascii: "[") {
                samples = scanSamples(&scanner)
            } else {
                guard scanner.consume(UInt8(ascii: "{")) else { return nil }
                if scanner.consume(UInt8(ascii: "}")) { return nil } // no `samples`: the reference path's 400
                while true {
                    scanner.skipWhitespace()
                    guard let key = scanner.string(), scanner.consume(UInt8(ascii: ":")) else { return nil }
                    scanner.skipWhitespace()
                    if scanner.equals(key, samplesKey) {
                        guard samples == nil, scanner.peek == UInt8(ascii: "["), let scanned = scanSamples(&scanner) else { return nil }
                        samples = scanned
                    } else {
                        let start = scanner.index
                        guard scanner.skipValue() else { return nil }
                        let slice = UnsafeRawBufferPointer(rebasing: raw[start..<scanner.index])
                        guard let value = try? JSONValue.parse(Data(slice)) else { return nil }
                        members[scanner.text(key)] = value // a repeated member: the last wins, as in the reference parse
                    }
                    if scanner.consume(UInt8(ascii: ",")) { continue }
                    guard scanner.consume(UInt8(ascii: "}")) else { return nil }
                    break
                }
            }
            scanner.skipWhitespace()
            guard scanner.atEnd, let samples else { return nil }
            return (members, samples)
        }
    }

    private static let samplesKey = Array("samples".utf8)

    private static func scanSamples(_ scanner: inout JSONScanner) -> [Sample]? {
        guard scanner.consume(UInt8(ascii: "[")) else { return nil }
        var samples: [Sample] = []
        if scanner.consume(UInt8(ascii: "]")) { return samples }
        // Rough capacity from the remaining bytes (a sample is rarely under 100 bytes).
        samples.reserveCapacity(min(100_000, (scanner.bytes.count - scanner.index) / 100 + 1))
        var slots = [JSONValue?](repeating: nil, count: SampleKey.allCases.count)
        while true {
            guard let sample = scanSample(&scanner, index: samples.count, slots: &slots) else { return nil }
            samples.append(sample)
            if scanner.consume(UInt8(ascii: ",")) { continue }
            guard scanner.consume(UInt8(ascii: "]")) else { return nil }
            return samples
        }
    }

    private static func scanSample(_ scanner: inout JSONScanner, index: Int, slots: inout [JSONValue?]) -> Sample? {
        guard scanner.consume(UInt8(ascii: "{")) else { return nil }
        for position in slots.indices { slots[position] = nil }
        if !scanner.consume(UInt8(ascii: "}")) {
            var seen: UInt32 = 0
            while true {
                scanner.skipWhitespace()
                guard let name = scanner.string(), scanner.consume(UInt8(ascii: ":")) else { return nil }
                if let key = key(scanner, name) {
                    let bit: UInt32 = 1 << UInt32(key.rawValue)
                    guard seen & bit == 0, let scalar = scanner.scalar() else { return nil }
                    seen |= bit
                    switch scalar {
                    case .null: slots[key.rawValue] = .null
                    case .bool(let flag): slots[key.rawValue] = .bool(flag)
                    case .int(let number): slots[key.rawValue] = .int(number)
                    case .double(let number): slots[key.rawValue] = .double(number)
                    case .string(let range): slots[key.rawValue] = .string(scanner.text(range))
                    }
                } else {
                    guard scanner.skipValue() else { return nil }
                }
                if scanner.consume(UInt8(ascii: ",")) { continue }
                guard scanner.consume(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        do {
            return try TelemetryParser.parseSample(index: index) { slots[$0.rawValue] }
        } catch {
            return nil
        }
    }

    private static func key(_ scanner: JSONScanner, _ name: Range<Int>) -> SampleKey? {
        for (position, bytes) in SampleKey.utf8Names.enumerated() where bytes.count == name.count && scanner.equals(name, bytes) {
            return SampleKey(rawValue: position)
        }
        return nil
    }
}
