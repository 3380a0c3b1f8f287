#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CEpoll
#endif

/// The few socket calls whose spelling differs between Linux and Darwin, in one place.
enum Socket {
    /// `SOCK_STREAM` as the Int32 `socket()` takes (an enum on Glibc, a macro on Darwin).
    static var streamType: Int32 {
        #if os(Linux)
        return Int32(SOCK_STREAM.rawValue)
        #else
        return SOCK_STREAM
        #endif
    }

    /// A new non-blocking, close-on-exec stream socket, or -1 with errno set.
    static func makeStreamSocket(family: Int32) -> Int32 {
        #if os(Linux)
        return socket(family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        #else
        let fd = socket(family, SOCK_STREAM, 0)
        if fd >= 0 { prepareAccepted(fd) }
        return fd
        #endif
    }

    /// Accepts one connection as a non-blocking, close-on-exec socket (accept4 on Linux, accept +
    /// fcntl elsewhere), or -1 with errno set.
    static func accept(_ listener: Int32, _ address: inout sockaddr_storage, _ length: inout socklen_t) -> Int32 {
        #if os(Linux)
        return cepoll_accept(listener, &address, &length)
        #else
        let fd = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Darwin.accept(listener, $0, &length) }
        }
        if fd >= 0 { prepareAccepted(fd) }
        return fd
        #endif
    }

    /// Makes `fd` non-blocking and close-on-exec, and (on Darwin) keeps a vanished peer from raising
    /// SIGPIPE: Darwin has no MSG_NOSIGNAL, so the socket itself carries SO_NOSIGPIPE.
    static func prepareAccepted(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// `send` that reports a vanished peer as EPIPE instead of raising SIGPIPE.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if os(Linux)
        return Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        #else
        return Darwin.send(fd, bytes.baseAddress, bytes.count, 0) // SO_NOSIGPIPE is set on the socket
        #endif
    }

    /// Closes a descriptor (the C call; types that have a `close` method of their own use this).
    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// Makes the next `close` send RST instead of FIN (SO_LINGER with a zero timeout).
    static func setResetOnClose(_ fd: Int32) {
        var value = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
    }

    /// Turns off Nagle: a head and body written separately would otherwise wait ~40 ms for a delayed ACK.
    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }
}
