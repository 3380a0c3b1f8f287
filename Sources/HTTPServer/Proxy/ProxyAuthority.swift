/// The `host:port` a proxy client names: a `CONNECT` target (authority form, RFC 9112 §3.2.3)
/// or the authority of an absolute-form URL.
public struct ProxyAuthority: Sendable, Hashable, CustomStringConvertible {
    /// The host, lower-cased; an IPv6 literal without its brackets.
    public var host: String
    /// The port, 1…65535.
    public var port: Int

    /// Creates an authority from its parts.
    public init(host: String, port: Int) {
        self.host = host.lowercased()
        self.port = port
    }

    /// Parses authority form: a host (reg-name, IPv4 or bracketed IPv6) and a port, both required.
    /// Nil for a missing or out-of-range port, user info, or anything `HostSyntax` refuses.
    public init?(authorityForm text: String) {
        guard HostSyntax.isValid(text), let colon = text.lastIndex(of: ":") else { return nil }
        let hostPart = text[..<colon]
        let portPart = text[text.index(after: colon)...]
        // `[::1]` alone has colons but no port: the last colon must follow the closing bracket.
        if hostPart.hasPrefix("[") && !hostPart.hasSuffix("]") { return nil }
        guard !portPart.isEmpty, portPart.allSatisfy(\.isASCII), let port = Int(portPart), (1...65535).contains(port) else { return nil }
        let host = hostPart.hasPrefix("[") ? String(hostPart.dropFirst().dropLast()) : String(hostPart)
        guard !host.isEmpty else { return nil }
        self.init(host: host, port: port)
    }

    /// Parses a URL authority whose port may be left out (`defaultPort` then applies).
    public init?(urlAuthority text: String, defaultPort: Int) {
        if let explicit = ProxyAuthority(authorityForm: text) {
            self = explicit
            return
        }
        guard HostSyntax.isValid(text), !text.isEmpty, !text.hasSuffix(":") else { return nil }
        if text.hasPrefix("[") {
            guard text.hasSuffix("]") else { return nil }
            self.init(host: String(text.dropFirst().dropLast()), port: defaultPort)
        } else {
            guard !text.contains(":") else { return nil }
            self.init(host: text, port: defaultPort)
        }
    }

    /// The host as it is written in a URL or a Host header (IPv6 in brackets).
    public var hostForURL: String { host.contains(":") ? "[\(host)]" : host }

    /// `host:port`, IPv6 in brackets.
    public var description: String { "\(hostForURL):\(port)" }
}

extension Request {
    /// For a `CONNECT` request, the `host:port` it asks to be connected to; nil otherwise.
    public var connectAuthority: ProxyAuthority? {
        method == .connect ? ProxyAuthority(authorityForm: target) : nil
    }
}
