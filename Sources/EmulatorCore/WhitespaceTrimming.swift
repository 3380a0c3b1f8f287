import Foundation

/// Foundation's `trimmingCharacters(in: .whitespaces)` and `(in: .whitespacesAndNewlines)`, with
/// the same results, without its cost: it took ~6 µs for a 60-byte header value, and SDK routes
/// trim a user id, a voucher code or a credential on every request. ASCII scalars are decided by
/// comparison; others ask the character set, so the Unicode members (no-break space, ideographic
/// space, line separator, NEL) trim as before.
extension StringProtocol {
    /// The string without leading and trailing `CharacterSet.whitespaces` (spaces, tabs, Unicode Zs).
    @inlinable // specialised in the callers' modules: unspecialised, every scalar went through protocol witnesses
    public func trimmingWhitespace() -> String { trimming(newlines: false) }

    /// The string without leading and trailing `CharacterSet.whitespacesAndNewlines`.
    @inlinable
    public func trimmingWhitespaceAndNewlines() -> String { trimming(newlines: true) }

    /// Both trims: `newlines` decides whether line breaks go too.
    @inlinable
    func trimming(newlines: Bool) -> String {
        func trims(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x20, 0x09: return true
            case 0x0A...0x0D: return newlines
            case 0..<0x80: return false
            default: return (newlines ? CharacterSet.whitespacesAndNewlines : CharacterSet.whitespaces).contains(scalar)
            }
        }
        let scalars = Substring(self).unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, trims(scalars[start]) { start = scalars.index(after: start) }
        while start < end {
            let before = scalars.index(before: end)
            guard trims(scalars[before]) else { break }
            end = before
        }
        if start == scalars.startIndex, end == scalars.endIndex, let whole = self as? String { return whole }
        return String(scalars[start..<end])
    }
}
