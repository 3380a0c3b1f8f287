import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Blocking loopback sockets for the test suites: the calls a test spells differently on Linux and
// Darwin, once. A socket is closed exactly once: whoever holds the descriptor closes it in one place.

/// The socket calls a test spells differently on Linux and Darwin.
public enum TestSocket {
    /// A connect to 127.0.0.1 that did not happen, with its error number.
    public struct ConnectError: Error {
        /// The `errno` of the failed `socket` or `connect`.
        public let code: Int32
    }

    /// A blocking TCP socket that never raises SIGPIPE.
    public static func stream() -> Int32 {
        #if os(Linux)
        return socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        var one: Int32 = 1 // no MSG_NOSIGNAL on Darwin: the socket itself says no SIGPIPE
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
        #endif
    }

    /// A blocking socket connected to 127.0.0.1:`port`, reads giving up after `receiveTimeout`
    /// seconds and, when given, sends after `sendTimeout`. Closed again when the connect fails.
    public static func connect(port: Int, receiveTimeout: Double, sendTimeout: Double? = nil) throws(ConnectError) -> Int32 {
        let fd = stream()
        guard fd >= 0 else { throw ConnectError(code: errno) }
        setTimeout(fd, SO_RCVTIMEO, receiveTimeout)
        if let sendTimeout { setTimeout(fd, SO_SNDTIMEO, sendTimeout) }
        var address = loopback(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if os(Linux)
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        guard result == 0 else {
            let code = errno
            close(fd) // nobody else has the descriptor yet: this is its one close
            throw ConnectError(code: code)
        }
        return fd
    }

    /// Sets SO_RCVTIMEO or SO_SNDTIMEO on `fd` to `seconds` (fractions kept).
    public static func setTimeout(_ fd: Int32, _ option: Int32, _ seconds: Double) {
        var time = timeval(tv_sec: Int(seconds), tv_usec: .init((seconds - floor(seconds)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, option, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// `send(2)`; a vanished peer is an error, not a signal.
    public static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBytes { raw in
            #if os(Linux)
            return Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            #else
            return Darwin.send(fd, raw.baseAddress, raw.count, 0)
            #endif
        }
    }

    /// Sends all of `bytes`, retrying interrupted sends; stops early when the peer is gone or a
    /// send timeout passes. Returns the bytes sent.
    @discardableResult
    public static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let sent = send(fd, bytes[offset...])
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return offset }
            offset += sent
        }
        return offset
    }

    /// Binds `fd` to 127.0.0.1 on a port the system picks; the port, or nil when the bind failed.
    public static func bindLoopback(_ fd: Int32) -> Int? {
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1 }
        }
        return bound == 0 ? Int(UInt16(bigEndian: address.sin_port)) : nil
    }

    /// A loopback port bound but not listening: connecting to it is refused, and no parallel test
    /// can take it while `fd` stays open (a closed port could be reused at once).
    public static func unusedPort() -> (fd: Int32, port: Int) {
        let fd = stream()
        return (fd, bindLoopback(fd) ?? 0)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

/// Runs blocking socket work on a thread of its own: a blocked thread of Swift's small
/// cooperative pool would stall the server's own tasks while the test waits.
public func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
