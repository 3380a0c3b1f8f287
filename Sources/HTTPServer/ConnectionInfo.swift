/// How the connection a request arrived on was reached: which listener, TLS, and the proxy tunnel.
public struct ConnectionInfo: Sendable, Equatable {
    /// The kind of port a connection was accepted on.
    public enum Listener: String, Sendable, Equatable {
        /// The plain HTTP port.
        case http
        /// The TLS port.
        case https
        /// The intercepting proxy port.
        case proxy
    }

    /// The listener the connection was accepted on.
    public var listener: Listener
    /// Whether the bytes arrived over TLS (the HTTPS port, or a tunnel the proxy intercepted).
    public var isSecure: Bool
    /// The TLS server name (SNI) the client asked for, lower-cased; nil without TLS or SNI.
    public var serverName: String?
    /// For a request inside a tunnel the proxy intercepted: the `host:port` its `CONNECT` named.
    public var tunnelAuthority: String?

    /// Creates a description; the default is a plain HTTP connection.
    public init(listener: Listener = .http, isSecure: Bool = false, serverName: String? = nil, tunnelAuthority: String? = nil) {
        self.listener = listener
        self.isSecure = isSecure
        self.serverName = serverName
        self.tunnelAuthority = tunnelAuthority
    }

    /// A plain HTTP connection on the main port.
    public static let plain = ConnectionInfo()

    /// Whether the request reached Understudy through the proxy (a tunnel or an absolute-form request).
    public var viaProxy: Bool { listener == .proxy }
}
