import Foundation
import Synchronization
import TestSockets

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real destination on 127.0.0.1 for passthrough tests, a thread per connection.
///
/// `echo`: sends back what it reads; at the client's end of stream it adds `<eof>` and closes, so
/// a test sees the half-close arrive. `http`: reads one request head (and a Content-Length body),
/// answers `201` whose body is the request as received, and closes. `silent`: accepts and then
/// neither reads, writes nor closes until stopped. `hangsUp`: closes each connection at once.
final class LoopbackUpstream: Sendable {
    enum Mode: Sendable { case echo, http, silent, hangsUp }

    let port: Int
    private let listener: Int32
    private let mode: Mode
    private let state = Mutex<(accepted: Int, open: Int, stopped: Bool)>((0, 0, false))
    private let held = Mutex<[Int32]>([])

    init(_ mode: Mode) throws {
        self.mode = mode
        let fd = TestSocket.stream()
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard let bound = TestSocket.bindLoopback(fd), listen(fd, 512) == 0 else { throw RawClient.Failure.connect }
        port = bound
        listener = fd
        Thread { [self] in acceptLoop() }.start()
    }

    /// Connections accepted so far, and those still open.
    var accepted: Int { state.withLock { $0.accepted } }
    var openConnections: Int { state.withLock { $0.open } }

    /// Stops accepting (shutting the listener wakes the blocked accept).
    func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        for fd in held.withLock({ all in
            defer { all = [] }; return all
        }) { close(fd) }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                break
            }
            state.withLock {
                $0.accepted += 1; $0.open += 1
            }
            switch mode {
            case .silent:
                held.withLock { $0.append(fd) }
                continue
            case .hangsUp:
                close(fd)
                state.withLock { $0.open -= 1 }
                continue
            case .echo, .http: break
            }
            Thread { [self] in
                serve(fd)
                close(fd)
                state.withLock { $0.open -= 1 }
            }.start()
        }
        close(listener)
    }

    private func serve(_ fd: Int32) {
        // Long enough for a loaded test run: the upstream's end of stream would end the tunnel 5 s later.
        TestSocket.setTimeout(fd, SO_RCVTIMEO, 60)
        var chunk = [UInt8](repeating: 0, count: 65536)
        var received: [UInt8] = []
        while true {
            let count = recv(fd, &chunk, chunk.count, 0)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            switch mode {
            case .echo, .silent, .hangsUp:
                write(fd, Array(chunk[0..<count]))
            case .http:
                received += chunk[0..<count]
                if let request = Self.completeRequest(received) {
                    let body = Array("upstream saw:\n".utf8) + request
                    write(
                        fd,
                        Array("HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nX-Upstream: loopback\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + body)
                    return
                }
            }
        }
        if mode == .echo { write(fd, Array("<eof>".utf8)) }
    }

    private func write(_ fd: Int32, _ bytes: [UInt8]) { TestSocket.sendAll(fd, bytes) }

    /// The whole request once its head and Content-Length body have arrived.
    private static func completeRequest(_ bytes: [UInt8]) -> [UInt8]? {
        guard let end = HTTPWire.headEnd(bytes) else { return nil }
        let head = String(decoding: bytes[0..<end], as: UTF8.self).lowercased()
        let length =
            head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return bytes.count >= end + 4 + length ? Array(bytes[0..<(end + 4 + length)]) : nil
    }
}
