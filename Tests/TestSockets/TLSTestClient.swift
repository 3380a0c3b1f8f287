// Linux only, as before: every suite that drives it is, so no build elsewhere would check it.
#if os(Linux)
import COpenSSL
import Foundation
import Glibc

/// A blocking TLS client connection to 127.0.0.1 for tests: SNI, a verified chain with the name
/// checked (SSL_set1_host, or the IP for an address), ALPN, and raw HTTP/1.1 on top.
public final class TLSTestClient {
    /// Why a connection or a read did not work.
    public enum Failure: Error, CustomStringConvertible {
        /// The connection was refused; the errno.
        case connect(Int32)
        /// The handshake failed: OpenSSL's reason and the verify result.
        case handshake(String)
        /// The receive timeout passed.
        case timeout
        /// The server ended the stream (close_notify, EOF or a reset).
        case closed
        /// What arrived is no HTTP response.
        case malformed

        /// The failure in words.
        public var description: String {
            switch self {
            case .connect(let code): return "connect: \(String(cString: strerror(code)))"
            case .handshake(let text): return "handshake: \(text)"
            case .timeout: return "timed out"
            case .closed: return "closed by the server"
            case .malformed: return "malformed response"
            }
        }
    }

    /// The socket.
    public let fd: Int32
    /// The OpenSSL session (`SSL`).
    public let ssl: OpaquePointer
    private var received = HTTPResponseBuffer()

    /// Connects and completes the handshake. `serverName` is sent as SNI (nil: none); the
    /// certificate must cover `expectedName` (default: the SNI name, else 127.0.0.1).
    public init(
        port: Int, context: TLSClientContext, serverName: String?, expectedName: String? = nil, alpn: [String] = ["http/1.1"],
        timeout: Double = 10
    ) throws {
        do { fd = try TestSocket.connect(port: port, receiveTimeout: timeout, sendTimeout: timeout) } catch { throw Failure.connect(error.code) }
        ssl = context.session(serverName: serverName, verifyName: expectedName ?? serverName ?? "127.0.0.1", alpn: alpn)
        _ = SSL_set_fd(ssl, fd)
        ERR_clear_error()
        guard SSL_connect(ssl) == 1 else {
            let verify = SSL_get_verify_result(ssl)
            let reason = Self.errorText()
            // Every property is set, so the throw runs deinit, which frees the session and closes the socket.
            throw Failure.handshake("\(reason); verify result \(verify): \(String(cString: X509_verify_cert_error_string(verify)))")
        }
    }

    deinit {
        SSL_free(ssl)
        close(fd)
    }

    /// The negotiated TLS version (TLS1_2_VERSION, TLS1_3_VERSION).
    public var version: Int32 { SSL_version(ssl) }

    /// The ALPN protocol the server chose; nil without one.
    public var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The subject CN of the server's certificate.
    public var peerCommonName: String? {
        guard let certificate = SSL_get0_peer_certificate(ssl) else { return nil }
        var name = [CChar](repeating: 0, count: 256)
        guard X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, &name, Int32(name.count)) > 0 else { return nil }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Encrypts and sends `text` (one SSL_write: one record per call up to 16 KiB).
    public func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var written = 0
        guard bytes.isEmpty || SSL_write_ex(ssl, bytes, bytes.count, &written) == 1 else { throw Failure.closed }
    }

    /// Sends `request` and reads its response.
    public func exchange(_ request: String) throws -> HTTPReply {
        try send(request)
        return try readReply()
    }

    /// Reads one response with a Content-Length body.
    public func readReply() throws -> HTTPReply {
        while true {
            do {
                if let reply = try received.takeReply() { return reply }
            } catch {
                throw Failure.malformed
            }
            try fill()
        }
    }

    /// Everything until the server ends the stream (close_notify, EOF or a reset), what was
    /// buffered included; throws `timeout` when it does not in time.
    public func readToEnd() throws -> [UInt8] {
        while true {
            do { try fill() } catch Failure.closed { return received.takeAll() }
        }
    }

    /// Reads until the server ends the stream (close_notify or EOF); true when it did before the timeout.
    public func waitForClose() -> Bool { (try? readToEnd()) != nil }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var count = 0
        ERR_clear_error()
        if SSL_read_ex(ssl, &chunk, chunk.count, &count) == 1 {
            received.append(chunk[0..<count])
            return
        }
        let error = SSL_get_error(ssl, 0)
        let code = errno
        ERR_clear_error()
        if error == SSL_ERROR_ZERO_RETURN { throw Failure.closed }
        if error == SSL_ERROR_SYSCALL && (code == EAGAIN || code == EWOULDBLOCK) { throw Failure.timeout }
        if error == SSL_ERROR_WANT_READ { throw Failure.timeout }
        throw Failure.closed // EOF without close_notify, or a reset: the server is gone either way
    }

    private static func errorText() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "no OpenSSL error" }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
