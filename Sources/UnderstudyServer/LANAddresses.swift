#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// This machine's addresses on its networks, for the banner: a phone on the same Wi-Fi reaches
/// Understudy (listening on every interface) at one of them.
enum LANAddresses {
    /// IPv4 addresses of interfaces that are up, without loopback and link-local (169.254/16) ones.
    static func ipv4() -> [String] {
        #if canImport(Glibc) || canImport(Darwin)
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(bitPattern: UInt32(entry.pointee.ifa_flags))
            guard let address = entry.pointee.ifa_addr, Int32(address.pointee.sa_family) == AF_INET,
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let converted = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 -> Bool in
                var raw = ipv4.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)) != nil
            }
            guard converted else { continue }
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("169.254.") || text.hasPrefix("127.") || found.contains(text) { continue }
            found.append(text)
        }
        return found
        #else
        return []
        #endif
    }
}
