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

    /// Creates a configuration with the documented defaults.
    public init(host: String = "127.0.0.1", port: Int = 8080, limits: HTTPParserLimits = HTTPParserLimits(),
                headerTimeout: Double = 10, idleTimeout: Double = 75, backlog: Int32 = 1024,
                eventLoopCount: Int = max(2, ProcessInfoCores.count), maxBufferedBodyBytes: Int = 256 * 1024 * 1024) {
        self.host = host
        self.port = port
        self.limits = limits
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.backlog = backlog
        self.eventLoopCount = eventLoopCount
        self.maxBufferedBodyBytes = maxBufferedBodyBytes
    }
}

import Foundation

/// The number of active processor cores.
public enum ProcessInfoCores {
    /// Active cores, at least 1.
    public static var count: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
