import HTTPServer

/// Where this server listens and what it was told to advertise. The server fills it at start
/// (`EmulatorServices.setListening(host:port:)` and the other setters); every advertised URL is
/// resolved from it per request, so a device and a container each get settings that work for them.
public struct ServerAddresses: Sendable, Equatable {
    /// The listen address (`127.0.0.1`, `0.0.0.0`, `::`…).
    public var listenHost: String
    /// The bound plain-HTTP port.
    public var httpPort: Int
    /// The bound HTTPS port; nil while no TLS listener runs.
    public var httpsPort: Int?
    /// The bound proxy port; nil while no proxy listener runs.
    public var proxyPort: Int?
    /// The local CA's certificate file (PEM); nil while there is no local CA.
    public var caCertificatePath: String?
    /// `--public-url` (`http://192.168.1.50:8080`); nil derives URLs from each request's `Host`.
    public var publicURL: PublicURL?

    /// Creates addresses; the defaults are the default listen address with nothing else bound.
    public init(
        listenHost: String = "127.0.0.1", httpPort: Int = 8080, httpsPort: Int? = nil, proxyPort: Int? = nil,
        caCertificatePath: String? = nil, publicURL: PublicURL? = nil
    ) {
        self.listenHost = listenHost
        self.httpPort = httpPort
        self.httpsPort = httpsPort
        self.proxyPort = proxyPort
        self.caCertificatePath = caCertificatePath
        self.publicURL = publicURL
    }

    /// Whether the server listens on every interface (`0.0.0.0`, `::`), so other machines may reach it.
    public var listensOnEveryInterface: Bool { ["0.0.0.0", "::", "[::]", ""].contains(listenHost) }

    /// The host a client on this machine uses: the listen address, with the wildcard addresses as
    /// `127.0.0.1` (nobody can connect to `0.0.0.0`) and IPv6 literals bracketed.
    public var localHost: String {
        if listensOnEveryInterface { return "127.0.0.1" }
        if listenHost.hasPrefix("[") { return listenHost }
        return listenHost.contains(":") ? "[\(listenHost)]" : listenHost
    }

    /// The plain-HTTP URL of the listener for a client on this machine, e.g. `http://127.0.0.1:8080`.
    public var localURL: String { "http://\(localHost):\(httpPort)" }

    /// What to advertise with no request to go by (the start-up banner): the public URL, else the listen address.
    public var advertised: AdvertisedEndpoints { advertised(forHost: nil, listener: .http) }

    /// What to advertise to the client of a request that named `host` (its `Host` header) and
    /// arrived on `listener`: the public URL when configured, else that host (when it is a plain
    /// `host[:port]`; anything else is never reflected), else the listen address.
    public func advertised(forHost host: String?, listener: ConnectionInfo.Listener) -> AdvertisedEndpoints {
        if let publicURL {
            let https: String? = publicURL.isHTTPS ? publicURL.origin : httpsPort.map { "https://\(publicURL.authority.host):\($0)" }
            return endpoints(base: publicURL.origin, https: https, host: publicURL.authority.host, isPublicURL: true)
        }
        // Through the proxy, `Host` names the proxied target, not how the client reaches Understudy.
        if listener != .proxy, let host, let authority = Authority(host) {
            if listener == .https {
                return endpoints(base: "http://\(authority.host):\(httpPort)", https: "https://\(authority.text)", host: authority.host, isPublicURL: false)
            }
            let https = httpsPort.map { "https://\(authority.host):\($0)" }
            return endpoints(base: "http://\(authority.text)", https: https, host: authority.host, isPublicURL: false)
        }
        return endpoints(base: localURL, https: httpsPort.map { "https://\(localHost):\($0)" }, host: localHost, isPublicURL: false)
    }

    private func endpoints(base: String, https: String?, host: String, isPublicURL: Bool) -> AdvertisedEndpoints {
        AdvertisedEndpoints(
            baseURL: base, httpsBaseURL: https, proxyAddress: proxyPort.map { "\(host):\($0)" },
            caCertificatePath: caCertificatePath,
            caCertificateURL: caCertificatePath.map { _ in base + AdvertisedEndpoints.caCertificateRoute },
            isPublicURL: isPublicURL)
    }
}

/// The addresses one client is told to use: in project answers, `sdkSettings`, OpenAPI `servers`
/// and the banner.
public struct AdvertisedEndpoints: Sendable, Equatable {
    /// The control plane's path serving the CA certificate.
    public static let caCertificateRoute = "/__admin/ca.pem"

    /// The base URL of the plain-HTTP port (or the public URL as configured), e.g. `http://10.0.2.2:8080`.
    public var baseURL: String
    /// The base URL of the HTTPS port, e.g. `https://10.0.2.2:8443`; nil while no TLS listener runs.
    public var httpsBaseURL: String?
    /// The intercepting proxy as `host:port`, the form proxy settings take; nil while it is off.
    public var proxyAddress: String?
    /// The CA certificate file on the server's machine; nil while there is no local CA.
    public var caCertificatePath: String?
    /// Where a device downloads the CA certificate (`<baseURL>/__admin/ca.pem`); nil without a CA.
    public var caCertificateURL: String?
    /// Whether these come from a configured public URL (else from the request or the listen address).
    public var isPublicURL: Bool

    /// Creates endpoints (the server resolves them; tests of platforms may build their own).
    public init(
        baseURL: String, httpsBaseURL: String? = nil, proxyAddress: String? = nil, caCertificatePath: String? = nil,
        caCertificateURL: String? = nil, isPublicURL: Bool = false
    ) {
        self.baseURL = baseURL
        self.httpsBaseURL = httpsBaseURL
        self.proxyAddress = proxyAddress
        self.caCertificatePath = caCertificatePath
        self.caCertificateURL = caCertificateURL
        self.isPublicURL = isPublicURL
    }
}

/// A `host[:port]` fit to put into a URL: a DNS-style name, an IPv4 address or a bracketed IPv6
/// address, lower-cased. Stricter than what HTTP allows in `Host` (no percent-escapes, no
/// sub-delimiters, no zone ids): a value that is not plainly a host is never reflected into URLs.
public struct Authority: Sendable, Equatable {
    /// The host, IPv6 addresses in brackets (`[::1]`).
    public let host: String
    /// The port, when one was given.
    public let port: Int?

    /// Parses `value`; nil when it is not a plain `host[:port]` (empty, stray characters, port 0 or above 65535).
    public init?(_ value: String) {
        let bytes = Array(value.lowercased().utf8)
        guard !bytes.isEmpty, bytes.count <= 261 else { return nil }
        var end = bytes.count
        var host: [UInt8]
        if bytes[0] == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")), close > 2 else { return nil }
            let address = bytes[1..<close]
            guard address.contains(UInt8(ascii: ":")), address.allSatisfy(Self.isIPv6Byte) else { return nil }
            host = Array(bytes[0...close])
            end = close + 1
        } else {
            let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
            host = Array(bytes[0..<colon])
            // An unbracketed IPv6 address or any other stray byte is not a host name.
            guard !host.isEmpty, host.count <= 253, host.allSatisfy(Self.isNameByte),
                host.first != UInt8(ascii: "."), host.first != UInt8(ascii: "-")
            else { return nil }
            end = colon
        }
        var port: Int?
        if end < bytes.count {
            guard bytes[end] == UInt8(ascii: ":") else { return nil }
            let digits = bytes[(end + 1)...]
            if !digits.isEmpty { // `host:` is a host with an empty port (RFC 3986 §3.2.3)
                guard digits.count <= 5, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                    let number = Int(String(decoding: digits, as: UTF8.self)), (1...65535).contains(number)
                else { return nil }
                port = number
            }
        }
        // A trailing dot (a fully qualified name) says nothing the URL needs.
        if host.count > 1, host.last == UInt8(ascii: ".") { host.removeLast() }
        self.host = String(decoding: host, as: UTF8.self)
        self.port = port
    }

    /// `host:port`, or the host alone when no port was given.
    public var text: String { port.map { "\(host):\($0)" } ?? host }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
    }

    private static func isIPv6Byte(_ byte: UInt8) -> Bool {
        (byte >= 97 && byte <= 102) || (byte >= 48 && byte <= 57) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
    }
}

/// A validated `--public-url`: `http` or `https`, a plain authority, no path, query or user info.
public struct PublicURL: Sendable, Equatable {
    /// `http` or `https`.
    public let scheme: String
    /// The host and optional port.
    public let authority: Authority

    /// Parses `text` (`http://192.168.1.50:8080`, a trailing `/` allowed); nil when it is anything else.
    public init?(_ text: String) {
        let lower = text.lowercased()
        let scheme: String
        if lower.hasPrefix("http://") { scheme = "http" } else if lower.hasPrefix("https://") { scheme = "https" } else { return nil }
        var rest = Substring(text.dropFirst(scheme.count + 3))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let authority = Authority(String(rest)) else { return nil }
        self.scheme = scheme
        self.authority = authority
    }

    /// Whether the public URL is HTTPS (a TLS-terminating front, or the HTTPS port itself).
    public var isHTTPS: Bool { scheme == "https" }

    /// `scheme://host[:port]`, lower-cased, without a trailing slash.
    public var origin: String { "\(scheme)://\(authority.text)" }
}
