import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An HTTP/1.1 server on non-blocking POSIX sockets and a few event loops (epoll or Dispatch).
///
/// No thread per connection: one event loop per core owns its connections, reads and parses
/// them, runs their handlers as Swift tasks that prefer the loop as executor, and writes each
/// response back in one `send`. The first loop also accepts, on every listener: the main port
/// from `start()`, and any added with `addListener` (TLS, the proxy).
public final class HTTPServer: Sendable {
    /// Why the server could not start.
    public enum StartError: Error, CustomStringConvertible {
        /// The listen host did not resolve to an address; carries the host.
        case resolve(String)
        /// `socket()` failed; carries errno.
        case socket(Int32)
        /// The address could not be bound (in use, no permission); carries host, port and errno.
        case bind(String, Int, Int32)
        /// `listen()` failed on the bound socket; carries errno.
        case listen(Int32)

        /// A sentence for the operator.
        public var description: String {
            switch self {
            case .resolve(let host): return "cannot resolve listen address \(host)"
            case .socket(let code): return "socket() failed: \(String(cString: strerror(code)))"
            case .bind(let host, let port, let code): return "cannot listen on \(host):\(port): \(String(cString: strerror(code)))"
            case .listen(let code): return "listen() failed: \(String(cString: strerror(code)))"
            }
        }
    }

    /// The configuration the server was created with.
    public let configuration: HTTPServerConfiguration
    /// The application answering requests.
    public let application: any HTTPApplication

    private struct State: ~Copyable {
        var listening = false
        var boundPort = 0
        var listenerPorts: [ConnectionInfo.Listener: Int] = [:]
        var connections: [Int: Connection] = [:]
        var tunnels: [Int: PassthroughTunnel] = [:]
        var nextTunnelID = 0
        var nextConnectionID = 0
        var nextQueue = 0
        var drained: [CheckedContinuation<Void, Never>] = []
        var openFileLimit: OpenFileLimit?
    }

    private let state = Mutex(State())
    private let shuttingDown = Atomic<Bool>(false)
    private let inFlight = Atomic<Int>(0)
    private let bufferedInput = Atomic<Int>(0)
    private let loops: [any EventLoop]
    /// The allowance for request body bytes held in memory, shared by all connections.
    let bodyBudget: RequestBodyBudget

    /// Creates a server; call `start()` to listen.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(configuration: HTTPServerConfiguration, application: any HTTPApplication) {
        self.configuration = configuration
        self.application = application
        self.loops = EventLoopFactory.makeLoops(configuration.eventLoop, count: configuration.eventLoopCount)
        self.bodyBudget = RequestBodyBudget(limit: configuration.maxBufferedBodyBytes)
        // A vanished client must surface as EPIPE on send, never kill the process.
        signal(SIGPIPE, SIG_IGN)
    }

    /// The bound port (useful with port 0), or 0 before `start()`.
    public var port: Int { state.withLock { $0.boundPort } }

    /// The bound port of the listener of `kind`, or nil when there is none.
    public func port(of kind: ConnectionInfo.Listener) -> Int? { state.withLock { $0.listenerPorts[kind] } }

    /// Which event loop implementation serves connections.
    public var eventLoopKind: EventLoopKind { loops[0].kind }

    /// What `start()` did to the open-file limit (it raises the soft limit to the hard one), for the log; nil before `start()`.
    public var openFileLimit: OpenFileLimit? { state.withLock { $0.openFileLimit } }

    /// Whether a shutdown has begun.
    public var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    /// Number of open client connections (passthrough tunnels not included).
    public var connectionCount: Int { state.withLock { $0.connections.count } }

    /// Open client connections of the listener of `kind` (the metrics' connection gauges).
    public func connectionCount(of kind: ConnectionInfo.Listener) -> Int {
        state.withLock { $0.connections.values.reduce(0) { $0 + ($1.listener == kind ? 1 : 0) } }
    }

    /// Passthrough tunnels open now (the proxy splicing a client to a real destination).
    public var tunnelCount: Int { state.withLock { $0.tunnels.count } }

    /// Seconds a passthrough tunnel may carry nothing either way before it is closed as abandoned.
    public static let tunnelIdleTimeout = 600.0

    /// Seconds a passthrough tunnel waits, once one side has ended its stream, for the other side
    /// to send anything: past that both sockets close and the upstream slot is free again.
    public static let tunnelHalfClosedTimeout = 5.0

    /// Binds the main (plain HTTP) port, listens and starts accepting. Returns the bound port.
    @discardableResult
    public func start() throws -> Int {
        let fileLimit = Self.raiseOpenFileLimit()
        state.withLock { $0.openFileLimit = fileLimit }
        let boundPort = try addListener(ListenerConfiguration(host: configuration.host, port: configuration.port))
        state.withLock { $0.boundPort = boundPort }
        return boundPort
    }

    /// Binds one more port (TLS, the proxy) whose connections share the loops, limits and
    /// application; `listener.transport` wraps each accepted socket. Returns the bound port.
    @discardableResult
    public func addListener(_ listener: ListenerConfiguration) throws -> Int {
        precondition(!isShuttingDown, "a listener added during shutdown")
        let (socketFD, boundPort) = try Self.openListener(host: listener.host, port: listener.port, backlog: configuration.backlog)
        state.withLock {
            $0.listening = true
            $0.listenerPorts[listener.kind] = boundPort
        }
        let acceptor = loops[0]
        acceptor.execute { [self] in
            acceptor.registerListener(socketFD) { [unowned self] in self.acceptAll(socketFD, listener) }
        }
        return boundPort
    }

    /// Stops accepting, lets in-flight requests finish, closes idle connections, and returns once
    /// every connection is closed or `gracePeriod` seconds have passed (then the rest are closed).
    public func shutdown(gracePeriod: Double = 10) async {
        guard !shuttingDown.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let listening = state.withLock { state -> Bool in
            defer { state.listening = false }
            return state.listening
        }
        if listening { loops[0].execute { [loops] in loops[0].closeListeners() } }
        for loop in loops {
            loop.execute { for connection in loop.ownedConnections { connection.beginShutdown() } }
        }
        // A tunnel has no request to finish: it is a byte copy, closed at once.
        for tunnel in state.withLock({ Array($0.tunnels.values) }) { tunnel.close() }
        let deadline = MonotonicClock.nanoseconds() + ConnectionConfiguration.nanoseconds(gracePeriod)
        while connectionCount + tunnelCount > 0 && MonotonicClock.nanoseconds() < deadline {
            try? await Task.sleep(nanoseconds: 5_000_000)
        }
        for loop in loops {
            loop.execute { for connection in loop.ownedConnections { connection.forceClose() } }
        }
        while connectionCount + tunnelCount > 0 {
            try? await Task.sleep(nanoseconds: 2_000_000)
        }
        // Handlers still running after the grace period cannot be cancelled; their loops stay
        // alive (idle) so those tasks have an executor to finish on.
        if requestsInFlight == 0 { for loop in loops { loop.stop() } }
    }

    // MARK: - Connection bookkeeping (called by Connection)

    func requestStarted() { inFlight.add(1, ordering: .relaxed) }
    func requestFinished() { inFlight.subtract(1, ordering: .relaxed) }

    /// Requests being answered right now.
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    /// Open connections whose sockets epoll watches (the rest wait for a handler with nothing to watch).
    public var watchedConnectionCount: Int { loops.reduce(0) { $0 + $1.watchedCount } }

    /// The event loops' busy stretches so far, all loops together; nil on loops that cannot time
    /// them (Dispatch).
    public var loopBusyStretches: LoopBusyStretches? {
        loops.reduce(LoopBusyStretches() as LoopBusyStretches?) { sum, loop in
            guard let sum, let stretches = loop.busyStretches else { return nil }
            return sum + stretches
        }
    }

    /// Request body bytes held in memory now (arriving, decoded, or with a running handler).
    public var bufferedBodyBytes: Int { bodyBudget.bytesInUse }

    /// Bytes read from clients and not yet consumed by a request, over all connections.
    public var bufferedInputBytes: Int { bufferedInput.load(ordering: .relaxed) }

    func bufferedInputChanged(by delta: Int) { bufferedInput.add(delta, ordering: .relaxed) }

    func connectionClosed(_ connection: Connection) {
        _ = state.withLock { $0.connections.removeValue(forKey: connection.id) }
    }

    /// Splices `client` (a descriptor the caller gave up) with `upstream` on a tunnel thread.
    func startTunnel(client: Int32, upstream: UpstreamSocket, toUpstream: [UInt8], toClient: [UInt8]) {
        let tunnel = state.withLock { registry -> PassthroughTunnel? in
            guard !isShuttingDown else { return nil }
            registry.nextTunnelID += 1
            let tunnel = PassthroughTunnel(
                id: registry.nextTunnelID, client: client, upstream: upstream, toUpstream: toUpstream, toClient: toClient,
                idleTimeout: Self.tunnelIdleTimeout, halfClosedTimeout: Self.tunnelHalfClosedTimeout
            ) { [self] finished in
                _ = state.withLock { $0.tunnels.removeValue(forKey: finished.id) }
            }
            registry.tunnels[tunnel.id] = tunnel
            return tunnel
        }
        guard let tunnel else {
            Socket.close(client) // shutting down; `upstream` closes when dropped
            return
        }
        tunnel.start()
    }

    // MARK: - Accepting

    /// Accepts every pending connection of one listener. Runs on the first loop.
    private func acceptAll(_ listenFD: Int32, _ listener: ListenerConfiguration) {
        while true {
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = Socket.accept(listenFD, &address, &length)
            if fd < 0 {
                switch AcceptPolicy.reaction(toErrno: errno) {
                case .retry: continue
                case .wait: return
                case .pause(let nanoseconds):
                    loops[0].pauseListener(listenFD, for: nanoseconds)
                    return
                }
            }
            if isShuttingDown {
                Socket.close(fd)
                continue
            }
            Socket.setNoDelay(fd)
            let remote = Self.addressText(&address)
            let (id, loop) = state.withLock { state -> (Int, any EventLoop) in
                state.nextConnectionID += 1
                return (state.nextConnectionID, loops[state.nextConnectionID % loops.count])
            }
            let transport = listener.transport.makeTransport(socket: fd)
            let connection = Connection(
                id: id, transport: transport, listener: listener.kind, loop: loop, server: self, remoteAddress: remote,
                intercept: listener.intercept)
            state.withLock { $0.connections[id] = connection }
            if loop.inLoop { connection.start() } else { loop.execute { connection.start() } }
        }
    }

    private static func addressText(_ storage: inout sockaddr_storage) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    var address = pointer.pointee.sin_addr
                    inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
                    return cText(buffer)
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var address = pointer.pointee.sin6_addr
                    inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
                    let text = cText(buffer)
                    return text.hasPrefix("::ffff:") ? String(text.dropFirst(7)) : text
                }
            }
        default:
            return ""
        }
    }

    private static func cText(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func openListener(host: String, port: Int, backlog: Int32) throws -> (Int32, Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Socket.streamType
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let first = result else {
            throw StartError.resolve(host)
        }
        defer { freeaddrinfo(result) }
        var lastError: Int32 = 0
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            let fd = Socket.makeStreamSocket(family: info.pointee.ai_family)
            if fd < 0 { lastError = errno; continue }
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) != 0 {
                lastError = errno
                Socket.close(fd)
                continue
            }
            guard listen(fd, backlog) == 0 else {
                lastError = errno
                Socket.close(fd)
                throw StartError.listen(lastError)
            }
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            _ = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            let boundPort: Int
            if Int32(storage.ss_family) == AF_INET6 {
                boundPort = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
                }
            } else {
                boundPort = withUnsafePointer(to: &storage) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
                }
            }
            return (fd, boundPort)
        }
        throw StartError.bind(host, port, lastError)
    }
}
