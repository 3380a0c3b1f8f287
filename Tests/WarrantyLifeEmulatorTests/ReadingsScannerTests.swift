import EmulatorCore
import Foundation
import Testing

@testable import WarrantyLifeEmulator

/// The one-pass readings check accepts only what the reference validation accepts, with the same
/// count, and takes the SDK's usual batch without falling back.
@Suite("Readings scanner")
struct ReadingsScannerTests {
    /// The reference answer: the count, or the 400's message.
    static func reference(_ data: Data) -> String {
        do throws(WarrantyLifeError) {
            return "ok \(try WarrantyLifeService.validateReadings(WireBody.json(data, what: "The readings body")))"
        } catch {
            return "error \(error.message)"
        }
    }

    static let timestamps = [
        "2026-11-30 10:00:01.123", "2026-11-30 10:00:01", "2024-02-29 23:59:60.5", "2023-02-29 10:00:00.000",
        "2026-13-01 10:00:00.000", "2026-11-31 10:00:00.000", "2026-11-30 24:00:00.000", "2026-11-30 10:60:00.000",
        "2026-11-30 10:00:61.000", "2026-11-30T10:00:00.000", "2026-11-30  10:00:00", "2026-11-30 10:00:00.",
        "2026-11-30 10:00:00.12a", "0999-01-01 00:00:00", "12026-11-30 10:00:00", "2026-1-30 10:00:00", "", "x",
    ]

    static func field(_ generator: inout SystemRandomNumberGenerator) -> String {
        let keys = WarrantyLifeService.numericReadingFields + ["readingAt", "readingAt", "note", "other"]
        let key = keys.randomElement(using: &generator)!
        let values = ["1", "-0.5", "1e3", "null", "true", "\"text\"", "[1,2]", "{\"a\":1}", "\"\(timestamps.randomElement(using: &generator)!)\""]
        let value =
            key == "readingAt" && Bool.random(using: &generator)
            ? "\"2026-11-30 10:00:0\(Int.random(in: 0...9, using: &generator)).250\"" : values.randomElement(using: &generator)!
        return "\"\(key)\":\(value)"
    }

    @Test("1,500 random batches: whenever the scanner answers, the reference validation gives the same count")
    func differential() {
        var generator = SystemRandomNumberGenerator()
        var answered = 0, mismatches: [String] = []
        for _ in 0..<1500 {
            var readings: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                readings.append("{" + (0..<Int.random(in: 0...4, using: &generator)).map { _ in Self.field(&generator) }.joined(separator: ",") + "}")
            }
            let text = "[" + readings.joined(separator: ",") + "]"
            let data = Data(text.utf8)
            guard let count = ReadingsScanner.count(data) else { continue }
            answered += 1
            if Self.reference(data) != "ok \(count)" { mismatches.append(text) }
        }
        #expect(mismatches.isEmpty, "the scanner accepted what the reference refuses: \(mismatches.prefix(3))")
        #expect(answered > 150, "the scanner answered only \(answered) of 1,500")
    }

    @Test("device-local timestamps: the fast check accepts a subset of the reference, including the SDK's format")
    func timestamps() {
        for text in Self.timestamps {
            let bytes = Array(text.utf8)
            let fast = bytes.withUnsafeBufferPointer { ReadingsScanner.isLocalTimestamp(JSONScanner(bytes: $0), 0..<bytes.count) }
            if fast { #expect(WarrantyLifeService.isLocalTimestampByParsing(text), "\(text)") }
            #expect(WarrantyLifeService.isLocalTimestamp(text) == WarrantyLifeService.isLocalTimestampByParsing(text), "\(text)")
        }
        let accepted = ["2026-11-30 10:00:01.123", "2026-11-30 10:00:01", "2024-02-29 23:59:60.5"]
        for text in accepted {
            let bytes = Array(text.utf8)
            #expect(bytes.withUnsafeBufferPointer { ReadingsScanner.isLocalTimestamp(JSONScanner(bytes: $0), 0..<bytes.count) }, "\(text)")
        }
    }

    @Test("the SDK's batch is counted in one pass; malformed batches fall back to the reference 400")
    func commonAndMalformed() {
        let reading = "{\"readingAt\":\"2026-11-30 10:00:01.123\",\"accelerationX\":-0.01,\"pressure\":-1,\"phase\":5000}"
        let batch = Data(("[" + Array(repeating: reading, count: 3).joined(separator: ",") + "]").utf8)
        #expect(ReadingsScanner.count(batch) == 3)
        #expect(ReadingsScanner.count(Data(" [ ] ".utf8)) == 0)
        let malformed: [(String, String)] = [
            ("[{\"accelerationX\":\"1\"}]", "Field `0.accelerationX` must be a number."),
            ("[{}, 4]", "Reading 1 must be an object."),
            ("[{\"readingAt\":\"2026-11-31 10:00:00.000\"}]", "Field `0.readingAt` must be a `yyyy-MM-dd HH:mm:ss.SSS` string."),
            ("[{\"readingAt\":null}]", "Field `0.readingAt` must be a `yyyy-MM-dd HH:mm:ss.SSS` string."),
            ("{\"readings\":[]}", "The readings body must be a JSON array of readings."),
            ("[{\"pitch\":1,}]", "The readings body is not valid JSON."),
            ("[{\"pitch\":1}] [", "The readings body is not valid JSON."),
        ]
        for (text, message) in malformed {
            let data = Data(text.utf8)
            #expect(ReadingsScanner.count(data) == nil, "\(text)")
            #expect(Self.reference(data) == "error \(message)", "\(text)")
        }
    }
}
