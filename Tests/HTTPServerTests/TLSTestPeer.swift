// The TLS test clients use Glibc sockets (socket pairs, SOCK_STREAM, MSG_NOSIGNAL); the server side is portable.
#if os(Linux)
import COpenSSL
import Foundation
import Glibc
import TestSockets

@testable import HTTPServer

/// One local CA for this test process, made in a temporary folder that is deleted at once (the
/// CA stays in memory), so each handshake test gets a leaf minted for its SNI name.
enum TestAuthority {
    static let shared: LocalCertificateAuthority = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("understudy-tls-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) } // litter in /tmp at worst
        return try! LocalCertificateAuthority(directory: folder) // a machine that cannot write /tmp cannot run these tests
    }()

    /// The CA certificate in PEM, for a client's trust store.
    static let certificatePEM: String = String(decoding: try! shared.exportCertificate(as: .pem), as: UTF8.self) // exporting a loaded CA cannot fail
}

/// A non-blocking OpenSSL client on one end of a socket pair, stepped by the test on the same
/// thread as the server transport on the other end: no threads, no timing.
final class TLSTestPeer {
    let fd: Int32
    private let context: TLSClientContext
    let ssl: OpaquePointer

    init(
        fd: Int32, serverName: String? = "localhost", alpn: [String] = ["http/1.1"], trusting pem: String? = TestAuthority.certificatePEM,
        maxVersion: Int32 = TLS1_3_VERSION, minVersion: Int32 = TLS1_2_VERSION
    ) {
        self.fd = fd
        context = try! TLSClientContext(caPEM: pem, minVersion: minVersion, maxVersion: maxVersion) // the tests' own PEM always parses
        ssl = context.session(serverName: serverName, verifyName: serverName, alpn: alpn)
        SSL_set_connect_state(ssl)
        _ = SSL_set_fd(ssl, fd)
    }

    deinit {
        SSL_free(ssl)
        close(fd)
    }

    /// One handshake step: true when done, false when it waits for the server, nil when it failed.
    func handshakeStep() -> Bool? {
        let result = SSL_do_handshake(ssl)
        if result == 1 { return true }
        let error = SSL_get_error(ssl, result)
        ERR_clear_error()
        return error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE ? false : nil
    }

    /// Encrypts and sends `text` as one record.
    func write(_ text: String) {
        let bytes = Array(text.utf8)
        var written = 0
        precondition(SSL_write_ex(ssl, bytes, bytes.count, &written) == 1 && written == bytes.count, "a test write did not fit the socket pair")
    }

    /// Reads whatever plaintext is available now.
    func read() -> String {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            var count = 0
            guard SSL_read_ex(ssl, &buffer, buffer.count, &count) == 1 else {
                ERR_clear_error()
                break
            }
            collected += buffer[0..<count]
        }
        return String(decoding: collected, as: UTF8.self)
    }

    /// The last verification result (X509_V_OK when the chain and name checked out).
    var verifyResult: Int { SSL_get_verify_result(ssl) }
}

/// A connected pair of non-blocking stream sockets: (server end, client end).
func makeSocketPair() -> (Int32, Int32) {
    var fds: [Int32] = [0, 0]
    precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0, "socketpair failed")
    for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    return (fds[0], fds[1])
}

/// Plain bytes written straight to a socket (for garbage and plain HTTP).
func rawWrite(_ fd: Int32, _ bytes: [UInt8]) {
    precondition(Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count, "a test write did not fit the socket pair")
}

/// Everything readable on a plain socket now, and whether it reached end of stream.
func rawRead(_ fd: Int32) -> (bytes: [UInt8], ended: Bool) {
    var collected: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = recv(fd, &buffer, buffer.count, 0)
        if count > 0 { collected += buffer[0..<count]; continue }
        return (collected, count == 0)
    }
}
#endif
