import Foundation

/// Random identifiers and credentials; deterministic when created with a seed.
///
/// A project created with a `seed` gets the same ids on every run, so a test can hard-code them.
public struct IDGenerator: Sendable {
    private var state: UInt64
    /// Whether the generator was created with a seed (its output must then repeat run after run).
    public let isSeeded: Bool
    /// The millisecond and sequence of the last `recordUUID`, which the next one must sort after.
    private var lastMillis: UInt64 = 0
    private var sequence: UInt64 = 0
    /// The last `ascendingNumber`, which the next one counts on from (nil: draw a start).
    private var lastNumber: Int?

    /// A generator; `seed` makes its output repeatable. Without one it starts from 64 bits of the
    /// system's randomness and continues with SplitMix64: drawing every word from the system
    /// generator cost a `getrandom` call per 64 bits, 32 of them per UUID, in request profiles.
    /// These are test identifiers and credentials for a local emulator, not secrets.
    public init(seed: UInt64? = nil) {
        var system = SystemRandomNumberGenerator()
        state = seed ?? system.next()
        isSeeded = seed != nil
    }

    /// The next 64 pseudo-random bits (SplitMix64).
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    private static let lowerAlphanumerics = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `count` characters from A–Z, a–z, 0–9.
    public mutating func alphanumeric(_ count: Int) -> String { pick(count, from: Self.alphanumerics) }
    /// `count` characters from a–z, 0–9.
    public mutating func lowerAlphanumeric(_ count: Int) -> String { pick(count, from: Self.lowerAlphanumerics) }
    /// `count` lower-case hex digits.
    public mutating func hex(_ count: Int) -> String { pick(count, from: Self.hexDigits) }

    /// A lower-case version-4 UUID string.
    public mutating func uuid() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for index in 0..<32 {
            if index == 8 || index == 12 || index == 16 || index == 20 { out.append(UInt8(ascii: "-")) }
            switch index {
            case 12: out.append(UInt8(ascii: "4"))
            case 16: out.append(Self.hexDigits[Int(8 + next() % 4)])
            default: out.append(Self.hexDigits[Int(next() % 16)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A lower-case UUID for a record written in volume (a click, an install): version 7, whose first
    /// 48 bits are the time in milliseconds, so one generator's ids sort in the order it made them;
    /// version 4 (`uuid()`) when the generator is seeded, whose ids a test may hard-code.
    ///
    /// A table's unique index on a random id takes each insert on a random leaf page: a
    /// transaction of six resolves rewrote six leaves into the write-ahead log, and a checkpoint
    /// copied each of them again. Ids that sort by time append to the index's last leaf instead.
    /// Not for ids an SDK checks the version of (a link id in Android's install referrer must be
    /// version 1–5).
    public mutating func recordUUID(at date: Date = Date()) -> String {
        recordUUID(unixMilliseconds: UInt64(max(0, date.clampedEpochMilliseconds)))
    }

    /// `recordUUID(at:)` for a time given in milliseconds since 1970.
    ///
    /// Within one millisecond, and when the clock steps back, the 12 bits after the version count
    /// on from the last id (RFC 9562's method 1), so ids stay in order; they start each new
    /// millisecond from a random value below 2,048, leaving room to count.
    public mutating func recordUUID(unixMilliseconds: UInt64) -> String {
        guard !isSeeded else { return uuid() }
        let millis = unixMilliseconds & 0xFFFF_FFFF_FFFF
        if millis > lastMillis {
            lastMillis = millis
            sequence = next() >> 53
        } else if sequence < 0xFFF {
            sequence += 1
        } else {
            lastMillis += 1
            sequence = 0
        }
        // 48 bits of time, version 7, 12 bits of sequence; variant 10, 62 random bits.
        let high = lastMillis << 16 | 0x7000 | sequence
        let low = next() >> 2 | 0x8000_0000_0000_0000
        var out: [UInt8] = []
        out.reserveCapacity(36)
        func append(_ word: UInt64, from position: Int) {
            for nibble in 0..<16 {
                let at = position + nibble
                if at == 8 || at == 12 || at == 16 || at == 20 { out.append(UInt8(ascii: "-")) }
                out.append(Self.hexDigits[Int(word >> UInt64(60 - 4 * nibble) & 0xF)])
            }
        }
        append(high, from: 0)
        append(low, from: 16)
        return String(decoding: out, as: UTF8.self)
    }

    /// A number for a record written in volume, for a platform whose ids are numbers: one more
    /// than the last this generator made, from a random start in the lower half of `range`, so
    /// ids made in a row sort in that order, as `recordUUID`'s do and for the same reason; a
    /// fresh start when `restart` (the number was taken: counting on could walk through a run
    /// of taken ones) or at the end of `range`. Repeatable for a seeded generator, as its other
    /// draws are.
    public mutating func ascendingNumber(in range: ClosedRange<Int>, restart: Bool = false) -> Int {
        if !restart, let last = lastNumber, range.contains(last), last < range.upperBound {
            lastNumber = last + 1
        } else {
            lastNumber = range.lowerBound + Int(next() % UInt64((range.upperBound - range.lowerBound) / 2 + 1))
        }
        return lastNumber ?? range.lowerBound
    }

    /// A number in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }

    /// A number in [0, 1).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    private mutating func pick(_ count: Int, from alphabet: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        for _ in 0..<count { out.append(alphabet[Int(next() % UInt64(alphabet.count))]) }
        return String(decoding: out, as: UTF8.self)
    }
}
