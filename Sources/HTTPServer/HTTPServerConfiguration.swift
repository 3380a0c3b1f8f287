import Foundation

/// How an `HTTPServer` listens and what it tolerates.
public struct HTTPServerConfiguration: Sendable {
    /// Address to bind: an IPv4/IPv6 literal or a host name (`127.0.0.1`, `0.0.0.0`, `::1`, `localhost`).
    public var host: String
    /// Port to bind; 0 picks a free one (read it back from `HTTPServer.port`).
    public var port: Int
    /// Header and body limits.
    public var limits: HTTPParserLimits
    /// Seconds a client may take to send a request head once it started (slow-header defence).
    public var headerTimeout: Double
    /// Seconds an idle keep-alive connection is kept.
    public var idleTimeout: Double
    /// Listen backlog.
    public var backlog: Int32
    /// How many event loops (threads) share the connections; defaults to the number of cores.
    public var eventLoopCount: Int
    /// Request body bytes all connections together may hold in memory (buffered or decoded);
    /// beyond it requests get 503 with `Retry-After`.
    public var maxBufferedBodyBytes: Int
    /// Which event loop implementation serves connections.
    public var eventLoop: EventLoopKind

    /// Creates a configuration with the documented defaults.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, limits: HTTPParserLimits = HTTPParserLimits(),
        headerTimeout: Double = 10, idleTimeout: Double = 75, backlog: Int32 = 1024,
        eventLoopCount: Int = max(2, ProcessInfoCores.count), maxBufferedBodyBytes: Int = 256 * 1024 * 1024,
        eventLoop: EventLoopKind = .platformDefault
    ) {
        self.host = host
        self.port = port
        self.limits = limits
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.backlog = backlog
        self.eventLoopCount = eventLoopCount
        self.maxBufferedBodyBytes = maxBufferedBodyBytes
        self.eventLoop = eventLoop
    }
}

/// The number of active processor cores.
public enum ProcessInfoCores {
    /// Active cores, at least 1.
    public static var count: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}

/// One port a server listens on besides (or as) its main one.
public struct ListenerConfiguration: Sendable {
    /// Address to bind.
    public var host: String
    /// Port to bind; 0 picks a free one.
    public var port: Int
    /// What requests arriving here are told (`Request.connection.listener`).
    public var kind: ConnectionInfo.Listener
    /// Wraps each accepted socket (plain TCP, or TLS for the HTTPS port).
    public var transport: any TransportFactory
    /// For the proxy port: the TLS transport of intercepted `CONNECT host:443` tunnels; nil
    /// closes such tunnels instead (a server without TLS).
    public var intercept: (any InterceptTransportFactory)?

    /// Creates a listener configuration; plain HTTP by default.
    public init(
        host: String, port: Int, kind: ConnectionInfo.Listener = .http, transport: any TransportFactory = SocketTransportFactory(),
        intercept: (any InterceptTransportFactory)? = nil
    ) {
        self.host = host
        self.port = port
        self.kind = kind
        self.transport = transport
        self.intercept = intercept
    }
}
