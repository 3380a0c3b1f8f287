import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Opens the proxy's connections to real destinations: name resolution and a non-blocking connect
/// with a timeout, on a short-lived thread of its own (`getaddrinfo` blocks, and neither an event
/// loop nor a Dispatch global queue may be held for seconds).
///
/// Bounds the upstream sockets alive at once (connects in progress and open tunnels): beyond
/// `maxUpstreams` a request is refused with `tooManyTunnels` instead of starting yet another thread.
public final class UpstreamConnector: Sendable {
    /// Why there is no upstream connection.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The host name did not resolve.
        case unresolved(host: String)
        /// Every address refused or failed; carries the last errno.
        case refused(host: String, port: Int, errno: Int32)
        /// No address answered within the timeout.
        case timedOut(host: String, port: Int, seconds: Double)
        /// The upstream closed or answered garbage before a whole response head arrived.
        case badResponse(host: String, port: Int)
        /// As many upstream connections are open as the proxy allows.
        case tooManyTunnels(limit: Int)
        /// The host resolved only to addresses the policy refuses; carries the first one and its scope.
        case privateAddress(host: String, port: Int, address: String, scope: AddressScope)
        /// The host resolved to this machine on one of the server's own ports.
        case ownListener(host: String, port: Int)

        /// A sentence naming the destination, for the 502 body and the log.
        public var description: String {
            switch self {
            case .unresolved(let host): return "cannot resolve \(host)"
            case .refused(let host, let port, let code): return "cannot connect to \(host):\(port): \(String(cString: strerror(code)))"
            case .timedOut(let host, let port, let seconds): return "no answer from \(host):\(port) within \(Self.format(seconds)) s"
            case .badResponse(let host, let port): return "\(host):\(port) closed or sent no valid HTTP response head"
            case .tooManyTunnels(let limit): return "the proxy already has \(limit) upstream connections open"
            case .privateAddress(let host, let port, let address, let scope):
                return "\(host):\(port) resolves to \(address), a \(scope.explanation) address"
            case .ownListener(let host, let port): return "\(host):\(port) is Understudy's own listener"
            }
        }

        private static func format(_ seconds: Double) -> String {
            Int(exactly: seconds).map(String.init) ?? String(seconds)
        }
    }

    /// Seconds a connect (all addresses together) may take.
    public let connectTimeout: Double
    /// Seconds a forwarded request's upstream may take to send its response head.
    public let responseTimeout: Double
    /// Most upstream sockets alive at once.
    public let maxUpstreams: Int
    private let alive = Atomic<Int>(0)

    /// Creates a connector.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(connectTimeout: Double = 10, responseTimeout: Double = 60, maxUpstreams: Int = 256) {
        self.connectTimeout = connectTimeout
        self.responseTimeout = responseTimeout
        self.maxUpstreams = maxUpstreams
    }

    /// Upstream sockets alive now (connecting, or held by a plan or a tunnel).
    public var upstreamCount: Int { alive.load(ordering: .relaxed) }

    /// Connects to `authority`, only to addresses `policy` allows.
    public func connect(to authority: ProxyAuthority, policy: DestinationPolicy) async throws(Failure) -> UpstreamSocket {
        try await run(authority) { [connectTimeout] () throws(Failure) -> (Int32, [UInt8]) in
            let fd = try Self.openConnection(authority, policy: policy, timeout: connectTimeout)
            return (fd, [])
        }
    }

    /// Connects to `authority`, sends `request` (already in origin form), and reads until the end
    /// of the response head, which is returned with the socket (as its `receivedBytes`) so the
    /// caller knows the status before relaying the rest. Only addresses `policy` allows are dialled.
    public func forward(
        _ request: [UInt8], to authority: ProxyAuthority,
        policy: DestinationPolicy
    ) async throws(Failure) -> (UpstreamSocket, UpstreamResponseHead) {
        let socket = try await run(authority) { [connectTimeout, responseTimeout] () throws(Failure) -> (Int32, [UInt8]) in
            let fd = try Self.openConnection(authority, policy: policy, timeout: connectTimeout)
            do throws(Failure) {
                let deadline = MonotonicClock.nanoseconds() + ConnectionConfiguration.nanoseconds(responseTimeout)
                try Self.sendAll(request, fd: fd, authority: authority, deadline: deadline, timeout: responseTimeout)
                return (fd, try Self.readHead(fd: fd, authority: authority, deadline: deadline, timeout: responseTimeout))
            } catch {
                _ = closeSocket(fd)
                throw error
            }
        }
        // A head that does not parse drops the socket here, which closes it.
        guard let head = UpstreamResponseHead(parsing: socket.receivedBytes) else { throw .badResponse(host: authority.host, port: authority.port) }
        return (socket, head)
    }

    // MARK: - The thread

    private func run(
        _ authority: ProxyAuthority,
        _ body: @escaping @Sendable () throws(Failure) -> (Int32, [UInt8])
    ) async throws(Failure) -> UpstreamSocket {
        let count = alive.wrappingAdd(1, ordering: .relaxed).newValue
        guard count <= maxUpstreams else {
            alive.subtract(1, ordering: .relaxed)
            throw .tooManyTunnels(limit: maxUpstreams)
        }
        let release: @Sendable () -> Void = { [self] in alive.subtract(1, ordering: .relaxed) }
        let result: Result<UpstreamSocket, Failure> = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(Failure) {
                    let (fd, received) = try body()
                    continuation.resume(returning: .success(UpstreamSocket(fileDescriptor: fd, authority: authority, receivedBytes: received, release: release)))
                } catch {
                    release()
                    continuation.resume(returning: .failure(error))
                }
            }
            thread.name = "understudy.proxy.connect"
            thread.stackSize = 256 * 1024
            thread.start()
        }
        return try result.get()
    }

    // MARK: - Blocking steps (on the connect thread)

    private static func openConnection(_ authority: ProxyAuthority, policy: DestinationPolicy, timeout: Double) throws(Failure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_protocol = Int32(IPPROTO_TCP) // stream sockets only (SOCK_STREAM is not visible through every libc overlay)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(authority.host, String(authority.port), &hints, &list) == 0, let first = list else {
            throw .unresolved(host: authority.host)
        }
        defer { freeaddrinfo(list) }
        let deadline = MonotonicClock.nanoseconds() + ConnectionConfiguration.nanoseconds(timeout)
        var lastError: Int32 = ECONNREFUSED
        var timedOut = false
        var refusal: Failure?
        var dialled = false
        var interfaces: Set<NetworkAddress>?
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            // Judged on the address about to be dialled, not on the name: `localhost`, `127.1` and
            // `0x7f000001` all arrive here as 127.0.0.1.
            guard let address = info.pointee.ai_addr.flatMap({ NetworkAddress(socketAddress: $0) }) else { continue }
            let verdict = policy.verdict(address, port: authority.port) {
                if let interfaces { return interfaces }
                let found = NetworkAddress.localInterfaces()
                interfaces = found
                return found
            }
            switch verdict {
            case .allowed: break
            case .ownListener:
                refusal = .ownListener(host: authority.host, port: authority.port) // outranks a private address
                continue
            case .privateAddress(let scope):
                if refusal == nil { refusal = .privateAddress(host: authority.host, port: authority.port, address: address.description, scope: scope) }
                continue
            }
            dialled = true // an allowed address was tried: its outcome is what the caller hears
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            if fd < 0 { lastError = errno; continue }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            if systemConnect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return fd }
            // EINTR: the connect goes on in the background, exactly as with EINPROGRESS.
            if errno != EINPROGRESS && errno != EINTR { lastError = errno; _ = closeSocket(fd); continue }
            switch waitFor(fd, events: Int16(POLLOUT), deadline: deadline) {
            case .ready:
                var code: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                if code == 0 { return fd }
                lastError = code
            case .timedOut:
                timedOut = true
            }
            _ = closeSocket(fd)
            if timedOut { break }
        }
        if timedOut { throw .timedOut(host: authority.host, port: authority.port, seconds: timeout) }
        if !dialled, let refusal { throw refusal }
        throw .refused(host: authority.host, port: authority.port, errno: lastError)
    }

    private static func sendAll(_ bytes: [UInt8], fd: Int32, authority: ProxyAuthority, deadline: UInt64, timeout: Double) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in sendBytes(fd, raw.baseAddress! + offset, raw.count - offset) }
            if sent > 0 { offset += sent; continue }
            if sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                if case .timedOut = waitFor(fd, events: Int16(POLLOUT), deadline: deadline) {
                    throw .timedOut(host: authority.host, port: authority.port, seconds: timeout)
                }
                continue
            }
            throw .badResponse(host: authority.host, port: authority.port)
        }
    }

    /// Reads until the blank line after the response head (at most 64 KiB); returns all bytes read.
    private static func readHead(fd: Int32, authority: ProxyAuthority, deadline: UInt64, timeout: Double) throws(Failure) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while UpstreamResponseHead.headLength(in: received) == nil {
            guard received.count < 64 * 1024 else { throw .badResponse(host: authority.host, port: authority.port) }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { received += buffer[0..<count]; continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                if case .timedOut = waitFor(fd, events: Int16(POLLIN), deadline: deadline) {
                    throw .timedOut(host: authority.host, port: authority.port, seconds: timeout)
                }
                continue
            }
            throw .badResponse(host: authority.host, port: authority.port)
        }
        return received
    }

    private enum Readiness { case ready, timedOut }

    /// Polls one descriptor until `events` (or an error) or the deadline.
    private static func waitFor(_ fd: Int32, events: Int16, deadline: UInt64) -> Readiness {
        while true {
            let now = MonotonicClock.nanoseconds()
            guard now < deadline else { return .timedOut }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let milliseconds = Int32(clamping: (deadline - now) / 1_000_000 + 1)
            let result = poll(&entry, 1, milliseconds)
            if result > 0 { return .ready }
            if result < 0 && errno != EINTR { return .ready } // let the next call report the error
        }
    }
}

/// `connect(2)`, named apart from `UpstreamConnector.connect`.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    #if canImport(Glibc)
    return Glibc.connect(fd, address, length)
    #else
    return Darwin.connect(fd, address, length)
    #endif
}

/// `send(2)` that never raises SIGPIPE where the platform allows asking.
func sendBytes(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL))
    #else
    return Darwin.send(fd, pointer, count, 0)
    #endif
}
