import Foundation

/// `normalizeLang` of [W-M2].
public enum LanguageNormalizer {
    /// First comma-separated entry, `;q=` stripped, trimmed, `_` → `-`, lower-cased; `primary`
    /// mode keeps the primary subtag only.
    ///
    /// Every attribution match normalizes the caller's `Accept-Language`, and Foundation's
    /// `replacingOccurrences` alone was 2% of a match's CPU: an ASCII header (all real ones) is
    /// normalized byte by byte, anything else as before.
    public static func normalize(_ raw: String?, mode: String = "full") -> String {
        guard let raw else { return "" }
        return ascii(raw, primary: mode == "primary") ?? scalars(raw, mode: mode)
    }

    /// `normalize` over the UTF-8 bytes; nil when `raw` is not all ASCII.
    static func ascii(_ raw: String, primary: Bool) -> String? {
        var raw = raw
        raw.makeContiguousUTF8() // a no-op for native strings, which headers are
        return raw.utf8.withContiguousStorageIfAvailable { bytes -> String? in
            // All of it, though only the first entry is read: else the scalar path decides.
            for byte in bytes where byte >= 0x80 { return nil }
            var start = 0, end = bytes.firstIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ";") } ?? bytes.count
            func isBlank(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
            while start < end, isBlank(bytes[start]) { start += 1 }
            while end > start, isBlank(bytes[end - 1]) { end -= 1 }
            var tag = [UInt8]()
            tag.reserveCapacity(end - start)
            for byte in bytes[start..<end] {
                switch byte {
                case UInt8(ascii: "_"): tag.append(UInt8(ascii: "-"))
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): tag.append(byte + 32)
                default: tag.append(byte)
                }
            }
            if primary, let subtag = tag.split(separator: UInt8(ascii: "-")).first {
                return String(decoding: subtag, as: UTF8.self)
            }
            return String(decoding: tag, as: UTF8.self)
        } ?? nil
    }

    /// `normalize` scalar by scalar, for any header.
    static func scalars(_ raw: String, mode: String) -> String {
        let first = raw.split(separator: ",", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let tag = (first.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? "")
            .trimmingWhitespace().replacingOccurrences(of: "_", with: "-").lowercased()
        if mode == "primary" { return tag.split(separator: "-").first.map(String.init) ?? tag }
        return tag
    }
}
