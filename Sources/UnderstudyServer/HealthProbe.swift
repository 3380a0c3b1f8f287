import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A minimal blocking HTTP/1.1 GET over a socket, for `understudy healthcheck` (no URLSession:
/// it must work in a slim container and finish fast).
enum HealthProbe {
    #if os(Linux)
    private static let streamSocket = Int32(SOCK_STREAM.rawValue)
    /// A vanished server must be an error from `send`, not a SIGPIPE that kills the command.
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    private static let streamSocket = SOCK_STREAM
    private static let sendFlags: Int32 = 0 // SO_NOSIGPIPE is set on the socket instead
    #endif

    /// The status code of `GET path`, or nil when nothing answered within `timeout` seconds.
    static func status(host: String, port: Int, path: String, timeout: Double) -> Int? {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = streamSocket
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else { return nil }
        defer { freeaddrinfo(result) }
        let fd = socket(info.pointee.ai_family, streamSocket, 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        #if !os(Linux)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var time = timeval(tv_sec: .init(timeout), tv_usec: .init((timeout - floor(timeout)) * 1_000_000)) // Int32 usec on Darwin
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else { return nil }
        let request = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
        guard request.withCString({ send(fd, $0, strlen($0), sendFlags) }) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = recv(fd, &buffer, buffer.count, 0)
        guard count > 12 else { return nil }
        // "HTTP/1.1 200 OK"
        let line = String(decoding: buffer[0..<count], as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2)
        return parts.count >= 2 ? Int(parts[1]) : nil
    }
}
