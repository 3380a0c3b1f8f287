import Foundation

extension StringProtocol {
    /// Whether `caseInsensitiveCompare(other) == .orderedSame`: ASCII text is compared byte by byte
    /// with A–Z folded (Foundation took ~1.4 µs for two e-mail addresses, on every request with
    /// Basic credentials); text with other scalars asks Foundation, which folds them too.
    ///
    /// Inlinable so that callers in other modules get it specialised for their string types:
    /// unspecialised, every byte went through protocol witnesses (~9 µs of a voucher lookup).
    @inlinable
    public func equalsIgnoringCase<Other: StringProtocol>(_ other: Other) -> Bool {
        let left = utf8, right = other.utf8
        if left.contains(where: { $0 >= 0x80 }) || right.contains(where: { $0 >= 0x80 }) { return caseInsensitiveCompare(other) == .orderedSame }
        guard left.count == right.count else { return false }
        return zip(left, right).allSatisfy { a, b in a == b || (a | 0x20 == b | 0x20 && (a | 0x20) &- 0x61 < 26) }
    }
}
