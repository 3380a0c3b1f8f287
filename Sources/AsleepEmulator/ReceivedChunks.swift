/// The sequence numbers of the chunks a session has received.
///
/// They are small consecutive integers (0 … lastSeqNum; a night is 960), so they live in a bitmap:
/// as a `Set<Int>`, building and probing them was an eighth of a report fetch, all of it hashing.
/// Numbers outside the bitmap's range (negative, or past a million) are kept in a set.
public struct ReceivedChunks: Sendable, ExpressibleByArrayLiteral {
    private static let bitmapLimit = 1 << 20
    private var present: [Bool] = []
    private var outliers: Set<Int> = []
    /// How many distinct numbers there are.
    public private(set) var count = 0

    /// The distinct numbers of `numbers` (repeats count once).
    public init<S: Sequence>(_ numbers: S) where S.Element == Int {
        for number in numbers { insert(number) }
    }

    /// The numbers listed.
    public init(arrayLiteral numbers: Int...) { self.init(numbers) }

    private mutating func insert(_ number: Int) {
        guard number >= 0, number < Self.bitmapLimit else {
            if outliers.insert(number).inserted { count += 1 }
            return
        }
        if number >= present.count { present.append(contentsOf: repeatElement(false, count: number + 1 - present.count)) }
        if !present[number] {
            present[number] = true
            count += 1
        }
    }

    /// Whether chunk `number` was received.
    public func contains(_ number: Int) -> Bool {
        number >= 0 && number < present.count ? present[number] : outliers.contains(number)
    }

    /// How many of the numbers are below `limit` (the chunks that count towards a session of `limit` chunks).
    public func count(below limit: Int) -> Int {
        var total = outliers.reduce(0) { $0 + ($1 < limit ? 1 : 0) }
        for index in 0..<max(0, min(limit, present.count)) where present[index] { total += 1 }
        return total
    }
}
