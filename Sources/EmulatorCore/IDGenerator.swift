/// Random identifiers and credentials; deterministic when created with a seed.
///
/// A project created with a `seed` gets the same ids on every run, so a test can hard-code them.
public struct IDGenerator: Sendable {
    private var state: UInt64
    private let seeded: Bool

    /// A generator; `seed` makes its output repeatable.
    public init(seed: UInt64? = nil) {
        seeded = seed != nil
        var system = SystemRandomNumberGenerator()
        state = seed ?? system.next()
    }

    /// The next 64 random bits (SplitMix64 when seeded, the system generator otherwise).
    public mutating func next() -> UInt64 {
        guard seeded else {
            var system = SystemRandomNumberGenerator()
            return system.next()
        }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    private static let lowerAlphanumerics = Array("abcdefghijklmnopqrstuvwxyz0123456789")
    private static let hexDigits = Array("0123456789abcdef")

    /// `count` characters from A–Z, a–z, 0–9.
    public mutating func alphanumeric(_ count: Int) -> String { pick(count, from: Self.alphanumerics) }
    /// `count` characters from a–z, 0–9.
    public mutating func lowerAlphanumeric(_ count: Int) -> String { pick(count, from: Self.lowerAlphanumerics) }
    /// `count` lower-case hex digits.
    public mutating func hex(_ count: Int) -> String { pick(count, from: Self.hexDigits) }

    /// A lower-case version-4 UUID string.
    public mutating func uuid() -> String {
        var digits = Array(hex(32))
        digits[12] = "4"
        digits[16] = Self.hexDigits[Int(8 + next() % 4)]
        let text = String(digits)
        let parts = [text.prefix(8), text.dropFirst(8).prefix(4), text.dropFirst(12).prefix(4), text.dropFirst(16).prefix(4), text.dropFirst(20)]
        return parts.joined(separator: "-")
    }

    /// A number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// A number in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    private mutating func pick(_ count: Int, from alphabet: [Character]) -> String {
        var out = ""
        out.reserveCapacity(count)
        for _ in 0..<count { out.append(alphabet[Int(next() % UInt64(alphabet.count))]) }
        return out
    }
}
