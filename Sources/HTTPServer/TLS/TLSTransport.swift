import COpenSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TLS server connection over a non-blocking socket: what the connection reads and writes is
/// plaintext; OpenSSL does the records.
///
/// OpenSSL reads and writes the socket itself (`SSL_set_fd`) rather than through memory BIOs: no
/// copy of every byte through a Swift buffer, and a blocked write is the socket's own EAGAIN, so
/// `send` returns `.wouldBlock` exactly when the kernel is full and the connection's usual wait
/// for writability applies. The one memory BIO is for `prefix`, bytes a proxy already read from
/// the socket: OpenSSL reads them first and then switches to the socket.
///
/// The handshake is driven from `receive` (the server speaks only after the client's hello).
/// `SSL_ERROR_WANT_READ` is `.wouldBlock`. `SSL_ERROR_WANT_WRITE` during the handshake is
/// `.wouldBlock` too: the server's flight (about 1–3 KiB with an ECDSA leaf) goes into an empty
/// socket buffer of at least 16 KiB, so on a fresh connection it does not happen; if it ever
/// does, the connection stays watched for reads, and the client's next bytes (or its header
/// timeout) drive the next attempt, so it never spins. Renegotiation is off, so a write never
/// wants to read.
///
/// Plain HTTP sent to the TLS port (the first byte is an upper-case letter, the start of a
/// method, where TLS starts with 0x16) gets a plaintext `400` saying to use https, as nginx
/// does, then the connection is closed.
///
/// Confined to the connection's event loop, like every `ByteTransport`.
public final class TLSTransport: ByteTransport {
    private enum Phase {
        /// Nothing read yet: is it TLS at all?
        case sniffing
        case handshaking
        case established
        /// Plain HTTP arrived: the 400 and our FIN are sent; what else arrives is dropped until
        /// the client closes (so closing does not reset the answer away).
        case refusingPlaintext(discarded: Int)
        /// A fatal TLS error: nothing more may be said (no close_notify).
        case failed
        case closed
    }

    /// The connected socket.
    public let fileDescriptor: Int32
    /// The context the connection was made from (holds the certificate callback and counters).
    public let context: TLSServerContext
    private var ssl: OpaquePointer?
    private var phase = Phase.sniffing
    private var prefixBIO: OpaquePointer? // the read BIO while `prefix` bytes remain
    private var firstByte: UInt8?
    private var starved = false // the last read wanted bytes the kernel did not have
    private var sentCloseNotify = false
    /// The SNI name the client asked for (lower-cased), once the handshake is done.
    public private(set) var serverName: String?
    /// The ALPN protocol agreed on (`http/1.1`), once the handshake is done; nil without ALPN.
    public private(set) var negotiatedProtocol: String?

    /// Takes ownership of a connected, non-blocking socket; `prefix` are bytes already read from
    /// it (a ClientHello a proxy client sent right behind its `CONNECT`), replayed first.
    public init(socket: Int32, context: TLSServerContext, prefix: [UInt8] = []) {
        fileDescriptor = socket
        self.context = context
        guard let ssl = SSL_new(context.context) else {
            phase = .failed
            return
        }
        self.ssl = ssl
        SSL_set_accept_state(ssl)
        if prefix.isEmpty {
            _ = SSL_set_fd(ssl, socket)
            return
        }
        firstByte = prefix[0]
        guard let memory = BIO_new(BIO_s_mem()), let socketBIO = BIO_new_socket(socket, BIO_NOCLOSE) else {
            phase = .failed
            return
        }
        _ = prefix.withUnsafeBytes { BIO_write(memory, $0.baseAddress, Int32($0.count)) }
        _ = understudy_bio_set_mem_eof_return(memory, -1) // empty means "retry", not end of stream
        SSL_set_bio(ssl, memory, socketBIO) // SSL owns both now
        prefixBIO = memory
    }

    deinit {
        if let ssl { SSL_free(ssl) }
    }

    /// Whether the handshake has completed (and no fatal error or close followed).
    public var isHandshakeComplete: Bool {
        if case .established = phase { return true }
        return false
    }

    /// Always true: the bytes are encrypted on the wire.
    public var isSecure: Bool { true }

    /// Whether OpenSSL holds input the kernel no longer has (decrypted bytes not yet read, or
    /// records read ahead), which no epoll readiness will announce. False after a read that
    /// stopped on a partial record: the rest of it is still to come from the socket.
    public var hasBufferedInput: Bool {
        guard let ssl, case .established = phase, !starved else { return false }
        return SSL_has_pending(ssl) == 1 // decrypted bytes (SSL_pending) and records read ahead
    }

    // MARK: - Reading

    /// Reads plaintext; runs (and finishes) the handshake first.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) -> TransportIO {
        switch phase {
        case .sniffing:
            if let verdict = sniff() { return verdict }
            return receive(into: buffer)
        case .handshaking:
            if let verdict = handshake() { return verdict }
            return receive(into: buffer)
        case .established:
            return read(into: buffer)
        case .refusingPlaintext(let discarded):
            return discardPlaintext(alreadyDiscarded: discarded)
        case .failed:
            return .failed(EPROTO)
        case .closed:
            return .closed
        }
    }

    /// Looks at the first byte; nil when the handshake may begin.
    private func sniff() -> TransportIO? {
        var byte: UInt8 = 0
        if let firstByte {
            byte = firstByte
        } else {
            while true {
                let count = recv(fileDescriptor, &byte, 1, Int32(MSG_PEEK))
                if count > 0 { break }
                if count == 0 { return .closed } // connected and left without a word: no failure to count
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .wouldBlock
                default: return .failed(errno)
                }
            }
        }
        if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
            refusePlaintext()
            return discardPlaintext(alreadyDiscarded: 0)
        }
        phase = .handshaking
        return nil
    }

    /// Drives the handshake; nil once it is done (then reading goes on).
    private func handshake() -> TransportIO? {
        guard let ssl else { return .failed(EPROTO) }
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        if result == 1 {
            phase = .established
            serverName = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0).lowercased() }
            negotiatedProtocol = Self.selectedProtocol(ssl)
            context.recordCompletedHandshake()
            return nil
        }
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ:
            return switchedToSocket() ? handshake() : .wouldBlock
        case SSL_ERROR_WANT_WRITE:
            return .wouldBlock // see the type's comment
        default:
            // Garbage, a truncated hello (the client's EOF), no shared version or cipher: OpenSSL
            // has sent its alert where there was one to send.
            fail()
            context.recordFailedHandshake()
            return .failed(EPROTO)
        }
    }

    private func read(into buffer: UnsafeMutableRawBufferPointer) -> TransportIO {
        guard let ssl else { return .failed(EPROTO) }
        guard buffer.count > 0 else { return .done(0) }
        ERR_clear_error()
        var count = 0
        if SSL_read_ex(ssl, buffer.baseAddress, buffer.count, &count) == 1 {
            starved = false
            return .done(count)
        }
        let code = SSL_get_error(ssl, 0)
        switch code {
        case SSL_ERROR_WANT_READ:
            if switchedToSocket() { return read(into: buffer) }
            starved = true
            return .wouldBlock
        case SSL_ERROR_WANT_WRITE:
            // Only a TLS 1.3 key update answer can want to write here; the next read retries it.
            starved = true
            return .wouldBlock
        case SSL_ERROR_ZERO_RETURN:
            return .closed // close_notify, or (SSL_OP_IGNORE_UNEXPECTED_EOF) a bare EOF
        case SSL_ERROR_SYSCALL:
            let error = errno
            fail()
            return error == 0 ? .closed : .failed(error)
        default:
            fail()
            return .failed(EPROTO)
        }
    }

    /// When the replayed prefix is used up, reads continue from the socket. True when it switched.
    private func switchedToSocket() -> Bool {
        guard let ssl, let memory = prefixBIO, BIO_ctrl_pending(memory) == 0,
            let socketBIO = BIO_new_socket(fileDescriptor, BIO_NOCLOSE)
        else { return false }
        prefixBIO = nil
        SSL_set0_rbio(ssl, socketBIO) // frees the memory BIO
        return true
    }

    private static func selectedProtocol(_ ssl: OpaquePointer) -> String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    // MARK: - Plain HTTP on the TLS port

    static let plaintextRefusal: [UInt8] = {
        let body = "400 Bad Request: this port speaks HTTPS (TLS), and a plain HTTP request was sent to it.\nUse an https:// URL for this port.\n"
        let head = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return Array((head + body).utf8)
    }()

    /// Most plain input dropped after the 400 before closing anyway: a request body behind the
    /// head is read and dropped (no memory held) so the close does not reset the answer away;
    /// the connection's header timeout bounds the time.
    static let plaintextDiscardLimit = 1024 * 1024

    private func refusePlaintext() {
        context.recordPlaintextRequest()
        if let ssl { // a replayed prefix (proxy) is dropped with the session
            SSL_free(ssl)
            self.ssl = nil
            prefixBIO = nil
        }
        // What has arrived is read first: closing with unread input would reset the connection.
        _ = drain(limit: Self.plaintextDiscardLimit)
        let sent = Self.plaintextRefusal.withUnsafeBytes { rawSend($0) }
        _ = shutdown(fileDescriptor, Int32(SHUT_WR))
        // A refusal the socket would not take whole is abandoned: the close follows at once.
        phase = .refusingPlaintext(discarded: sent == Self.plaintextRefusal.count ? 0 : Self.plaintextDiscardLimit)
    }

    private func discardPlaintext(alreadyDiscarded: Int) -> TransportIO {
        guard alreadyDiscarded < Self.plaintextDiscardLimit else { return .closed }
        switch drain(limit: Self.plaintextDiscardLimit - alreadyDiscarded) {
        case .done(let count):
            phase = .refusingPlaintext(discarded: alreadyDiscarded + count)
            return alreadyDiscarded + count >= Self.plaintextDiscardLimit ? .closed : .wouldBlock
        case let other:
            return other
        }
    }

    /// Reads and drops what the socket holds, up to `limit` bytes: `.done(dropped)` when it ran
    /// dry (or hit the limit), `.closed` at end of stream.
    private func drain(limit: Int) -> TransportIO {
        var scratch = [UInt8](repeating: 0, count: 4096)
        var dropped = 0
        while dropped < limit {
            let count = scratch.withUnsafeMutableBytes { recv(fileDescriptor, $0.baseAddress, min($0.count, limit - dropped), 0) }
            if count > 0 {
                dropped += count
                continue
            }
            if count == 0 { return .closed }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .done(dropped)
            default: return .failed(errno)
            }
        }
        return .done(dropped)
    }

    private func rawSend(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset < bytes.count {
            let count = Socket.send(fileDescriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return offset
    }

    // MARK: - Writing and closing

    /// Encrypts and writes as much of `bytes` as the socket takes (whole records; partial writes on).
    public func send(_ bytes: UnsafeRawBufferPointer) -> TransportIO {
        guard let ssl, case .established = phase else { return .failed(ENOTCONN) }
        guard bytes.count > 0 else { return .done(0) }
        ERR_clear_error()
        var count = 0
        if SSL_write_ex(ssl, bytes.baseAddress, bytes.count, &count) == 1 { return .done(count) }
        switch SSL_get_error(ssl, 0) {
        case SSL_ERROR_WANT_WRITE, SSL_ERROR_WANT_READ:
            return .wouldBlock
        case SSL_ERROR_ZERO_RETURN:
            return .closed
        case SSL_ERROR_SYSCALL:
            let error = errno
            fail()
            return error == EPIPE || error == ECONNRESET || error == 0 ? .closed : .failed(error)
        default:
            fail()
            return .failed(EPROTO)
        }
    }

    /// Sends close_notify, then FIN; reading goes on (a lingering close reads what still comes).
    public func shutdownWrite() {
        sendCloseNotify()
        switch phase {
        case .closed: return
        default: _ = shutdown(fileDescriptor, Int32(SHUT_WR))
        }
    }

    /// Closes: close_notify first for an orderly close of a working session, then frees the
    /// session and closes the socket (`reset`: with RST).
    public func close(reset: Bool) {
        if case .closed = phase { return }
        if !reset { sendCloseNotify() }
        phase = .closed
        if let ssl {
            SSL_free(ssl)
            self.ssl = nil
        }
        if reset { Socket.setResetOnClose(fileDescriptor) }
        Socket.close(fileDescriptor)
    }

    private func sendCloseNotify() {
        guard let ssl, case .established = phase, !sentCloseNotify else { return }
        sentCloseNotify = true
        ERR_clear_error()
        _ = SSL_shutdown(ssl) // one try: a full socket loses the alert, the FIN still ends the stream
        ERR_clear_error()
    }

    /// After a fatal error OpenSSL must not be asked to say anything more.
    private func fail() {
        phase = .failed
        ERR_clear_error()
    }
}
