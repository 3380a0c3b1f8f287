/// The syntax of a Host value or URL authority: `host [":" port]` (RFC 9110 §7.2, RFC 3986 §3.2),
/// with no user info.
enum HostSyntax {
    /// Whether `value` is a valid host with an optional port; an empty value is valid (RFC 9112
    /// §3.2 asks clients for an empty Host when the target has no authority).
    static func isValid(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        var index = 0
        if bytes.first == UInt8(ascii: "[") {
            // IP-literal: an IPv6 address (or IPvFuture), with an optional %25-encoded zone.
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 1 else { return false }
            guard bytes[1..<close].allSatisfy(isIPLiteralByte) else { return false }
            index = close + 1
        } else {
            // reg-name or IPv4address: unreserved, sub-delims and %XX.
            while index < bytes.count, bytes[index] != UInt8(ascii: ":") {
                if bytes[index] == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, URLQuery.hexValue(bytes[index + 1]) != nil,
                        URLQuery.hexValue(bytes[index + 2]) != nil
                    else { return false }
                    index += 3
                    continue
                }
                guard isRegNameByte(bytes[index]) else { return false }
                index += 1
            }
        }
        if index == bytes.count { return true }
        // port = *DIGIT
        guard bytes[index] == UInt8(ascii: ":") else { return false }
        let port = bytes[(index + 1)...]
        return port.count <= 5 && port.allSatisfy { $0 >= 48 && $0 <= 57 }
    }

    private static func isRegNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), // unreserved
            UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="): // sub-delims
            return true
        default:
            return false
        }
    }

    private static func isIPLiteralByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "%"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
