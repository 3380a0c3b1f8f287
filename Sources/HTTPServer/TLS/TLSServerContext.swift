import COpenSSL
import Synchronization

/// The TLS settings every connection of one listener shares: one OpenSSL `SSL_CTX`.
///
/// TLS 1.2 minimum (1.3 allowed), the server's cipher order, a session cache and tickets so that
/// clients resume, ALPN `http/1.1` (a client that offers only other protocols goes on without
/// ALPN), and a servername (SNI) callback that asks the certificate source for the name's
/// certificate, or for the default one when the client sent no SNI.
///
/// `@unchecked Sendable`: the `SSL_CTX` is configured in `init` and never changed afterwards, and
/// OpenSSL makes creating connections from it (and its session cache) thread-safe; the counters
/// are atomics.
public final class TLSServerContext: TransportFactory, @unchecked Sendable {
    /// Why a context could not be made.
    public enum SetupError: Error, CustomStringConvertible {
        /// An OpenSSL call failed; carries the call and OpenSSL's error text.
        case openSSL(String, String)

        /// A sentence for the operator.
        public var description: String {
            switch self {
            case .openSSL(let call, let reason): return "TLS setup failed in \(call): \(reason)"
            }
        }
    }

    /// The `SSL_CTX *` connections are made from.
    let context: OpaquePointer
    /// Where certificates come from.
    public let certificates: any TLSCertificateSource
    private let failedHandshakes = Atomic<Int>(0)
    private let plaintextRequests = Atomic<Int>(0)
    private let completedHandshakes = Atomic<Int>(0)
    private let missingCertificates = Atomic<Int>(0)

    /// Creates the context; `certificates` is asked for a certificate on every handshake.
    @inline(never) // classes holding Atomic/Mutex are allocated in their own module: docs/notes/release-heap-corruption.md
    public init(certificates: any TLSCertificateSource) throws {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw SetupError.openSSL("SSL_CTX_new", Self.lastError()) }
        self.context = context
        self.certificates = certificates
        try configure()
    }

    deinit {
        SSL_CTX_free(context)
    }

    private func configure() throws {
        guard understudy_ssl_ctx_set_min_proto_version(context, TLS1_2_VERSION) == 1 else {
            throw SetupError.openSSL("SSL_CTX_set_min_proto_version", Self.lastError())
        }
        // Renegotiation off: it is the only way a TLS 1.2 SSL_write can want to read, which an
        // event loop would see as a writable socket that never makes progress.
        // Unexpected EOF is an orderly end: many clients close without close_notify after
        // a `Connection: close` answer, and HTTP framing already says whether a message is whole.
        _ = SSL_CTX_set_options(
            context,
            understudy_ssl_op_cipher_server_preference() | understudy_ssl_op_no_renegotiation()
                | understudy_ssl_op_ignore_unexpected_eof() | understudy_ssl_op_no_compression())
        // TLS 1.2 suites: forward-secret AEADs only, for ECDSA (what the local CA mints) or RSA keys.
        guard SSL_CTX_set_cipher_list(context, "ECDHE+AESGCM:ECDHE+CHACHA20") == 1 else {
            throw SetupError.openSSL("SSL_CTX_set_cipher_list", Self.lastError())
        }
        // Partial writes and a moving buffer: the connection retries from its own buffer, which
        // may have grown (pipelined answers) or moved since. Released buffers: an idle TLS
        // connection then holds no 16 KiB record buffers, which matters with 1,000 of them.
        _ = understudy_ssl_ctx_set_mode(context, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS))
        // Read ahead: one recv takes every record the kernel holds instead of a header and a body
        // per record; `TLSTransport.hasBufferedInput` tells the connection about what was read ahead.
        understudy_ssl_ctx_set_read_ahead(context, 1)
        _ = understudy_ssl_ctx_set_session_cache_mode(context, Int(SSL_SESS_CACHE_SERVER))
        // Stateless tickets carry most resumptions; the cache (TLS 1.2 session ids) is bounded
        // so that clients that never resume cannot grow it past a few MiB.
        _ = understudy_ssl_ctx_sess_set_cache_size(context, 4_096)
        let sessionContext: [UInt8] = Array("understudy".utf8)
        guard SSL_CTX_set_session_id_context(context, sessionContext, UInt32(sessionContext.count)) == 1 else {
            throw SetupError.openSSL("SSL_CTX_set_session_id_context", Self.lastError())
        }
        understudy_ssl_ctx_select_alpn_http11(context)
        // The callback reaches this object through an unretained pointer: the context outlives
        // every connection made from it (each TLSTransport holds it strongly).
        let unretained = Unmanaged.passUnretained(self).toOpaque()
        _ = understudy_ssl_ctx_set_servername_callback(
            context,
            { ssl, alert, argument in
                guard let ssl, let argument else { return SSL_TLSEXT_ERR_ALERT_FATAL }
                let context = Unmanaged<TLSServerContext>.fromOpaque(argument).takeUnretainedValue()
                return context.selectCertificate(ssl, alert: alert)
            }, unretained)
    }

    /// The servername callback: installs the certificate for the client's SNI name (or the default).
    private func selectCertificate(_ ssl: OpaquePointer, alert: UnsafeMutablePointer<Int32>?) -> Int32 {
        let name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0).lowercased() }
        if certificates.installCertificate(forServerName: name, on: ssl) { return SSL_TLSEXT_ERR_OK }
        missingCertificates.add(1, ordering: .relaxed)
        alert?.pointee = Int32(SSL_AD_INTERNAL_ERROR)
        return SSL_TLSEXT_ERR_ALERT_FATAL
    }

    /// A `TLSTransport` for a connection accepted on a TLS port (the handshake starts with its first read).
    public func makeTransport(socket: Int32) -> any ByteTransport {
        TLSTransport(socket: socket, context: self)
    }

    // MARK: - Counters (for tests and monitoring)

    /// Handshakes that failed: garbage, a truncated or refused ClientHello, an unsupported version.
    public var failedHandshakeCount: Int { failedHandshakes.load(ordering: .relaxed) }
    /// Plain HTTP requests that arrived on the TLS port (each got a plaintext 400).
    public var plaintextRequestCount: Int { plaintextRequests.load(ordering: .relaxed) }
    /// Handshakes that completed.
    public var completedHandshakeCount: Int { completedHandshakes.load(ordering: .relaxed) }
    /// Handshakes the certificate source had no certificate for (each failed).
    public var missingCertificateCount: Int { missingCertificates.load(ordering: .relaxed) }

    func recordFailedHandshake() { failedHandshakes.add(1, ordering: .relaxed) }
    func recordPlaintextRequest() { plaintextRequests.add(1, ordering: .relaxed) }
    func recordCompletedHandshake() { completedHandshakes.add(1, ordering: .relaxed) }

    /// The oldest error on this thread's OpenSSL error queue as text (the queue is cleared).
    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no OpenSSL error recorded" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
