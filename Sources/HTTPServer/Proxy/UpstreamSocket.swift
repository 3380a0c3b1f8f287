import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected, non-blocking socket to a real destination the proxy passes traffic through to.
///
/// Owns its descriptor until `take()`: a plan that is dropped (the client left before the tunnel
/// started) closes it in `deinit`, so no path leaks it.
public final class UpstreamSocket: Sendable, Equatable, CustomStringConvertible {
    private let descriptor: Mutex<Int32>
    /// Bytes already read from the upstream (a forwarded request's response head) that the client
    /// has not been sent yet.
    public let receivedBytes: [UInt8]
    /// The destination, for logs and error bodies.
    public let authority: ProxyAuthority
    private let release: @Sendable () -> Void

    /// Wraps a connected socket; `release` runs once when the socket is closed or handed over for good.
    init(fileDescriptor: Int32, authority: ProxyAuthority, receivedBytes: [UInt8] = [], release: @escaping @Sendable () -> Void = {}) {
        descriptor = Mutex(fileDescriptor)
        self.authority = authority
        self.receivedBytes = receivedBytes
        self.release = release
    }

    deinit {
        let fd = descriptor.withLock { $0 }
        if fd >= 0 { _ = closeSocket(fd) }
        release()
    }

    /// Hands the descriptor over (once; -1 afterwards). The caller closes it.
    func take() -> Int32 {
        descriptor.withLock { fd in
            defer { fd = -1 }
            return fd
        }
    }

    /// Identity: two plans are equal when they carry the same socket object.
    public static func == (lhs: UpstreamSocket, rhs: UpstreamSocket) -> Bool { lhs === rhs }

    /// `upstream host:port`.
    public var description: String { "upstream \(authority)" }
}

/// `close(2)`, named apart from the methods called `close`.
func closeSocket(_ fd: Int32) -> Int32 {
    #if canImport(Glibc)
    return Glibc.close(fd)
    #else
    return Darwin.close(fd)
    #endif
}
