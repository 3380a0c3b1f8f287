// The TLS test clients use Glibc sockets (socket pairs, SOCK_STREAM, MSG_NOSIGNAL); the server side is portable.
#if os(Linux)
import COpenSSL
import Foundation
import Glibc
import Synchronization
import Testing
@testable import HTTPServer

/// A server transport and a client stepped against each other over a socket pair, on one thread.
private struct TLSPair {
    let context: TLSServerContext
    let server: TLSTransport
    let client: TLSTestPeer
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)

    init(context: TLSServerContext? = nil, prefixBytes: Int? = nil, client makeClient: (Int32) -> TLSTestPeer = { TLSTestPeer(fd: $0) }) {
        let context = context ?? (try! TLSServerContext(certificates: TestAuthority.shared)) // setup of a fixed configuration
        let (serverFD, clientFD) = makeSocketPair()
        client = makeClient(clientFD)
        self.context = context
        if let prefixBytes {
            // Plays the proxy: the client's first bytes were read off the socket before TLS began.
            _ = client.handshakeStep()
            var prefix = [UInt8](repeating: 0, count: prefixBytes)
            let count = recv(serverFD, &prefix, prefixBytes, 0)
            server = TLSTransport(socket: serverFD, context: context, prefix: Array(prefix[0..<max(0, count)]))
        } else {
            server = TLSTransport(socket: serverFD, context: context)
        }
    }

    /// What one server read gives.
    func serverReceive() -> TransportIO { server.receive(into: buffer) }

    /// The text of the last `.done` read.
    func text(_ result: TransportIO) -> String? {
        guard case .done(let count) = result else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
    }

    /// Steps both sides until the handshake is done on both, or either fails; the server's last result.
    @discardableResult
    func handshake() -> TransportIO {
        var last = TransportIO.wouldBlock
        for _ in 0..<20 {
            let clientDone = client.handshakeStep()
            last = serverReceive()
            if clientDone == nil || !(last == .wouldBlock || last == .done(0)) { return last }
            if clientDone == true && server.isHandshakeComplete { return last }
        }
        return last
    }

    func send(_ text: String) -> TransportIO {
        Array(text.utf8).withUnsafeBytes { server.send($0) }
    }
}

/// Asks the test CA, and remembers which names it was asked for; refuses `refused`.
private final class RecordingCertificates: TLSCertificateSource, @unchecked Sendable { // the Mutex guards `asked`
    private let asked = Mutex<[String?]>([])
    let refused: String?
    init(refusing refused: String? = nil) { self.refused = refused }
    var names: [String?] { asked.withLock { $0 } }
    func installCertificate(forServerName serverName: String?, on ssl: OpaquePointer) -> Bool {
        asked.withLock { $0.append(serverName) }
        return serverName != refused && TestAuthority.shared.installCertificate(forServerName: serverName, on: ssl)
    }
}

@Suite("TLS transport")
struct TLSTransportTests {
    @Test("the certificate source is asked for the SNI name, lower-cased, and for the default (nil) without SNI")
    func certificateSelection() throws {
        let source = RecordingCertificates(refusing: "nobody.example")
        let context = try TLSServerContext(certificates: source)
        let named = TLSPair(context: context, client: { TLSTestPeer(fd: $0, serverName: "API.Example.COM", trusting: nil) })
        named.handshake()
        let bare = TLSPair(context: context, client: { TLSTestPeer(fd: $0, serverName: nil) })
        bare.handshake()
        #expect(named.server.serverName == "api.example.com" && bare.server.isHandshakeComplete && bare.server.serverName == nil)
        #expect(bare.client.verifyResult == Int(X509_V_OK))
        #expect(source.names == ["api.example.com", nil])
        let refused = TLSPair(context: context, client: { TLSTestPeer(fd: $0, serverName: "nobody.example", trusting: nil) })
        #expect(refused.handshake() == .failed(EPROTO))
        #expect(context.missingCertificateCount == 1 && context.failedHandshakeCount == 1)
    }

    @Test("a handshake with SNI and ALPN: verified by the client, name and protocol known to the server, bytes both ways")
    func handshakeAndData() {
        let pair = TLSPair()
        #expect(pair.handshake() == .wouldBlock)
        #expect(pair.server.isHandshakeComplete && pair.server.serverName == "localhost" && pair.server.negotiatedProtocol == "http/1.1")
        #expect(pair.client.verifyResult == Int(X509_V_OK))
        #expect(pair.context.completedHandshakeCount == 1 && pair.context.failedHandshakeCount == 0)
        pair.client.write("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(pair.text(pair.serverReceive()) == "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(pair.send("HTTP/1.1 204 No Content\r\n\r\n") == .done(27))
        #expect(pair.client.read() == "HTTP/1.1 204 No Content\r\n\r\n")
        #expect(pair.server.isSecure)
    }

    @Test("TLS 1.2 and 1.3 both negotiate; a client that offers only TLS 1.1 fails and is counted")
    func versions() {
        for version in [TLS1_2_VERSION, TLS1_3_VERSION] {
            let pair = TLSPair(client: { TLSTestPeer(fd: $0, maxVersion: version) })
            pair.handshake()
            #expect(pair.server.isHandshakeComplete && SSL_version(pair.client.ssl) == version)
        }
        let context = try! TLSServerContext(certificates: TestAuthority.shared) // fixed configuration
        let old = TLSPair(context: context, client: { TLSTestPeer(fd: $0, maxVersion: TLS1_1_VERSION, minVersion: TLS1_VERSION) })
        #expect(old.handshake() == .failed(EPROTO))
        #expect(context.failedHandshakeCount == 1 && !old.server.isHandshakeComplete)
    }

    @Test("ALPN: no ALPN and an offer without http/1.1 both go on without a protocol")
    func alpnFallback() {
        for offer in [[], ["h2"]] as [[String]] {
            let pair = TLSPair(client: { TLSTestPeer(fd: $0, alpn: offer) })
            pair.handshake()
            #expect(pair.server.isHandshakeComplete && pair.server.negotiatedProtocol == nil)
        }
    }

    @Test("garbage instead of a ClientHello fails the handshake and is counted")
    func garbage() {
        for bytes in [[0x16, 0x03, 0x01, 0x00, 0x05, 0x02, 0x00, 0x00, 0x01, 0x00], Array(repeating: 0, count: 64), Array("hello there\r\n".utf8)] as [[UInt8]] {
            let (serverFD, clientFD) = makeSocketPair()
            defer { close(clientFD) }
            let context = try! TLSServerContext(certificates: TestAuthority.shared) // fixed configuration
            let server = TLSTransport(socket: serverFD, context: context)
            defer { server.close(reset: false) }
            rawWrite(clientFD, bytes)
            var scratch = [UInt8](repeating: 0, count: 1024)
            let result = scratch.withUnsafeMutableBytes { server.receive(into: $0) }
            #expect(result == .failed(EPROTO), "\(bytes)")
            #expect(context.failedHandshakeCount == 1)
        }
    }

    @Test("a truncated ClientHello waits for the rest; the client's end of stream then fails it")
    func truncatedHello() {
        let (captureServer, captureClient) = makeSocketPair()
        let capturing = TLSTestPeer(fd: captureClient)
        _ = capturing.handshakeStep()
        let bytes = rawRead(captureServer).bytes
        close(captureServer)
        #expect(bytes.count > 100)

        let (serverFD, clientFD) = makeSocketPair()
        let context = try! TLSServerContext(certificates: TestAuthority.shared) // fixed configuration
        let server = TLSTransport(socket: serverFD, context: context)
        defer { server.close(reset: false) }
        rawWrite(clientFD, Array(bytes[0..<bytes.count / 2]))
        var scratch = [UInt8](repeating: 0, count: 1024)
        #expect(scratch.withUnsafeMutableBytes { server.receive(into: $0) } == .wouldBlock)
        _ = shutdown(clientFD, Int32(SHUT_WR))
        #expect(scratch.withUnsafeMutableBytes { server.receive(into: $0) } == .failed(EPROTO))
        #expect(context.failedHandshakeCount == 1)
        close(clientFD)
    }

    @Test("plain HTTP on the TLS port gets a plaintext 400 naming https, then our FIN; the client's close ends it")
    func plainHTTP() {
        let (serverFD, clientFD) = makeSocketPair()
        defer { close(clientFD) }
        let context = try! TLSServerContext(certificates: TestAuthority.shared) // fixed configuration
        let server = TLSTransport(socket: serverFD, context: context)
        defer { server.close(reset: false) }
        rawWrite(clientFD, Array("GET / HTTP/1.1\r\nHost: localhost:8443\r\n\r\n".utf8))
        var scratch = [UInt8](repeating: 0, count: 1024)
        #expect(scratch.withUnsafeMutableBytes { server.receive(into: $0) } == .wouldBlock)
        let (answer, ended) = rawRead(clientFD)
        let text = String(decoding: answer, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n") && text.contains("Content-Type: text/plain") && text.contains("https://"))
        #expect(ended)
        #expect(context.plaintextRequestCount == 1 && context.failedHandshakeCount == 0)
        rawWrite(clientFD, Array("more".utf8)) // dropped, not answered
        #expect(scratch.withUnsafeMutableBytes { server.receive(into: $0) } == .wouldBlock)
        _ = shutdown(clientFD, Int32(SHUT_WR))
        #expect(scratch.withUnsafeMutableBytes { server.receive(into: $0) } == .closed)
    }

    @Test("bytes read before TLS began (a proxy's) are replayed, whole or in part, and the socket takes over")
    func prefixReplay() {
        for prefix in [5, 40, 16 * 1024] {
            let pair = TLSPair(prefixBytes: prefix)
            pair.handshake()
            #expect(pair.server.isHandshakeComplete && pair.server.serverName == "localhost")
            pair.client.write("ping")
            #expect(pair.text(pair.serverReceive()) == "ping")
        }
    }

    @Test("records read ahead are announced by hasBufferedInput, since the kernel no longer has them")
    func bufferedInput() {
        let pair = TLSPair()
        pair.handshake()
        for index in 1...3 { pair.client.write("GET /\(index) HTTP/1.1\r\n\r\n") }
        var received = pair.text(pair.serverReceive()) ?? ""
        var peek: UInt8 = 0
        #expect(recv(pair.server.fileDescriptor, &peek, 1, Int32(MSG_PEEK)) == -1 && errno == EAGAIN) // all of it is in OpenSSL now
        #expect(received == "GET /1 HTTP/1.1\r\n\r\n" && pair.server.hasBufferedInput)
        while pair.server.hasBufferedInput { received += pair.text(pair.serverReceive()) ?? "" }
        #expect(received == "GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\nGET /3 HTTP/1.1\r\n\r\n")
        #expect(pair.serverReceive() == .wouldBlock && !pair.server.hasBufferedInput)
    }

    @Test("shutdownWrite sends close_notify; the client's close_notify is an orderly end of stream")
    func closeNotify() {
        let pair = TLSPair()
        pair.handshake()
        pair.server.shutdownWrite()
        _ = pair.client.read()
        #expect(SSL_get_shutdown(pair.client.ssl) & SSL_RECEIVED_SHUTDOWN != 0)
        _ = SSL_shutdown(pair.client.ssl)
        #expect(pair.serverReceive() == .closed)
    }

    @Test("sessions resume: a second connection that offers the first one's ticket skips the full handshake")
    func resumption() {
        for version in [TLS1_2_VERSION, TLS1_3_VERSION] {
            let context = try! TLSServerContext(certificates: TestAuthority.shared) // fixed configuration
            let first = TLSPair(context: context, client: { TLSTestPeer(fd: $0, maxVersion: version) })
            first.handshake()
            first.client.write("x")
            _ = first.serverReceive()
            _ = first.send("y")
            #expect(first.client.read() == "y") // TLS 1.3 tickets arrive with the first read
            let session = SSL_get1_session(first.client.ssl)
            defer { SSL_SESSION_free(session) }
            let second = TLSPair(
                context: context,
                client: { fd in
                    let peer = TLSTestPeer(fd: fd, maxVersion: version)
                    _ = SSL_set_session(peer.ssl, session)
                    return peer
                })
            second.handshake()
            #expect(second.server.isHandshakeComplete && SSL_session_reused(second.client.ssl) == 1)
        }
    }
}
#endif
