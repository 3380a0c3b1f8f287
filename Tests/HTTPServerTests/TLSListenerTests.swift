// The TLS test clients use Glibc sockets (socket pairs, SOCK_STREAM, MSG_NOSIGNAL); the server side is portable.
#if os(Linux)
import COpenSSL
import Foundation
import TestSockets
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
        let clientContext = try TLSClientContext(caPEM: TestAuthority.certificatePEM)
        let answer = try await blocking { () throws -> String in // blocking socket calls, off the cooperative pool
            let client = try TLSTestClient(port: tlsPort, context: clientContext, serverName: "api.example.com")
            try client.send("GET / HTTP/1.1\r\nHost: api.example.com\r\nConnection: close\r\n\r\n")
            return String(decoding: try client.readToEnd(), as: UTF8.self) // blocking: reads until the server's close
        }
        #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("\r\n\r\nhttps true api.example.com"), "\(answer)")
        #expect(context.completedHandshakeCount == 1)
        let plain = try await blocking { () throws -> String in
            let client = try RawClient(port: plainPort)
            client.send("GET / HTTP/1.1\r\nHost: api.example.com\r\n\r\n")
            return try client.readResponse().text
        }
        #expect(plain == "http false -")
        await server.shutdown(gracePeriod: 1)
    }
}
#endif
