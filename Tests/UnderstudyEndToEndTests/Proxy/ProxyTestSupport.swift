import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls a test spells differently on Linux and Darwin.
enum TestSocket {
    /// A blocking TCP socket that never raises SIGPIPE.
    static func stream() -> Int32 {
        #if os(Linux)
        return socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        var one: Int32 = 1 // no MSG_NOSIGNAL on Darwin: the socket itself says no SIGPIPE
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        return fd
        #endif
    }

    /// `send(2)`; a vanished peer is an error, not a signal.
    static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBytes { raw in
            #if os(Linux)
            return Glibc.send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL))
            #else
            return Darwin.send(fd, raw.baseAddress, raw.count, 0)
            #endif
        }
    }

    /// A loopback port bound but not listening: connecting to it is refused, and no parallel test
    /// can take it while `fd` stays open (a closed port could be reused at once).
    static func unusedPort() -> (fd: Int32, port: Int) {
        let fd = stream()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 ? getsockname(fd, $0, &length) : -1 }
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

/// Runs blocking socket work on a thread of its own: a blocked thread of Swift's small
/// cooperative pool would stall the server's own tasks while the test waits.
func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}

/// A blocking client on a raw socket that speaks to the proxy port as an app's HTTP stack does:
/// CONNECT, then HTTP inside the tunnel, or absolute-form requests, or plain bytes.
final class ProxyClient: @unchecked Sendable { // one test drives it, one call at a time
    /// A response as read off the wire.
    struct Reply: Sendable {
        var status: Int
        var reason: String
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Why a read gave up.
    enum Failure: Error { case connect, timeout, closed, malformed }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, timeout: Double = 5) throws {
        fd = TestSocket.stream()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var time = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // Every property is set by now, so the throw runs deinit, which closes the socket. Closing
        // it here as well closed it twice: the second close hit whatever descriptor another test
        // had been given that number meanwhile (a server's connection, a database file).
        guard result == 0 else { throw Failure.connect }
    }

    deinit { close(fd) }

    func send(_ text: String) { send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = TestSocket.send(fd, bytes[offset...])
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// Sends FIN: the client has nothing more to say, but still reads.
    func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Asks the proxy for a tunnel and reads its answer (a 200 has no body; refusals have one).
    func connectTunnel(_ authority: String, extra: [UInt8] = []) throws -> Reply {
        send(Array("CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: understudy-tests\r\n\r\n".utf8) + extra)
        return try readResponse(tunnel: true)
    }

    /// Sends one origin-form request (inside a tunnel, or to a server) and reads the response.
    func request(_ method: String, _ target: String, host: String, headers: [String: String] = [:], body: String = "") throws -> Reply {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        if !body.isEmpty || method == "POST" || method == "PUT" { head += "Content-Length: \(body.utf8.count)\r\n" }
        send(head + "\r\n" + body)
        return try readResponse()
    }

    /// Reads one response; `tunnel` says it answers a CONNECT (a 2xx then has no body).
    func readResponse(tunnel: Bool = false) throws -> Reply {
        var end: Int?
        while end == nil {
            end = headEnd()
            if end == nil { try fill() }
        }
        let headText = String(decoding: buffer[0..<end!], as: UTF8.self)
        buffer.removeFirst(end! + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = tunnel && (200..<300).contains(status) ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length { try fill() }
        let body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return Reply(status: status, reason: statusLine.count > 2 ? String(statusLine[2]) : "", headers: headers, body: body)
    }

    /// Everything until the peer closes (what was buffered included).
    func readToEnd() throws -> [UInt8] {
        while true {
            do { try fill() } catch Failure.closed { break }
        }
        defer { buffer = [] }
        return buffer
    }

    /// Whether the server ends the connection (EOF or reset) before the read timeout.
    func isClosedByServer() -> Bool {
        do {
            _ = try readToEnd()
            return true
        } catch {
            return false
        }
    }

    /// Hands over what was read past the last response (a TLS client takes the tunnel's bytes from here).
    func takeBuffered() -> [UInt8] {
        defer { buffer = [] }
        return buffer
    }

    /// The next bytes from the socket, whatever they are.
    func receiveSome() throws -> [UInt8] {
        if !buffer.isEmpty { return takeBuffered() }
        try fill()
        return takeBuffered()
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var received = recv(fd, &chunk, chunk.count, 0)
        // Another test's child process exiting (SIGCHLD) interrupts a blocked read: not an answer.
        while received < 0 && errno == EINTR { received = recv(fd, &chunk, chunk.count, 0) }
        if received == 0 { throw Failure.closed }
        if received < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? Failure.timeout : Failure.closed }
        buffer.append(contentsOf: chunk[0..<received])
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}

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
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 512) == 0 else { throw ProxyClient.Failure.connect }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
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
        var time = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
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

    private func write(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = TestSocket.send(fd, bytes[offset...])
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// The whole request once its head and Content-Length body have arrived.
    private static func completeRequest(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count >= 4, let end = (0...(bytes.count - 4)).first(where: { bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10 }) else {
            return nil
        }
        let head = String(decoding: bytes[0..<end], as: UTF8.self).lowercased()
        let length =
            head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return bytes.count >= end + 4 + length ? Array(bytes[0..<(end + 4 + length)]) : nil
    }
}
