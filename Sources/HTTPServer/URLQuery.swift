/// Percent-decoding and query-string parsing without Foundation's URL machinery (which is slow and lenient).
public enum URLQuery {
    /// Splits `a=1&b=2` into decoded pairs; `+` becomes a space.
    public static func parse(_ query: String) -> [(name: String, value: String)] {
        guard !query.isEmpty else { return [] }
        // ASCII text (every query the parser accepts) is split by bytes; anything else by Character.
        let pieces = splitASCII(Substring(query), on: UInt8(ascii: "&")), ascii = pieces != nil
        var items: [(String, String)] = []
        for part in pieces ?? query.split(separator: "&", omittingEmptySubsequences: true) {
            if let equals = ascii ? part.utf8.firstIndex(of: UInt8(ascii: "=")) : part.firstIndex(of: "=") {
                let name = percentDecode(part[..<equals], plusAsSpace: true) ?? String(part[..<equals])
                let value = percentDecode(part[part.index(after: equals)...], plusAsSpace: true) ?? String(part[part.index(after: equals)...])
                items.append((name, value))
            } else {
                items.append((percentDecode(part, plusAsSpace: true) ?? String(part), ""))
            }
        }
        return items
    }

    /// `text` split on an ASCII `separator` byte — what `split(separator:omittingEmptySubsequences:)`
    /// gives — or nil when `text` is not all ASCII (the caller splits by `Character` then: a
    /// combining mark after the separator makes one grapheme with it). Splitting by bytes skips
    /// grapheme breaking, most of what parsing a query or routing a path cost.
    @inlinable // the router's lookup, itself inlinable, calls it
    public static func splitASCII(_ text: Substring, on separator: UInt8, omittingEmpty: Bool = true) -> [Substring]? {
        let utf8 = text.utf8
        var pieces: [Substring] = []
        pieces.reserveCapacity(8)
        var start = utf8.startIndex, index = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte >= 0x80 { return nil }
            if byte == separator {
                if !omittingEmpty || start < index { pieces.append(Substring(utf8[start..<index])) }
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        if !omittingEmpty || start < utf8.endIndex { pieces.append(Substring(utf8[start..<utf8.endIndex])) }
        return pieces
    }

    /// Decodes `%XX` escapes; nil when an escape is malformed or the result is not UTF-8.
    @inlinable // specialised in callers' modules (the router's lookup, the platforms' query parsing)
    public static func percentDecode<S: StringProtocol>(_ text: S, plusAsSpace: Bool = false) -> String? {
        // Most path segments and query values have nothing to decode: no array, no scan twice.
        if !text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(text)
        }
        let utf8 = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < utf8.count, let high = hexValue(utf8[index + 1]), let low = hexValue(utf8[index + 2]) else {
                    return nil
                }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// Encodes everything but RFC 3986 unreserved characters.
    public static func percentEncode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return out
    }

    @usableFromInline
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
