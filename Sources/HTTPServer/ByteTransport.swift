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

    /// Writes with `send(MSG_NOSIGNAL)`, so a vanished peer is an error, not a SIGPIPE.
    public func send(_ bytes: UnsafeRawBufferPointer) -> TransportIO {
        while true {
            #if canImport(Glibc)
            let count = Glibc.send(fileDescriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            #else
            let count = Darwin.send(fileDescriptor, bytes.baseAddress, bytes.count, 0)
            #endif
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
        if reset {
            var option = linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(fileDescriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        // Qualified because this method's own name hides the C function.
        #if canImport(Glibc)
        _ = Glibc.close(fileDescriptor)
        #else
        _ = Darwin.close(fileDescriptor)
        #endif
    }
}
