#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as the kernel sees it (no port): what a name resolved to, or what a
/// literal means however it was spelled (`2130706433`, `0x7f000001`, `127.1`, `0177.0.0.1` are all
/// 127.0.0.1).
public struct NetworkAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes (IPv4) or 16 (IPv6), in network order.
    public let bytes: [UInt8]

    /// An IPv4 address from its four bytes.
    public init(ipv4 a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) { bytes = [a, b, c, d] }

    /// An IPv6 address from its 16 bytes; nil for another length.
    public init?(ipv6 bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// The address a socket address holds (AF_INET or AF_INET6); nil for other families.
    public init?(socketAddress: UnsafePointer<sockaddr>) {
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            bytes = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin_addr) { Array($0) }
            }
        case AF_INET6:
            bytes = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                withUnsafeBytes(of: pointer.pointee.sin6_addr) { Array($0) }
            }
        default:
            return nil
        }
    }

    /// The address a host literal names, read as the system's resolver reads it: IPv4 in any form
    /// `inet_aton` accepts (dotted, short, decimal, hex, octal), IPv6 with or without brackets
    /// (a `%zone` is dropped). Nil for a host name: no lookup is made.
    public init?(literal text: String) {
        var host = text
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let percent = host.firstIndex(of: "%") { host = String(host[..<percent]) }
        if host.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, host, &address) == 1 else { return nil }
            bytes = withUnsafeBytes(of: address) { Array($0) }
        } else {
            var address = in_addr()
            guard !host.isEmpty, inet_aton(host, &address) != 0 else { return nil }
            bytes = withUnsafeBytes(of: address) { Array($0) }
        }
    }

    /// Whether this is an IPv4 address.
    public var isIPv4: Bool { bytes.count == 4 }

    /// Where the address leads.
    public var scope: AddressScope {
        isIPv4 ? AddressScope(ipv4: bytes[0], bytes[1], bytes[2], bytes[3]) : AddressScope(ipv6: bytes)
    }

    /// The address in its usual text form (`127.0.0.1`, `::1`).
    public var description: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var raw = bytes
        let family = isIPv4 ? AF_INET : AF_INET6
        guard inet_ntop(family, &raw, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What `host` resolves to (blocking: the system resolver, `/etc/hosts` first); empty when it
    /// does not resolve.
    public static func resolve(_ host: String) -> [NetworkAddress] {
        if let literal = NetworkAddress(literal: host) { return [literal] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_protocol = Int32(IPPROTO_TCP)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(list) }
        var found: [NetworkAddress] = []
        for entry in sequence(first: first, next: { $0.pointee.ai_next }) {
            guard let address = entry.pointee.ai_addr, let parsed = NetworkAddress(socketAddress: address), !found.contains(parsed) else { continue }
            found.append(parsed)
        }
        return found
    }

    /// The addresses of this machine's network interfaces (every family, loopback included).
    public static func localInterfaces() -> Set<NetworkAddress> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var found: Set<NetworkAddress> = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            guard let address = entry.pointee.ifa_addr, let parsed = NetworkAddress(socketAddress: address) else { continue }
            found.insert(parsed)
        }
        return found
    }

    /// Whether connecting to this address reaches this machine: loopback, unspecified, or one of
    /// its interfaces' addresses (IPv4-mapped IPv6 forms of those included).
    public func isThisMachine(interfaces: Set<NetworkAddress>) -> Bool {
        switch scope {
        case .loopback, .unspecified: return true
        default: break
        }
        if interfaces.contains(self) { return true }
        // ::ffff:a.b.c.d reaches a.b.c.d.
        if bytes.count == 16, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return interfaces.contains(NetworkAddress(ipv4: bytes[12], bytes[13], bytes[14], bytes[15]))
        }
        return false
    }
}
