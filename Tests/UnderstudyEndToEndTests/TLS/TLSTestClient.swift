// The TLS test clients use Glibc sockets (socket pairs, SOCK_STREAM, MSG_NOSIGNAL); the server side is portable.
#if os(Linux)
import COpenSSL
import Foundation
import Glibc

/// The client side of the tests' TLS: trusts exactly one CA file, verifies the chain and the
/// host name (or IP) the way a phone does, offers ALPN. One context serves many connections.
final class TLSClientContext: @unchecked Sendable { // configured in init, then only read (OpenSSL contexts are thread-safe)
    let context: OpaquePointer

    /// A context trusting only `caPath`; `version` pins one TLS version (min = max) when given.
    init(caPath: String, version: Int32? = nil) throws {
        context = SSL_CTX_new(TLS_client_method())!
        // A throw from here on runs deinit (every property is set), which frees the context.
        guard SSL_CTX_load_verify_locations(context, caPath, nil) == 1 else { throw TLSTestClient.Failure.setup("cannot load \(caPath)") }
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        if let version {
            _ = understudy_ssl_ctx_set_min_proto_version(context, version)
            _ = understudy_ssl_ctx_set_max_proto_version(context, version)
        }
    }

    deinit { SSL_CTX_free(context) }
}

/// A blocking TLS client connection to 127.0.0.1 for end-to-end tests: SNI, a verified chain with
/// the name checked (SSL_set1_host, or the IP for an address), ALPN, and raw HTTP/1.1 on top.
final class TLSTestClient {
    /// Why a connection or a read did not work.
    enum Failure: Error, CustomStringConvertible {
        case setup(String), connect(Int32), handshake(String), timeout, closed, malformed

        var description: String {
            switch self {
            case .setup(let text): return "setup: \(text)"
            case .connect(let code): return "connect: \(String(cString: strerror(code)))"
            case .handshake(let text): return "handshake: \(text)"
            case .timeout: return "timed out"
            case .closed: return "closed by the server"
            case .malformed: return "malformed response"
            }
        }
    }

    /// One HTTP response.
    struct Reply {
        var status: Int
        var headers: [String: String] // lower-cased names
        var body: [UInt8]
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    let fd: Int32
    let ssl: OpaquePointer
    private var buffer: [UInt8] = []

    /// Connects and completes the handshake. `serverName` is sent as SNI (nil: none); the
    /// certificate must cover `expectedName` (default: the SNI name, else 127.0.0.1).
    init(
        port: Int, context: TLSClientContext, serverName: String?, expectedName: String? = nil, alpn: [String] = ["http/1.1"],
        timeout: Double = 10
    ) throws {
        fd = try Self.connect(port: port, timeout: timeout)
        ssl = SSL_new(context.context)!
        if let serverName { _ = understudy_ssl_set_tlsext_host_name(ssl, serverName) }
        let name = expectedName ?? serverName ?? "127.0.0.1"
        var address = in6_addr()
        if inet_pton(AF_INET, name, &address) == 1 || inet_pton(AF_INET6, name, &address) == 1 {
            _ = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name)
        } else {
            _ = SSL_set1_host(ssl, name)
        }
        if !alpn.isEmpty {
            let wire = alpn.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
            _ = SSL_set_alpn_protos(ssl, wire, UInt32(wire.count))
        }
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

    /// A connected blocking TCP socket with receive and send timeouts.
    static func connect(port: Int, timeout: Double = 10) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.connect(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - floor(timeout)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw Failure.connect(code)
        }
        return fd
    }

    /// The negotiated TLS version (TLS1_2_VERSION, TLS1_3_VERSION).
    var version: Int32 { SSL_version(ssl) }

    /// The ALPN protocol the server chose; nil without one.
    var negotiatedProtocol: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// The subject CN of the server's certificate.
    var peerCommonName: String? {
        guard let certificate = SSL_get0_peer_certificate(ssl) else { return nil }
        var name = [CChar](repeating: 0, count: 256)
        guard X509_NAME_get_text_by_NID(X509_get_subject_name(certificate), NID_commonName, &name, Int32(name.count)) > 0 else { return nil }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Encrypts and sends `text` (one SSL_write: one record per call up to 16 KiB).
    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var written = 0
        guard bytes.isEmpty || SSL_write_ex(ssl, bytes, bytes.count, &written) == 1 else { throw Failure.closed }
    }

    /// Sends `request` and reads its response.
    func exchange(_ request: String) throws -> Reply {
        try send(request)
        return try readReply()
    }

    /// Reads one response with a Content-Length body.
    func readReply() throws -> Reply {
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[0..<end], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed }
                var headers: [String: String] = [:]
                for line in lines where !line.isEmpty {
                    guard let colon = line.firstIndex(of: ":") else { throw Failure.malformed }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                while buffer.count < end + 4 + length { try fill() }
                let body = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return Reply(status: status, headers: headers, body: body)
            }
            try fill()
        }
    }

    /// Reads until the server ends the stream (close_notify or EOF); true when it did before the timeout.
    func waitForClose() -> Bool {
        while true {
            do { try fill() } catch Failure.closed { return true } catch { return false }
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4) where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var count = 0
        ERR_clear_error()
        if SSL_read_ex(ssl, &chunk, chunk.count, &count) == 1 {
            buffer += chunk[0..<count]
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
