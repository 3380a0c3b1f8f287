import EmulatorCore
import Foundation
import Testing

@Suite("IDGenerator")
struct IDGeneratorTests {
    /// The version nibble and whether the variant bits are RFC 9562's `10`.
    private func shape(_ id: String) -> (version: Character, rfcVariant: Bool) {
        let characters = Array(id)
        return (characters[14], "89ab".contains(characters[19]))
    }

    @Test("record ids are version-7 UUIDs whose first 48 bits are the time")
    func recordIDShape() throws {
        var generator = IDGenerator()
        let millis: UInt64 = 1_780_000_000_123
        let id = generator.recordUUID(unixMilliseconds: millis)
        #expect(id.count == 36 && UUID(uuidString: id) != nil && id == id.lowercased())
        #expect(shape(id) == ("7", true))
        let timeHex = id.replacingOccurrences(of: "-", with: "").prefix(12)
        #expect(UInt64(timeHex, radix: 16) == millis)
        let fromDate = generator.recordUUID(at: Date(timeIntervalSince1970: 1_780_000_001.5))
        #expect(UInt64(fromDate.replacingOccurrences(of: "-", with: "").prefix(12), radix: 16) == 1_780_000_001_500)
    }

    @Test("one generator's record ids sort in the order it made them: within a millisecond, past 4,096 in one, and when the clock steps back")
    func recordIDsSortInOrder() {
        var generator = IDGenerator()
        var ids: [String] = []
        for millis: UInt64 in [1_000, 1_000, 1_000, 1_001, 999, 1_001, 5_000] { ids.append(generator.recordUUID(unixMilliseconds: millis)) }
        for _ in 0..<5_000 { ids.append(generator.recordUUID(unixMilliseconds: 6_000)) } // more than 12 bits count
        ids.append(generator.recordUUID(unixMilliseconds: 6_001))
        let outOfOrder = zip(ids, ids.dropFirst()).filter { $0 >= $1 }
        #expect(outOfOrder.isEmpty, "\(outOfOrder.count) ids sort before the one made ahead of them, first \(outOfOrder.prefix(1))")
        #expect(ids.allSatisfy { shape($0) == ("7", true) })
    }

    @Test("a seeded generator's record ids are its repeatable version-4 ids")
    func seededRecordIDs() {
        var first = IDGenerator(seed: 99), second = IDGenerator(seed: 99), plain = IDGenerator(seed: 99)
        let ids = (0..<3).map { _ in first.recordUUID() }
        #expect(ids == (0..<3).map { _ in second.recordUUID(unixMilliseconds: 42) })
        #expect(ids == (0..<3).map { _ in plain.uuid() })
        #expect(ids.allSatisfy { shape($0) == ("4", true) })
        #expect(first.isSeeded && !IDGenerator().isSeeded)
    }

    @Test("ascending numbers count up by one from the lower half of the range, start over on restart and at its end, and repeat when seeded")
    func ascendingNumbers() {
        let range = 10_000_000...99_999_999
        var generator = IDGenerator()
        let first = generator.ascendingNumber(in: range)
        #expect(first >= range.lowerBound && first <= range.lowerBound + (range.upperBound - range.lowerBound) / 2)
        #expect((0..<5).map { _ in generator.ascendingNumber(in: range) } == Array(first + 1...first + 5))
        // A restart draws a new start (the chance of landing on the next number is one in 45 million).
        #expect(generator.ascendingNumber(in: range, restart: true) != first + 6)
        var small = IDGenerator()
        let numbers = (0..<40).map { _ in small.ascendingNumber(in: 1...10) }
        #expect(numbers.allSatisfy { (1...10).contains($0) }, "\(numbers)")
        #expect(zip(numbers, numbers.dropFirst()).contains { $1 < $0 }, "passing 10 starts over: \(numbers)")
        var seeded = IDGenerator(seed: 5), again = IDGenerator(seed: 5)
        #expect((0..<3).map { _ in seeded.ascendingNumber(in: range) } == (0..<3).map { _ in again.ascendingNumber(in: range) })
    }
}
