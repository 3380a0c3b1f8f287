// The TLS test clients use Glibc sockets (socket pairs, SOCK_STREAM, MSG_NOSIGNAL); the server side is portable.
#if os(Linux)
import COpenSSL
import Foundation
import Glibc
import Testing
@testable import HTTPServer

@Suite("TLS listener")
struct TLSListenerTests {
    @Test("requests on a TLS listener say so: listener https, secure, the SNI name; the plain port stays plain")
    func connectionInfo() async throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0),
            application: ClosureApplication { request in
                let info = request.connection
                return .text("\(info.listener.rawValue) \(info.isSecure) \(info.serverName ?? "-")")
            })
        let plainPort = try server.start()
        let context = try TLSServerContext(certificates: TestAuthority.shared)
        let tlsPort = try server.addListener(ListenerConfiguration(host: "127.0.0.1", port: 0, kind: .https, transport: context))
        #expect(server.port(of: .https) == tlsPort && tlsPort != plainPort)
        let answer = try await Task.detached { () throws -> String in // blocking socket calls, off the cooperative pool
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(tlsPort).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var time = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw TLSListenerFailure.connect }
            let peer = TLSTestPeer(fd: fd, serverName: "api.example.com")
            guard peer.handshakeStep() == true else { throw TLSListenerFailure.handshake }
            peer.write("GET / HTTP/1.1\r\nHost: api.example.com\r\nConnection: close\r\n\r\n")
            return peer.read() // blocking: reads until the server's close
        }.value
        #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("\r\n\r\nhttps true api.example.com"), "\(answer)")
        #expect(context.completedHandshakeCount == 1)
        let plain = try await Task.detached { () throws -> String in
            let client = try RawClient(port: plainPort)
            client.send("GET / HTTP/1.1\r\nHost: api.example.com\r\n\r\n")
            return try client.readResponse().text
        }.value
        #expect(plain == "http false -")
        await server.shutdown(gracePeriod: 1)
    }
}

private enum TLSListenerFailure: Error { case connect, handshake }
#endif
