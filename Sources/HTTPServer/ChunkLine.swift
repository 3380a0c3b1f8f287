/// The chunk-size line of a chunked body (RFC 9112 §7.1), extensions included:
///
///     chunk-line = chunk-size *( BWS ";" BWS ext-name [ BWS "=" BWS ext-value ] ) [ BWS ]
///     ext-value  = token / quoted-string
///
/// Extensions carry nothing we use, but they are checked: a front proxy that reads a sloppy
/// extension differently from us (where it ends, a bare LF inside it) is a smuggling vector.
/// The trailing BWS is a leniency kept from before (`3 \r\n` was accepted).
enum ChunkLine {
    /// The size a chunk-size line declares, or nil when the line is malformed.
    static func parseSize(_ line: ArraySlice<UInt8>) -> Int? {
        var index = line.startIndex
        var size = 0
        var digits = 0
        while index < line.endIndex, let value = URLQuery.hexValue(line[index]) {
            digits += 1
            guard digits <= 15 else { return nil }
            size = size << 4 | Int(value)
            index += 1
        }
        guard digits > 0, validExtensions(line[index...]) else { return nil }
        return size
    }

    private static func validExtensions(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        func skipWhitespace() { while index < bytes.endIndex, bytes[index] == 32 || bytes[index] == 9 { index += 1 } }
        func token() -> Bool {
            let start = index
            while index < bytes.endIndex, RequestHeadParser.isTokenByte(bytes[index]) { index += 1 }
            return index > start
        }
        while true {
            skipWhitespace()
            if index == bytes.endIndex { return true }
            guard bytes[index] == UInt8(ascii: ";") else { return false }
            index += 1
            skipWhitespace()
            guard token() else { return false }
            skipWhitespace()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "=") else { continue }
            index += 1
            skipWhitespace()
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") {
                guard let end = quotedStringEnd(bytes, from: index) else { return false }
                index = end
            } else {
                guard token() else { return false }
            }
        }
    }

    /// The index just past the quoted-string opening at `start`, or nil when it is malformed.
    private static func quotedStringEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        while index < bytes.endIndex {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                return index + 1
            case UInt8(ascii: "\\"):
                // quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
                guard index + 1 < bytes.endIndex, isQuotable(bytes[index + 1]) else { return nil }
                index += 2
            default:
                // qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
                guard isQuotable(byte) else { return nil }
                index += 1
            }
        }
        return nil
    }

    private static func isQuotable(_ byte: UInt8) -> Bool {
        byte == 9 || (byte >= 32 && byte != 127)
    }
}
