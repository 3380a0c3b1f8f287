import Foundation
import HTTPServer
import TestSockets
import Testing
import UnderstudyServer
import UnderstudyTesting

@Suite("Proxy: tunnel slots", .timeLimit(.minutes(2)))
struct ProxySlotTests {
    @Test("300 CONNECTs to a silent upstream fill the slots; once their clients close, every slot comes back within seconds and a new CONNECT succeeds")
    func slotsComeBackWhenClientsClose() async throws {
        let upstream = try LoopbackUpstream(.silent)
        defer { upstream.stop() }
        try await UnderstudyTestServer.with(configure: allowPrivate) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let connector = server.server.emulator.upstreams
            let limit = connector.maxUpstreams
            let target = "127.0.0.1:\(upstream.port)"
            // The clients live inside the closure: they are closed (FIN, as an app's socket) when it returns.
            let (statuses, heldWhileOpen) = try await blocking { () -> ([Int], Int) in
                var clients: [RawClient] = []
                var statuses: [Int] = []
                for _ in 0..<300 {
                    let client = try RawClient(port: proxyPort)
                    statuses.append(try client.connectTunnel(target).status)
                    clients.append(client)
                }
                return (statuses, connector.upstreamCount)
            }
            #expect(statuses.filter { $0 == 200 }.count == limit)
            #expect(statuses.filter { $0 == 503 }.count == 300 - limit)
            #expect(heldWhileOpen == limit)
            let closed = Date()
            let recovered = await eventually(timeout: 30) { connector.upstreamCount == 0 && server.server.http.tunnelCount == 0 }
            let seconds = Date().timeIntervalSince(closed)
            #expect(recovered, "\(connector.upstreamCount) slots still held \(Int(seconds)) s after the clients closed")
            #expect(seconds < HTTPServer.tunnelHalfClosedTimeout + 10)
            let again = try await blocking { try RawClient(port: proxyPort).connectTunnel(target) }
            #expect(again.status == 200)
            print(
                "proxy slots: \(heldWhileOpen) of \(limit) held with 300 clients open (\(300 - limit) answered 503); 0 held \(String(format: "%.2f", seconds)) s after they closed")
        }
    }

    @Test("an upstream that hangs up while its client stays open and silent gives the slot back within the half-closed timeout")
    func upstreamHangUpFreesSlot() async throws {
        let upstream = try LoopbackUpstream(.hangsUp)
        defer { upstream.stop() }
        try await UnderstudyTestServer.with(configure: allowPrivate) { server in
            let proxyPort = try #require(server.server.proxyPort)
            let connector = server.server.emulator.upstreams
            let (client, status, sawEnd) = try await blocking { () -> (RawClient, Int, Bool) in
                let client = try RawClient(port: proxyPort)
                let reply = try client.connectTunnel("127.0.0.1:\(upstream.port)")
                return (client, reply.status, client.isClosedByServer()) // the upstream's end of stream, passed on
            }
            #expect(status == 200 && sawEnd)
            // The client keeps its socket open and says nothing: the tunnel must not wait out the idle timeout.
            let freed = await eventually(timeout: HTTPServer.tunnelHalfClosedTimeout + 10) {
                connector.upstreamCount == 0 && server.server.http.tunnelCount == 0
            }
            #expect(freed, "the slot is still held while the client stays open")
            withExtendedLifetime(client) {}
        }
    }
}
