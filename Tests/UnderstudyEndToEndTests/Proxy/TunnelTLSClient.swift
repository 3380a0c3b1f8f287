import COpenSSL
import Foundation
import TestSockets

/// The TLS client an app's HTTP stack runs inside a CONNECT tunnel, over the proxy connection's
/// socket, trusting only the CA given, with SNI and the hostname check on, ALPN http/1.1.
///
/// Memory BIOs between OpenSSL and the socket, so a test can send its ClientHello before it has
/// read the proxy's `200` (as clients that pipeline do) and strip that answer from the stream.
final class TunnelTLSClient: @unchecked Sendable { // one test drives it, one call at a time
    /// Why the TLS session could not be used.
    enum Failure: Error { case handshake(verify: Int, detail: String), closed, proxyRefused(Int) }

    private let context: TLSClientContext
    private let ssl: OpaquePointer
    private let input: OpaquePointer // what the server sent, for OpenSSL to read
    private let output: OpaquePointer // what OpenSSL wrote, for the socket
    private let proxy: RawClient // owns the socket
    private var proxyAnswerPending: Bool
    private var received = HTTPResponseBuffer()
    private var unsent: [UInt8]

    /// Shakes hands over `proxy`'s socket for `serverName`. `connectFirst` (a CONNECT head) goes
    /// out in the same write as the ClientHello; its answer, not read yet, is read (and must be 200)
    /// once the hello is on its way, as clients that pipeline do.
    init(over proxy: RawClient, serverName: String, trusting caPEM: String, connectFirst: String? = nil) throws {
        self.proxy = proxy
        proxyAnswerPending = connectFirst != nil
        unsent = Array((connectFirst ?? "").utf8)
        context = try TLSClientContext(caPEM: caPEM, minVersion: TLS1_2_VERSION)
        ssl = context.session(serverName: serverName, verifyName: serverName)
        input = BIO_new(BIO_s_mem())!
        output = BIO_new(BIO_s_mem())!
        SSL_set_bio(ssl, input, output) // the SSL owns both now
        SSL_set_connect_state(ssl)
        while true {
            let result = SSL_do_handshake(ssl)
            try flush()
            if result == 1 { break }
            guard SSL_get_error(ssl, result) == SSL_ERROR_WANT_READ else {
                var detail = [CChar](repeating: 0, count: 256)
                ERR_error_string_n(ERR_get_error(), &detail, detail.count)
                throw Failure.handshake(verify: SSL_get_verify_result(ssl), detail: String(decoding: detail.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
            try readMore()
        }
    }

    deinit { SSL_free(ssl) }

    /// The protocol ALPN settled on.
    var negotiatedProtocol: String {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data else { return "" }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// Sends one request and reads its response (Content-Length framing).
    func request(_ method: String, _ target: String, host: String, headers: [String: String] = [:], body: String = "") throws -> HTTPReply {
        let bytes = Array(HTTPWire.request(method, target, host: host, headers: headers, body: body).utf8)
        var written = 0
        guard SSL_write_ex(ssl, bytes, bytes.count, &written) == 1, written == bytes.count else { throw Failure.closed }
        try flush()
        while true {
            if let reply = try received.takeReply() { return reply }
            try fill()
        }
    }

    /// Decrypts more plaintext into `received`.
    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var count = 0
            if SSL_read_ex(ssl, &chunk, chunk.count, &count) == 1 {
                received.append(chunk[0..<count])
                return
            }
            guard SSL_get_error(ssl, 0) == SSL_ERROR_WANT_READ else { throw Failure.closed }
            try readMore()
        }
    }

    /// Sends what OpenSSL wrote.
    private func flush() throws {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while BIO_ctrl_pending(output) > 0 {
            let count = BIO_read(output, &chunk, Int32(chunk.count))
            guard count > 0 else { return }
            proxy.send(unsent + chunk[0..<Int(count)])
            unsent = []
        }
    }

    /// Moves bytes from the socket to OpenSSL, past the proxy's answer when it is still unread.
    private func readMore() throws {
        var bytes: [UInt8]
        if proxyAnswerPending {
            proxyAnswerPending = false
            let answer = try proxy.readResponse(tunnel: true)
            guard answer.status == 200 else { throw Failure.proxyRefused(answer.status) }
            bytes = proxy.takeBuffered()
            if !bytes.isEmpty {
                _ = BIO_write(input, bytes, Int32(bytes.count))
                return
            }
        }
        bytes = try proxy.receiveSome()
        _ = BIO_write(input, bytes, Int32(bytes.count))
    }
}
