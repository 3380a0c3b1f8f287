import Foundation
import TestSockets
import Testing
import UnderstudyServer
import UnderstudyTesting

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits (polling, bounded) until `condition` holds; false if it never did within `timeout` seconds.
/// The tunnel threads end on their own once both sides closed: there is no event to await.
func eventually(timeout: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(nanoseconds: 5_000_000)
    }
    return true
}

/// Passthrough to the tests' loopback upstreams needs private targets allowed (the default reaches public addresses only).
func allowPrivate(_ configuration: inout ServerConfiguration) { configuration.proxyAllowPrivate = true }

@Suite("Proxy: hosts nobody emulates")
struct ProxyPassthroughTests {
    @Test("passthrough: CONNECT 127.0.0.1:port splices bytes both ways unchanged, half-closes included; the tunnel is counted and goes away")
    func passthroughSplices() async throws {
        let upstream = try LoopbackUpstream(.echo)
        defer { upstream.stop() }
        try await UnderstudyTestServer.with(configure: allowPrivate) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let payload = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let (established, echoed) = try await blocking { () -> (HTTPReply, [UInt8]) in
                let client = try RawClient(port: proxyPort)
                // Bytes pipelined behind the CONNECT head must reach the upstream first.
                let established = try client.connectTunnel("127.0.0.1:\(upstream.port)", extra: Array("early:".utf8))
                guard established.status == 200 else { return (established, []) }
                client.send(payload)
                client.shutdownWrite() // the upstream sees our end of stream and answers `<eof>`
                return (established, try client.readToEnd())
            }
            #expect(established.status == 200)
            let expected = Array("early:".utf8) + payload + Array("<eof>".utf8)
            let unchanged = echoed == expected // compared as a Bool: a failure should not print 200 kB
            #expect(unchanged, "echoed \(echoed.count) bytes, expected \(expected.count); first 16: \(echoed.prefix(16))")
            #expect(await eventually { server.server.http.tunnelCount == 0 && server.server.emulator.upstreams.upstreamCount == 0 })
            #expect(await eventually { upstream.openConnections == 0 })
            let entries = try await proxyJournal(server, query: "platform=proxy")
            #expect(entries.first?["method"] as? String == "CONNECT" && entries.first?["path"] as? String == "127.0.0.1:\(upstream.port)")
            #expect(entries.first?["proxyHost"] as? String == "127.0.0.1" && entries.first?["status"] as? Int == 200)
            #expect(entries.first?["projectID"] == nil)
        }
    }

    @Test("a tunnel is counted while open and closed by the server's shutdown")
    func shutdownClosesTunnels() async throws {
        let upstream = try LoopbackUpstream(.echo)
        defer { upstream.stop() }
        let server = try await UnderstudyTestServer.start(configure: allowPrivate)
        let proxyPort = try #require(server.server.proxyPort)
        let (client, echoed) = try await blocking { () -> (RawClient, [UInt8]) in
            let client = try RawClient(port: proxyPort, timeout: 10)
            _ = try client.connectTunnel("127.0.0.1:\(upstream.port)")
            client.send("ping")
            return (client, try client.receiveSome()) // the tunnel works before the shutdown
        }
        #expect(echoed == Array("ping".utf8))
        #expect(server.server.http.tunnelCount == 1)
        await server.stop()
        #expect(server.server.http.tunnelCount == 0)
        let ended = try await blocking { () -> [UInt8] in try client.readToEnd() }
        // The shutdown ended the tunnel: end of stream. Closing the upstream side makes the echo
        // server answer `<eof>`, which may still be relayed when the relay outruns the close (under load).
        #expect(ended.isEmpty || ended == Array("<eof>".utf8), "after the shutdown the client read \(ended.count) bytes")
        #expect(await eventually { upstream.openConnections == 0 })
    }

    @Test("passthrough: an absolute-form request for another host is forwarded in origin form with Connection: close, and the answer relayed")
    func absoluteFormForwarded() async throws {
        let upstream = try LoopbackUpstream(.http)
        defer { upstream.stop() }
        try await UnderstudyTestServer.with(configure: allowPrivate) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let (reply, closed) = try await blocking { () -> (HTTPReply, Bool) in
                let client = try RawClient(port: proxyPort)
                let reply = try client.request(
                    "POST", "http://127.0.0.1:\(upstream.port)/form?x=1", host: "127.0.0.1:\(upstream.port)",
                    headers: ["Proxy-Connection": "keep-alive", "X-App": "1"], body: "a=b")
                return (reply, client.isClosedByServer())
            }
            #expect(reply.status == 201 && reply.headers["x-upstream"] == "loopback")
            #expect(reply.text.contains("upstream saw:\nPOST /form?x=1 HTTP/1.1\r\nHost: 127.0.0.1:\(upstream.port)\r\n"))
            #expect(reply.text.contains("X-App: 1\r\n") && reply.text.contains("Connection: close\r\n") && reply.text.hasSuffix("\r\n\r\na=b"))
            #expect(!reply.text.lowercased().contains("proxy-connection"))
            #expect(closed)
            let entries = try await proxyJournal(server, query: "platform=proxy")
            #expect(entries.first?["method"] as? String == "POST" && entries.first?["status"] as? Int == 201 && entries.first?["path"] as? String == "/form")
            #expect(await eventually { server.server.http.tunnelCount == 0 && server.server.emulator.upstreams.upstreamCount == 0 })
        }
    }

    @Test("passthrough: a destination that refuses, or a name that does not resolve, is a 502 naming the host")
    func unreachable() async throws {
        try await UnderstudyTestServer.with(configure: allowPrivate) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let (unused, closedPort) = TestSocket.unusedPort()
            defer { close(unused) }
            // A 70-character label: the resolver refuses it locally, so no DNS query leaves the machine.
            let badName = String(repeating: "a", count: 70) + ".example"
            let (refused, unresolved, forwarded) = try await blocking { () -> (HTTPReply, HTTPReply, HTTPReply) in
                (
                    try RawClient(port: proxyPort).connectTunnel("127.0.0.1:\(closedPort)"),
                    try RawClient(port: proxyPort).connectTunnel("\(badName):443"),
                    try RawClient(port: proxyPort).request("GET", "http://127.0.0.1:\(closedPort)/", host: "127.0.0.1:\(closedPort)")
                )
            }
            #expect(refused.status == 502 && refused.text.contains("127.0.0.1:\(closedPort)"))
            #expect(unresolved.status == 502 && unresolved.text.contains(badName))
            #expect(forwarded.status == 502 && forwarded.text.contains("127.0.0.1:\(closedPort)"))
            #expect(server.server.emulator.upstreams.upstreamCount == 0)
        }
    }

    @Test("refuse mode: CONNECT and absolute-form requests for other hosts get 403 naming the host, nothing is connected, all journalled")
    func refuseMode() async throws {
        let upstream = try LoopbackUpstream(.echo)
        defer { upstream.stop() }
        try await UnderstudyTestServer.with(demo: true, configure: { $0.proxyMode = .refuse }) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let (connect, absolute, emulated) = try await blocking { () -> (HTTPReply, HTTPReply, HTTPReply) in
                let connect = try RawClient(port: proxyPort).connectTunnel("127.0.0.1:\(upstream.port)")
                let absolute = try RawClient(port: proxyPort).request("GET", "http://example.org/x", host: "example.org")
                let tunnel = try RawClient(port: proxyPort)
                _ = try tunnel.connectTunnel("api.warplink.app:80")
                let emulated = try tunnel.request(
                    "GET", "/v1/sdk/validate", host: "api.warplink.app", headers: ["Authorization": "Bearer wl_live_demo0000000000000000000000000000"])
                return (connect, absolute, emulated)
            }
            #expect(connect.status == 403 && connect.text.contains("127.0.0.1:\(upstream.port)") && connect.headers["content-type"]?.hasPrefix("text/plain") == true)
            #expect(absolute.status == 403 && absolute.text.contains("example.org"))
            #expect(emulated.status == 200) // emulated hosts are still intercepted
            #expect(upstream.accepted == 0)
            let refusals = try await proxyJournal(server, query: "platform=proxy&status=403")
            #expect(Set(refusals.compactMap { $0["proxyHost"] as? String }) == ["127.0.0.1", "example.org"])
        }
    }

    @Test("bad CONNECTs: no port, garbage, an unparsable authority get 400 and the connection closes; CONNECT on the plain port is a 405")
    func badInput() async throws {
        try await UnderstudyTestServer.with(configure: allowPrivate) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let plainPort = server.server.http.port
            let inputs = [
                "CONNECT api.warplink.app HTTP/1.1\r\nHost: api.warplink.app\r\n\r\n",
                "CONNECT api.warplink.app: HTTP/1.1\r\n\r\n",
                "CONNECT \u{1}\u{2}garbage HTTP/1.1\r\n\r\n",
                "CONNECT a b:443 HTTP/1.1\r\n\r\n",
                "CONNECT [::1:443 HTTP/1.1\r\n\r\n",
                "CONNECT api.warplink.app:99999 HTTP/1.1\r\n\r\n",
                "CONNECT\r\n\r\n",
            ]
            for input in inputs {
                let (reply, closed) = try await blocking { () -> (HTTPReply?, Bool) in
                    let client = try RawClient(port: proxyPort)
                    client.send(input)
                    let reply = try? client.readResponse()
                    return (reply, client.isClosedByServer())
                }
                #expect(reply?.status == 400, "\(input.debugDescription): \(reply?.status ?? 0)")
                #expect(closed, "\(input.debugDescription) left the connection open")
            }
            let onPlainPort = try await blocking { try RawClient(port: plainPort).connectTunnel("api.warplink.app:443") }
            #expect(onPlainPort.status == 405)
            #expect(server.server.http.tunnelCount == 0)
        }
    }
}
