import EmulatorCore
import Foundation

/// Client IP addresses: which one a request counts as ([W-M3]) and how much it is trusted ([W-M4]).
public enum ClientAddress {
    /// What kind of address a text is.
    public enum Kind: Sendable, Equatable {
        /// Private, loopback, link-local or carrier-grade NAT: shared by many devices (×0.6).
        case shared
        /// Any other IPv4 address (×0.9).
        case publicIPv4
        /// A public IPv6 address (×1.0).
        case publicIPv6
        /// Not an address.
        case invalid
    }

    /// The IP a WarpLink data-plane request counts as: the override, a trusted `X-Forwarded-For`,
    /// or the socket peer, with IPv4-mapped IPv6 reduced to IPv4.
    public static func effective(peer: String, forwardedFor: String?, settings: MatchingSettings) -> String {
        if let override = settings.clientIP { return reduce(override) }
        if settings.trustForwardedFor, let header = forwardedFor,
            let first = header.split(separator: ",").first?.trimmingWhitespace(), kind(of: first) != .invalid
        {
            return reduce(first)
        }
        return reduce(peer)
    }

    /// `::ffff:1.2.3.4` → `1.2.3.4`; other text unchanged (lower-cased).
    public static func reduce(_ address: String) -> String {
        let lowered = address.lowercased()
        if lowered.hasPrefix("::ffff:"), parseIPv4(String(lowered.dropFirst(7))) != nil { return String(lowered.dropFirst(7)) }
        return lowered
    }

    /// Classifies an address.
    public static func kind(of address: String) -> Kind {
        let reduced = reduce(address)
        if let octets = parseIPv4(reduced) {
            let (a, b) = (octets[0], octets[1])
            if a == 10 || a == 127 || (a == 172 && (16...31).contains(b)) || (a == 192 && b == 168)
                || (a == 169 && b == 254) || (a == 100 && (64...127).contains(b)) || a == 0
            {
                return .shared
            }
            return .publicIPv4
        }
        guard reduced.contains(":"), reduced.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }),
            reduced.split(separator: ":", omittingEmptySubsequences: false).count <= 8
        else { return .invalid }
        if reduced == "::1" || reduced == "::" || reduced.hasPrefix("fe8") || reduced.hasPrefix("fe9") || reduced.hasPrefix("fea")
            || reduced.hasPrefix("feb") || reduced.hasPrefix("fc") || reduced.hasPrefix("fd")
        {
            return .shared
        }
        return .publicIPv6
    }

    /// The click-IP multiplier in tenths (6, 9 or 10); unknown addresses count as shared.
    public static func factorTenths(_ address: String) -> Int {
        switch kind(of: address) {
        case .publicIPv4: return 9
        case .publicIPv6: return 10
        case .shared, .invalid: return 6
        }
    }

    private static func parseIPv4(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var octets: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCII), let value = Int(part), (0...255).contains(value) else { return nil }
            octets.append(value)
        }
        return octets
    }
}
