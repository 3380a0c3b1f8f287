import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking test client on a raw socket, for what URLSession hides: pipelining, exact bytes,
/// half-sent requests, and whether the server closed the connection.
final class RawClient: @unchecked Sendable { // used by one test at a time, from one thread at a time
    struct Reply: Sendable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    enum Failure: Error { case connect, timeout, closed, malformed }

    let fd: Int32
    private var buffer: [UInt8] = []

    init(port: Int, timeout: Double = 5) throws {
        #if os(Linux)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        var one: Int32 = 1 // no MSG_NOSIGNAL on Darwin: a vanished server must not SIGPIPE the test run
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var time = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - floor(timeout)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // Every property is set by now, so the throw runs deinit, which closes the socket. Closing
        // it here as well closed it twice: the second close hit whatever descriptor another test
        // had been given that number meanwhile (a server's connection, a database file).
        guard result == 0 else { throw Failure.connect }
    }

    private var isOpen = true

    deinit { if isOpen { close(fd) } }

    /// Aborts the connection with a TCP RST (SO_LINGER 0, then close).
    func reset() {
        guard isOpen else { return }
        isOpen = false
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Makes a blocked `send` give up after `seconds` (it returns what it managed to send).
    func setSendTimeout(_ seconds: Double) {
        var time = timeval(tv_sec: Int(seconds), tv_usec: .init((seconds - floor(seconds)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends `bytes`; stops early when the peer is gone or a send timeout passes. Returns the bytes sent.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            #if os(Linux)
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let sent = bytes[offset...].withUnsafeBytes { Darwin.send(fd, $0.baseAddress, $0.count, 0) }
            #endif
            if sent <= 0 { return offset }
            offset += sent
        }
        return offset
    }

    /// Reads until at least `count` bytes are buffered.
    private func fill(_ count: Int) throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while buffer.count < count {
            let received = recv(fd, &chunk, chunk.count, 0)
            if received == 0 { throw Failure.closed }
            if received < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? Failure.timeout : Failure.closed }
            buffer.append(contentsOf: chunk[0..<received])
        }
    }

    /// Reads one response (interim 1xx responses included), using Content-Length (HEAD: pass `head`).
    func readResponse(head: Bool = false) throws -> Reply {
        var end: Int?
        while end == nil {
            if let found = findHeadEnd() { end = found } else { try fill(buffer.count + 1) }
        }
        let headText = String(decoding: buffer[0..<end!], as: UTF8.self)
        buffer.removeFirst(end! + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = head || status < 200 || status == 204 ? 0 : Int(headers["content-length"] ?? "0") ?? 0
        try fill(length)
        let body = Array(buffer[0..<length])
        buffer.removeFirst(length)
        return Reply(status: status, headers: headers, body: body)
    }

    /// True when the server has closed the connection (reads EOF) within the timeout.
    func isClosedByServer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1024)
        while true {
            let received = recv(fd, &chunk, chunk.count, 0)
            if received == 0 { return true }
            if received < 0 { return errno == ECONNRESET }
        }
    }

    /// True when the server ends the connection with FIN (read returns 0) rather than a reset.
    func endsWithOrderlyClose() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let received = recv(fd, &chunk, chunk.count, 0)
            if received == 0 { return true }
            if received < 0 { return false }
        }
    }

    private func findHeadEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }
}
