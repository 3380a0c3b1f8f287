/// Where an IP address leads: the public Internet, or somewhere only this machine or its own
/// network reaches. The one classification the proxy and outbound webhooks share, so what one of
/// them refuses the other refuses too.
///
/// IPv6 forms that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible
/// `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) take the scope of the address they carry,
/// so `::ffff:127.0.0.1` is as loopback as `127.0.0.1`.
public enum AddressScope: String, Sendable, Equatable, CaseIterable {
    /// Routable on the Internet.
    case global
    /// This machine: 127.0.0.0/8, ::1.
    case loopback
    /// "This host" / any address: 0.0.0.0/8, `::` (connecting to it reaches this machine).
    case unspecified
    /// RFC 1918 private networks: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16.
    case privateNetwork
    /// The local link: 169.254.0.0/16 (cloud metadata services live here), fe80::/10.
    case linkLocal
    /// IPv6 unique-local fc00::/7, and the deprecated site-local fec0::/10.
    case uniqueLocal
    /// Carrier-grade NAT, RFC 6598: 100.64.0.0/10 (a provider's network, not the Internet).
    case sharedAddressSpace
    /// Multicast: 224.0.0.0/4, ff00::/8.
    case multicast
    /// Reserved for future use, with the limited broadcast address: 240.0.0.0/4.
    case reserved

    /// Whether the address is on the public Internet.
    public var isGlobal: Bool { self == .global }

    /// A few words for refusal messages ("loopback", "private network (RFC 1918)").
    public var explanation: String {
        switch self {
        case .global: return "public"
        case .loopback: return "loopback"
        case .unspecified: return "unspecified (this host)"
        case .privateNetwork: return "private network (RFC 1918)"
        case .linkLocal: return "link-local"
        case .uniqueLocal: return "unique-local (IPv6 private)"
        case .sharedAddressSpace: return "carrier-grade NAT (100.64.0.0/10)"
        case .multicast: return "multicast"
        case .reserved: return "reserved or broadcast"
        }
    }

    /// The scope of an IPv4 address given as its four bytes.
    public init(ipv4 a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) {
        switch (a, b) {
        case (0, _): self = .unspecified
        case (127, _): self = .loopback
        case (10, _): self = .privateNetwork
        case (172, 16...31): self = .privateNetwork
        case (192, 168): self = .privateNetwork
        case (169, 254): self = .linkLocal
        case (100, 64...127): self = .sharedAddressSpace
        case (224...239, _): self = .multicast
        case (240...255, _): self = .reserved
        default: self = .global
        }
    }

    /// The scope of an IPv6 address given as its 16 bytes (an address of another length is `reserved`).
    public init(ipv6 bytes: [UInt8]) {
        guard bytes.count == 16 else {
            self = .reserved
            return
        }
        let carried = { (offset: Int) in AddressScope(ipv4: bytes[offset], bytes[offset + 1], bytes[offset + 2], bytes[offset + 3]) }
        let zeroPrefix = bytes[0..<10].allSatisfy { $0 == 0 }
        if zeroPrefix && bytes[10] == 0xFF && bytes[11] == 0xFF {
            self = carried(12) // IPv4-mapped
        } else if zeroPrefix && bytes[10] == 0 && bytes[11] == 0 {
            // `::`, `::1`, and the deprecated IPv4-compatible `::a.b.c.d`.
            if bytes[12..<15].allSatisfy({ $0 == 0 }) && bytes[15] <= 1 {
                self = bytes[15] == 0 ? .unspecified : .loopback
            } else {
                self = carried(12)
            }
        } else if bytes[0..<8].allSatisfy({ $0 == 0 }) && bytes[8] == 0xFF && bytes[9] == 0xFF && bytes[10] == 0 && bytes[11] == 0 {
            self = carried(12) // IPv4-translated ::ffff:0:a.b.c.d
        } else if bytes[0] == 0x00 && bytes[1] == 0x64 && bytes[2] == 0xFF && bytes[3] == 0x9B && bytes[4..<12].allSatisfy({ $0 == 0 }) {
            self = carried(12) // NAT64 64:ff9b::/96
        } else if bytes[0] == 0x20 && bytes[1] == 0x02, case let inner = carried(2), !inner.isGlobal {
            self = inner // 6to4 around a non-public IPv4 address
        } else if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 {
            self = .linkLocal
        } else if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0xC0 {
            self = .uniqueLocal // site-local, deprecated by RFC 3879
        } else if bytes[0] & 0xFE == 0xFC {
            self = .uniqueLocal
        } else if bytes[0] == 0xFF {
            self = .multicast
        } else {
            self = .global
        }
    }
}
