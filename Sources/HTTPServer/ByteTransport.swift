#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The result of one non-blocking transport operation.
public enum TransportIO: Equatable, Sendable {
    /// This many bytes were moved.
    case done(Int)
    /// Nothing can move now; wait for readiness.
    case wouldBlock
    /// The peer closed the stream (for reads: an orderly end of stream).
    case closed
    /// The transport failed with this errno.
    case failed(Int32)
}

/// The byte stream under a connection: plain TCP today, TLS later, without touching the parser or router.
///
/// Implementations are confined to the connection's queue and need not be thread-safe.
public protocol ByteTransport: AnyObject {
    /// The socket whose readiness drives this transport.
    var fileDescriptor: Int32 { get }
    /// Reads what is available into `buffer`.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> TransportIO
    /// Writes as much of `bytes` as the socket takes now.
    func send(_ bytes: UnsafeRawBufferPointer) -> TransportIO
    /// Closes the stream; `reset` aborts it with a TCP RST instead of an orderly FIN.
    func close(reset: Bool)
    /// Ends the outgoing direction (FIN) while still reading, for a lingering close.
    func shutdownWrite()
    /// Whether input is already held inside the transport (decrypted TLS records), which no
    /// socket readiness event will announce; the connection keeps reading while it is true.
    var hasBufferedInput: Bool { get }
    /// Whether the bytes are encrypted on the wire.
    var isSecure: Bool { get }
    /// The TLS server name the client asked for, once known.
    var serverName: String? { get }
}

extension ByteTransport {
    /// Plain transports hold nothing back.
    public var hasBufferedInput: Bool { false }
    /// Plain transports are not encrypted.
    public var isSecure: Bool { false }
    /// Plain transports have no server name.
    public var serverName: String? { nil }
}

/// Makes the transport for each socket a listener accepts (plain TCP unless a listener says otherwise).
public protocol TransportFactory: Sendable {
    /// Wraps a newly accepted, connected, non-blocking socket; the transport owns it from now on.
    func makeTransport(socket: Int32) -> any ByteTransport
}

/// The plain TCP transport factory.
public struct SocketTransportFactory: TransportFactory {
    /// Creates the factory.
    public init() {}
    /// A `SocketTransport` over `socket`.
    public func makeTransport(socket: Int32) -> any ByteTransport { SocketTransport(fileDescriptor: socket) }
}

/// A plain, non-blocking TCP socket.
public final class SocketTransport: ByteTransport {
    /// The connected socket.
    public let fileDescriptor: Int32
    private var isClosed = false

    /// Takes ownership of a connected, non-blocking socket.
    public init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Reads with `recv`.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> TransportIO {
        while true {
            let count = recv(fileDescriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .done(count) }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed(errno) // ECONNRESET included: a reset is not an orderly end
            }
        }
    }

    /// Writes with `send` (MSG_NOSIGNAL, or SO_NOSIGPIPE on Darwin), so a vanished peer is an error, not a SIGPIPE.
    public func send(_ bytes: UnsafeRawBufferPointer) -> TransportIO {
        while true {
            let count = Socket.send(fileDescriptor, bytes)
            if count >= 0 { return .done(count) }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case ECONNRESET, EPIPE: return .closed
            default: return .failed(errno)
            }
        }
    }

    /// Sends FIN with `shutdown(SHUT_WR)`; reads go on until `close`.
    public func shutdownWrite() {
        guard !isClosed else { return }
        _ = shutdown(fileDescriptor, Int32(SHUT_WR))
    }

    /// Closes the socket; with `reset`, SO_LINGER 0 makes the kernel send RST.
    public func close(reset: Bool) {
        guard !isClosed else { return }
        isClosed = true
        if reset { Socket.setResetOnClose(fileDescriptor) }
        Socket.close(fileDescriptor)
    }
}
