import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking HTTP/1.1 test client on a raw loopback socket, for what URLSession hides:
/// pipelining, exact bytes, half-sent requests, CONNECT tunnels, resets, and how the server closed.
public final class RawClient: @unchecked Sendable { // one test drives it, from one thread at a time
    /// Why a connect or a read gave up.
    public enum Failure: Error {
        /// The connection was refused (or no socket could be made).
        case connect
        /// The receive timeout passed.
        case timeout
        /// The server closed or reset the connection.
        case closed
        /// What arrived is no HTTP response.
        case malformed
    }

    /// The socket.
    public let fd: Int32
    private var received = HTTPResponseBuffer()
    private var isOpen = true

    /// Connects to 127.0.0.1:`port`; a read gives up after `timeout` seconds.
    public init(port: Int, timeout: Double = 5) throws {
        do { fd = try TestSocket.connect(port: port, receiveTimeout: timeout) } catch { throw Failure.connect }
    }

    deinit { if isOpen { close(fd) } }

    /// One request on a connection of its own with a `Host` the test chooses (URLSession sets its
    /// own) and `Connection: close`; the status and everything after the head, read until the close.
    public static func oneShot(port: Int, _ method: String, _ path: String, host: String, body: String = "") throws -> (status: Int, body: Data) {
        let client = try RawClient(port: port, timeout: 10)
        let headers = body.isEmpty ? ["Connection": "close"] : ["Connection": "close", "Content-Type": "application/json"]
        client.send(HTTPWire.request(method, path, host: host, headers: headers, body: body))
        let reply = try client.readResponse(head: true) // the head alone: the body is what comes until the close
        guard reply.headers["transfer-encoding"]?.lowercased().contains("chunked") != true else { throw Failure.malformed } // not read here
        return (reply.status, Data(try client.readToEnd()))
    }

    /// Aborts the connection with a TCP RST (SO_LINGER 0, then close).
    public func reset() {
        guard isOpen else { return }
        isOpen = false
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close(fd)
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) { send(Array(text.utf8)) }

    /// Makes a blocked `send` give up after `seconds` (it returns what it managed to send).
    public func setSendTimeout(_ seconds: Double) { TestSocket.setTimeout(fd, SO_SNDTIMEO, seconds) }

    /// Sends `bytes`; stops early when the peer is gone or a send timeout passes. Returns the bytes sent.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Int { TestSocket.sendAll(fd, bytes) }

    /// Sends FIN: the client has nothing more to say, but still reads.
    public func shutdownWrite() { shutdown(fd, Int32(SHUT_WR)) }

    /// Asks a proxy for a tunnel and reads its answer (a 200 has no body; refusals have one).
    public func connectTunnel(_ authority: String, extra: [UInt8] = []) throws -> HTTPReply {
        send(Array("CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\nUser-Agent: understudy-tests\r\n\r\n".utf8) + extra)
        return try readResponse(tunnel: true)
    }

    /// Sends one request (origin form inside a tunnel or to a server, absolute form to a proxy) and reads the response.
    public func request(_ method: String, _ target: String, host: String, headers: [String: String] = [:], body: String = "") throws -> HTTPReply {
        send(HTTPWire.request(method, target, host: host, headers: headers, body: body))
        return try readResponse()
    }

    /// Reads one response (interim 1xx responses included) framed by Content-Length; `head` says it
    /// answers a HEAD, `tunnel` a CONNECT (a 2xx then has no body).
    public func readResponse(head: Bool = false, tunnel: Bool = false) throws -> HTTPReply {
        while true {
            do {
                if let reply = try received.takeReply(head: head, tunnel: tunnel) { return reply }
            } catch {
                throw Failure.malformed
            }
            try fill()
        }
    }

    /// Everything until the server closes or resets the connection (what was buffered included);
    /// throws `timeout` when it does neither in time.
    public func readToEnd() throws -> [UInt8] {
        let (bytes, ending) = drain()
        guard ending != .timeout else { throw Failure.timeout }
        return bytes
    }

    /// Reads until the connection ends: what arrived, and whether it ended in an orderly FIN (not a
    /// reset, an error or the receive timeout).
    public func readUntilClosed() -> (bytes: [UInt8], orderly: Bool) {
        let (bytes, ending) = drain()
        return (bytes, ending == .fin)
    }

    /// True when the server ends the connection (FIN or reset) before the read timeout.
    public func isClosedByServer() -> Bool { drain().ending != .timeout }

    /// True when the server ends the connection with FIN (a read returns 0) rather than a reset.
    public func endsWithOrderlyClose() -> Bool { drain().ending == .fin }

    /// Hands over what was read past the last response (a TLS client takes the tunnel's bytes from here).
    public func takeBuffered() -> [UInt8] { received.takeAll() }

    /// The next bytes from the socket, whatever they are.
    public func receiveSome() throws -> [UInt8] {
        if received.bytes.isEmpty { try fill() }
        return takeBuffered()
    }

    /// Reads once, adding what arrived to the buffer.
    private func fill() throws {
        switch receive() {
        case .bytes(let bytes): received.append(bytes)
        case .ended(.timeout): throw Failure.timeout
        case .ended: throw Failure.closed
        }
    }

    private enum Ending { case fin, failed, timeout }

    private enum Reception {
        case bytes(ArraySlice<UInt8>)
        case ended(Ending)
    }

    private func receive() -> Reception {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var count = recv(fd, &chunk, chunk.count, 0)
        // Another test's child process exiting (SIGCHLD) interrupts a blocked read: not an answer.
        while count < 0 && errno == EINTR { count = recv(fd, &chunk, chunk.count, 0) }
        if count > 0 { return .bytes(chunk[0..<count]) }
        if count == 0 { return .ended(.fin) }
        return .ended(errno == EAGAIN || errno == EWOULDBLOCK ? .timeout : .failed)
    }

    /// Reads until the connection ends or the read times out: the buffered bytes and all that came.
    private func drain() -> (bytes: [UInt8], ending: Ending) {
        while true {
            switch receive() {
            case .bytes(let bytes): received.append(bytes)
            case .ended(let ending): return (received.takeAll(), ending)
            }
        }
    }
}
