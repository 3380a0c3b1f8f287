import EmulatorCore
import Foundation

/// The keys a telemetry sample is read by (with the SDK's aliases), in one fixed order so a
/// scanned sample can keep its values in a small array instead of a dictionary.
enum SampleKey: Int, CaseIterable {
    case timestampMs, timestamp, t, latitude, lat, longitude, lon, speedMps, speedKmh, phoneInUse, screenLocked, handsFree
    case courseDeg, headingDeg, horizontalAccuracyM, accuracyM, altitudeM, altM, speedLimitKmh

    /// The member name on the wire.
    var name: String { Self.names[rawValue] }

    private static let names = allCases.map { "\($0.wireName)" }

    /// The member name as a literal, which the scanner compares bytes against without a lookup.
    var wireName: StaticString {
        switch self {
        case .timestampMs: "timestampMs"
        case .timestamp: "timestamp"
        case .t: "t"
        case .latitude: "latitude"
        case .lat: "lat"
        case .longitude: "longitude"
        case .lon: "lon"
        case .speedMps: "speedMps"
        case .speedKmh: "speedKmh"
        case .phoneInUse: "phoneInUse"
        case .screenLocked: "screenLocked"
        case .handsFree: "handsFree"
        case .courseDeg: "courseDeg"
        case .headingDeg: "headingDeg"
        case .horizontalAccuracyM: "horizontalAccuracyM"
        case .accuracyM: "accuracyM"
        case .altitudeM: "altitudeM"
        case .altM: "altM"
        case .speedLimitKmh: "speedLimitKmh"
        }
    }
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
                    if scanner.equals(key, "samples" as StaticString) {
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

    private static func scanSamples(_ scanner: inout JSONScanner) -> [Sample]? {
        guard scanner.consume(UInt8(ascii: "[")) else { return nil }
        var samples: [Sample] = []
        if scanner.consume(UInt8(ascii: "]")) { return samples }
        // Rough capacity from the remaining bytes (a sample is rarely under 100 bytes).
        samples.reserveCapacity(min(100_000, (scanner.bytes.count - scanner.index) / 100 + 1))
        // One slot per key, on the stack, read only where the sample's `seen` bits say it was set:
        // scanned scalars hold no references, so a sample costs no reset, retain or release of its
        // slots (an array of `JSONValue?` cost a tenth of a batch in exactly that).
        return withUnsafeTemporaryAllocation(of: JSONScanner.Scalar.self, capacity: SampleKey.allCases.count) { slots in
            while true {
                guard let sample = scanSample(&scanner, index: samples.count, slots: slots) else { return nil }
                samples.append(sample)
                if scanner.consume(UInt8(ascii: ",")) { continue }
                guard scanner.consume(UInt8(ascii: "]")) else { return nil }
                return samples
            }
        }
    }

    private static func scanSample(_ scanner: inout JSONScanner, index: Int, slots: UnsafeMutableBufferPointer<JSONScanner.Scalar>) -> Sample? {
        guard scanner.consume(UInt8(ascii: "{")) else { return nil }
        var seen: UInt32 = 0
        if !scanner.consume(UInt8(ascii: "}")) {
            while true {
                scanner.skipWhitespace()
                guard let name = scanner.string(), scanner.consume(UInt8(ascii: ":")) else { return nil }
                if let key = key(scanner, name) {
                    let bit: UInt32 = 1 << UInt32(key.rawValue)
                    guard seen & bit == 0, let scalar = scanner.scalar() else { return nil }
                    seen |= bit
                    slots.initializeElement(at: key.rawValue, to: scalar)
                } else {
                    guard scanner.skipValue() else { return nil }
                }
                if scanner.consume(UInt8(ascii: ",")) { continue }
                guard scanner.consume(UInt8(ascii: "}")) else { return nil }
                break
            }
        }
        do {
            return try TelemetryParser.parseSample(index: index) { key -> JSONValue? in
                guard seen & (1 << UInt32(key.rawValue)) != 0 else { return nil }
                switch slots[key.rawValue] {
                case .null: return .null
                case .bool(let flag): return .bool(flag)
                case .int(let number): return .int(number)
                case .double(let number): return .double(number)
                case .string(let range): return .string(scanner.text(range))
                }
            }
        } catch {
            return nil
        }
    }

    /// The sample key a scanned member name spells, if any: picked by length and a byte or two,
    /// then confirmed in full (a loop over every key's bytes was a tenth of a batch).
    static func key(_ scanner: JSONScanner, _ name: Range<Int>) -> SampleKey? {
        guard !name.isEmpty else { return nil }
        let bytes = scanner.bytes, first = bytes[name.lowerBound]
        func byte(_ offset: Int) -> UInt8 { bytes[name.lowerBound + offset] }
        let candidate: SampleKey
        switch (name.count, first) {
        case (1, UInt8(ascii: "t")): return .t
        case (3, UInt8(ascii: "l")): candidate = byte(1) == UInt8(ascii: "a") ? .lat : .lon
        case (4, UInt8(ascii: "a")): candidate = .altM
        case (8, UInt8(ascii: "l")): candidate = .latitude
        case (8, UInt8(ascii: "s")): candidate = byte(5) == UInt8(ascii: "M") ? .speedMps : .speedKmh
        case (9, UInt8(ascii: "t")): candidate = .timestamp
        case (9, UInt8(ascii: "l")): candidate = .longitude
        case (9, UInt8(ascii: "h")): candidate = .handsFree
        case (9, UInt8(ascii: "c")): candidate = .courseDeg
        case (9, UInt8(ascii: "a")): candidate = byte(1) == UInt8(ascii: "c") ? .accuracyM : .altitudeM
        case (10, UInt8(ascii: "p")): candidate = .phoneInUse
        case (10, UInt8(ascii: "h")): candidate = .headingDeg
        case (11, UInt8(ascii: "t")): candidate = .timestampMs
        case (12, UInt8(ascii: "s")): candidate = .screenLocked
        case (13, UInt8(ascii: "s")): candidate = .speedLimitKmh
        case (19, UInt8(ascii: "h")): candidate = .horizontalAccuracyM
        default: return nil
        }
        return scanner.equals(name, candidate.wireName) ? candidate : nil
    }
}
