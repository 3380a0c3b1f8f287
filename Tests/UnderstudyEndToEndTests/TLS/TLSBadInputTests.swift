// The TLS test clients use Glibc sockets (socket pairs, SOCK_STREAM, MSG_NOSIGNAL); the server side is portable.
#if os(Linux)
import COpenSSL
import Foundation
import Glibc
import Testing
import UnderstudyServer
import UnderstudyTesting
import TestSockets

/// The first bytes of a real ClientHello, for truncation.
private func clientHelloBytes() -> [UInt8] {
    var fds: [Int32] = [0, 0]
    precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0, "socketpair failed")
    defer { close(fds[0]); close(fds[1]) }
    let context = SSL_CTX_new(TLS_client_method())!
    defer { SSL_CTX_free(context) }
    let ssl = SSL_new(context)!
    defer { SSL_free(ssl) }
    _ = understudy_ssl_set_tlsext_host_name(ssl, "api.warplink.app")
    _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
    _ = SSL_set_fd(ssl, fds[1])
    _ = SSL_connect(ssl) // writes the hello, then wants to read
    var hello = [UInt8](repeating: 0, count: 4096)
    let count = recv(fds[0], &hello, hello.count, 0)
    return Array(hello[0..<max(0, count)])
}

/// Open descriptors of this process (/proc/self/fd) that are TCP sockets bound locally to `port`
/// (the server's listener and its accepted connections). The whole count is no use here: suites
/// running in parallel in this process open and close hundreds of descriptors meanwhile.
private func openDescriptorCount(localPort port: Int) -> Int {
    #if os(Linux)
    // Read to the end: /proc files report size 0, and a sized read would stop after one page.
    guard let handle = FileHandle(forReadingAtPath: "/proc/net/tcp"), let data = try? handle.readToEnd() else { return -1 }
    let table = String(decoding: data, as: UTF8.self)
    let suffix = ":" + String(format: "%04X", port)
    var inodes = Set<String>()
    for line in table.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: " ")
        if fields.count > 9 && fields[1].hasSuffix(suffix) { inodes.insert(String(fields[9])) }
    }
    let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return descriptors.filter { name in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + name),
            target.hasPrefix("socket:[")
        else { return false }
        return inodes.contains(String(target.dropFirst(8).dropLast()))
    }.count
    #else
    return 0
    #endif
}

@Suite("HTTPS: bad input")
struct TLSBadInputTests {
    @Test("plain HTTP sent to the TLS port gets a plaintext 400 that says to use https, then an orderly close")
    func plainHTTP() async throws {
        try await withTLSServer { server, port, context in
            let socket = try RawClient(port: port, timeout: 10)
            socket.send(Array(httpRequest("/v1/sdk/validate", host: "api.warplink.app").utf8))
            let (bytes, orderly) = socket.readUntilClosed()
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n") && text.contains("text/plain") && text.contains("https://"), "\(text)")
            #expect(orderly)
            #expect(server.server.tls?.plaintextRequestCount == 1)
            // Still serving TLS.
            #expect(try TLSTestClient(port: port, context: context, serverName: "api.warplink.app").exchange(httpRequest("/__admin/health", host: "localhost")).status == 200)
        }
    }

    @Test("a garbage or truncated ClientHello is closed cleanly, counted, and others are still served")
    func garbageAndTruncatedHello() async throws {
        let hello = clientHelloBytes()
        #expect(hello.count > 100 && hello[0] == 0x16)
        try await withTLSServer { server, port, context in
            let garbage: [[UInt8]] = [Array(repeating: 0, count: 512), Array("hello?\r\n\r\n".utf8), [0x16, 0x03, 0x01, 0x00, 0x05, 0x02, 0, 0, 1, 0]]
            for bytes in garbage {
                let socket = try RawClient(port: port, timeout: 10)
                socket.send(bytes)
                let (answer, _) = socket.readUntilClosed() // an alert at most, then the close
                #expect(answer.count < 64 && (answer.isEmpty || answer[0] == 0x15), "\(bytes.prefix(8)) → \(answer)")
            }
            let truncated = try RawClient(port: port, timeout: 10)
            truncated.send(Array(hello[0..<hello.count / 2]))
            truncated.shutdownWrite() // the rest never comes
            #expect(truncated.readUntilClosed().orderly)
            #expect(server.server.tls?.failedHandshakeCount == garbage.count + 1)
            #expect(try TLSTestClient(port: port, context: context, serverName: "api.asleep.ai").exchange(httpRequest("/__admin/health", host: "localhost")).status == 200)
        }
    }

    @Test("a client that never finishes the handshake is closed after the header timeout, not the idle timeout")
    func stalledHandshake() async throws {
        let hello = clientHelloBytes()
        try await withTLSServer(configure: {
            $0.headerTimeout = 0.5; $0.idleTimeout = 60
        }) { server, port, _ in
            let silent = try RawClient(port: port, timeout: 20)
            let halfHello = try RawClient(port: port, timeout: 20)
            halfHello.send(Array(hello[0..<hello.count / 2]))
            let started = Date()
            // Each read blocks until the server closes: the event awaited is the close itself.
            let silentEnd = silent.readUntilClosed()
            #expect(silentEnd.bytes.isEmpty && silentEnd.orderly)
            #expect(halfHello.readUntilClosed().bytes.isEmpty)
            #expect(Date().timeIntervalSince(started) < 15) // far below the 60 s idle timeout; not a timing assertion on the header timeout
            #expect(server.server.tls?.completedHandshakeCount == 0)
        }
    }

    @Test("1,000 idle keep-alive TLS connections do not block another client, and descriptors return to the baseline after they close")
    func manyIdleConnections() async throws {
        try await withTLSServer { server, port, context in
            let baselineTLS = openDescriptorCount(localPort: port)
            let baselineConnections = server.server.http.connectionCount
            var idle: [TLSTestClient] = []
            for index in 0..<1_000 {
                let client = try TLSTestClient(port: port, context: context, serverName: "idle\(index % 10).example.com")
                // One request each: until its first request a TLS connection is on the header
                // timeout (a stalled handshake is a slow header); after it, on the idle timeout.
                #expect(try client.exchange(httpRequest("/__admin/health", host: "localhost")).status == 200)
                idle.append(client)
            }
            var other: TLSTestClient? = try TLSTestClient(port: port, context: context, serverName: "api.warplink.app")
            let warpLink = TLSPlatformHostTests.platformRequests[0]
            #expect(try other?.exchange(httpRequest(warpLink.path, host: warpLink.host, headers: warpLink.headers)).status == 200)
            #expect(server.server.http.connectionCount >= baselineConnections + 1_001)
            #if os(Linux)
            #expect(openDescriptorCount(localPort: port) == baselineTLS + 1_001) // the count sees them
            #endif
            #expect(try idle[500].exchange(httpRequest("/__admin/health", host: "localhost")).status == 200) // the idle ones still work
            idle.removeAll()
            other = nil
            // Closing is the server's reaction to our FINs, and it says nothing when it is done:
            // its connection count is polled (no clock to move, no event to await).
            let deadline = Date().addingTimeInterval(30)
            while server.server.http.connectionCount > baselineConnections && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
            #expect(server.server.http.connectionCount == baselineConnections)
            #if os(Linux)
            #expect(baselineTLS == 1 && openDescriptorCount(localPort: port) == baselineTLS) // the listener alone
            #endif
        }
    }
}
#endif
