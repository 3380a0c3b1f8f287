import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splices a client socket and an upstream socket: bytes unchanged both ways, each side's
/// end of stream passed on as a half-close, until both directions are done or either side fails.
///
/// After one side's end of stream the other has `halfClosedTimeout` of silence to finish, not the
/// whole idle timeout: a client that closed cannot be told from one that only half-closed (both
/// send a FIN), and a silent upstream used to hold the closed client's slot for ten minutes.
///
/// One thread per tunnel, blocking in `poll()` on the two sockets: portable, and an app's traffic
/// besides the emulated hosts is a handful of connections, so threads are cheap enough (the
/// connector bounds how many upstream sockets, hence tunnels, exist). No event loop thread and no
/// Dispatch global queue is ever held by a tunnel.
final class PassthroughTunnel: Sendable {
    /// Identifies the tunnel in its server's registry.
    let id: Int
    private let sockets: Mutex<(client: Int32, upstream: Int32, closed: Bool)>
    private let upstream: UpstreamSocket
    private let toUpstream: [UInt8]
    private let toClient: [UInt8]
    private let idleTimeout: Double
    private let halfClosedTimeout: Double
    private let finished: @Sendable (PassthroughTunnel) -> Void

    /// A tunnel that owns `client` (a descriptor of its own) and `upstream`'s socket; `toUpstream`
    /// is what the client sent before the tunnel began, `toClient` what the client is still owed.
    init(
        id: Int, client: Int32, upstream: UpstreamSocket, toUpstream: [UInt8], toClient: [UInt8], idleTimeout: Double,
        halfClosedTimeout: Double, finished: @escaping @Sendable (PassthroughTunnel) -> Void
    ) {
        self.id = id
        self.upstream = upstream
        sockets = Mutex((client, upstream.take(), false))
        self.toUpstream = toUpstream
        self.toClient = toClient
        self.idleTimeout = idleTimeout
        self.halfClosedTimeout = halfClosedTimeout
        self.finished = finished
    }

    /// Starts splicing on a thread of its own.
    func start() {
        let thread = Thread { [self] in
            let (client, server) = sockets.withLock { ($0.client, $0.upstream) }
            Self.splice(
                client: client, upstream: server, toUpstream: toUpstream, toClient: toClient,
                timeouts: (idle: idleTimeout, halfClosed: halfClosedTimeout))
            sockets.withLock { state in
                state.closed = true
                _ = closeSocket(state.client)
                if state.upstream >= 0 { _ = closeSocket(state.upstream) }
            }
            finished(self)
        }
        thread.name = "understudy.proxy.tunnel"
        thread.stackSize = 256 * 1024
        thread.start()
    }

    /// Ends the tunnel from outside (server shutdown): both sockets are shut, which wakes `poll`.
    /// Under the lock, so a descriptor number the tunnel already closed (and the kernel may have
    /// reused) is never touched.
    func close() {
        sockets.withLock { state in
            guard !state.closed else { return }
            _ = shutdown(state.client, Int32(SHUT_RDWR))
            if state.upstream >= 0 { _ = shutdown(state.upstream, Int32(SHUT_RDWR)) }
        }
    }

    // MARK: - The splice (on the tunnel thread)

    /// One direction: bytes read from `source`, not yet written to `destination`.
    private struct Direction {
        var pending: [UInt8]
        var offset = 0
        var sourceOpen = true
        var finished = false // the end of stream was passed on
        var hasPending: Bool { offset < pending.count }
    }

    private enum Step { case progress, idle, failed }

    private static func splice(client: Int32, upstream: Int32, toUpstream: [UInt8], toClient: [UInt8], timeouts: (idle: Double, halfClosed: Double)) {
        guard upstream >= 0 else { return }
        var up = Direction(pending: toUpstream) // client → upstream
        var down = Direction(pending: toClient) // upstream → client
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let idleMilliseconds = Self.milliseconds(timeouts.idle)
        let halfClosedMilliseconds = Self.milliseconds(timeouts.halfClosed)
        while !(up.finished && down.finished) {
            var fds = [pollfd(fd: client, events: 0, revents: 0), pollfd(fd: upstream, events: 0, revents: 0)]
            if !up.hasPending && up.sourceOpen { fds[0].events |= Int16(POLLIN) }
            if down.hasPending { fds[0].events |= Int16(POLLOUT) }
            if !down.hasPending && down.sourceOpen { fds[1].events |= Int16(POLLIN) }
            if up.hasPending { fds[1].events |= Int16(POLLOUT) }
            // Poll ignores negative descriptors: a socket with nothing to wait for cannot wake us with a hang-up over and over.
            for index in 0..<2 where fds[index].events == 0 { fds[index].fd = -1 }
            let ready = poll(&fds, 2, up.finished || down.finished ? halfClosedMilliseconds : idleMilliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 { return } // silent for the whole timeout: abandoned, or its closed side is gone
            let wake = Int16(POLLIN) | Int16(POLLOUT) | Int16(POLLHUP) | Int16(POLLERR)
            if fds[0].revents & wake != 0 || fds[1].revents & wake != 0 {
                if step(&up, from: client, to: upstream, buffer: &buffer) == .failed { return }
                if step(&down, from: upstream, to: client, buffer: &buffer) == .failed { return }
            }
        }
    }

    /// `seconds` as poll's timeout: whole milliseconds, within Int32, never negative.
    private static func milliseconds(_ seconds: Double) -> Int32 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return Int32((min(seconds, Double(Int32.max) / 1000) * 1000).rounded(.up)) // checked: finite, > 0 and ≤ Int32.max by the guard and min
    }

    /// Moves what it can in one direction without blocking.
    private static func step(_ direction: inout Direction, from source: Int32, to destination: Int32, buffer: inout [UInt8]) -> Step {
        var moved = false
        if !direction.hasPending && direction.sourceOpen {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                direction.pending = Array(buffer[0..<count])
                direction.offset = 0
                moved = true
            } else if count == 0 {
                direction.sourceOpen = false
            } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return .failed
            }
        }
        if direction.hasPending {
            let sent = direction.pending.withUnsafeBytes { raw in
                sendBytes(destination, raw.baseAddress! + direction.offset, raw.count - direction.offset)
            }
            if sent > 0 {
                direction.offset += sent
                moved = true
            } else if sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
                return .failed
            }
        }
        if !direction.hasPending && !direction.sourceOpen && !direction.finished {
            // The source's end of stream, passed on: the destination may still answer the other way.
            _ = shutdown(destination, Int32(SHUT_WR))
            direction.finished = true
            moved = true
        }
        return moved ? .progress : .idle
    }
}
