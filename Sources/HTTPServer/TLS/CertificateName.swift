#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A name a leaf certificate can cover: a DNS name (wildcards allowed as the whole leftmost label)
/// or an IP address, in one canonical spelling so `API.Example.com.` and `api.example.com` share a
/// certificate and `0:0::1` and `::1` do too.
public enum CertificateName: Hashable, Sendable, CustomStringConvertible {
    /// A DNS name, lower-case, without a trailing dot (`api.example.com`, `*.links.example`).
    case dns(String)
    /// An IPv4 or IPv6 address in its canonical text form (`127.0.0.1`, `::1`), no brackets.
    case ipAddress(String)

    /// The longest DNS name (RFC 1035 §2.3.4, without the trailing dot).
    static let maximumDNSNameLength = 253

    /// Parses an SNI name, a `CONNECT` host or a configured host; nil for anything that is neither
    /// a valid DNS name nor an IP literal (garbage SNI must not reach a certificate).
    public init?(_ raw: String) {
        var text = raw
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let address = Self.canonicalAddress(text) {
            self = .ipAddress(address)
            return
        }
        var lowered = text.lowercased()
        if lowered.hasSuffix(".") { lowered.removeLast() }
        guard Self.isValidDNSName(lowered) else { return nil }
        self = .dns(lowered)
    }

    /// The name as it appears in the certificate.
    public var description: String {
        switch self {
        case .dns(let name), .ipAddress(let name): name
        }
    }

    /// The subjectAltName entry in OpenSSL's configuration syntax. Safe to join with commas:
    /// validation admits no comma, colon (DNS) or other separator into a DNS name.
    var subjectAltNameEntry: String {
        switch self {
        case .dns(let name): "DNS:\(name)"
        case .ipAddress(let address): "IP:\(address)"
        }
    }

    /// LDH labels of 1–63 bytes that neither start nor end with a hyphen; the leftmost label may be
    /// exactly `*` when at least two labels follow (`*.com` would cover a whole top-level domain,
    /// which clients refuse anyway). The last label must not be all digits, so `1.2.3` (not an IPv4
    /// address) is rejected rather than minted as a DNS name.
    static func isValidDNSName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumDNSNameLength else { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for (index, label) in labels.enumerated() {
            if index == 0, label.elementsEqual([UInt8(ascii: "*")]) {
                guard labels.count >= 3 else { return false }
                continue
            }
            guard (1...63).contains(label.count),
                label.first != UInt8(ascii: "-"), label.last != UInt8(ascii: "-"),
                label.allSatisfy(isLabelByte)
            else { return false }
        }
        guard let last = labels.last, !last.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return false }
        return true
    }

    private static func isLabelByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// The canonical text of an IPv4 or IPv6 literal (inet_pton then inet_ntop), or nil. Zone ids
    /// (`fe80::1%eth0`) are refused: a certificate cannot name them.
    static func canonicalAddress(_ text: String) -> String? {
        guard !text.isEmpty, text.utf8.count <= 64, text.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        for family in [AF_INET, AF_INET6] {
            var address = [UInt8](repeating: 0, count: 16)
            guard inet_pton(family, text, &address) == 1 else { continue }
            var output = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            guard inet_ntop(family, address, &output, socklen_t(output.count)) != nil else { return nil }
            return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return nil
    }
}
