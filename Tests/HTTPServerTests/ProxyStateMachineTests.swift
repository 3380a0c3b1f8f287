import Foundation
import Synchronization
import Testing

@testable import HTTPServer

private let connect = "CONNECT api.warplink.app:443 HTTP/1.1\r\nHost: api.warplink.app:443\r\n\r\n"
private let authority = ProxyAuthority(host: "api.warplink.app", port: 443)
private let intercept = Response(status: 200, delivery: .tunnel(.intercept(tls: true, authority: authority)))

/// Counts how often upstream sockets made for a test were let go of (closed or handed over for good).
private final class ReleaseCounter: Sendable {
    private let count = Atomic<Int>(0)
    var released: Int { count.load(ordering: .relaxed) }

    /// An upstream socket with no descriptor, whose release this counter sees.
    func socket() -> UpstreamSocket {
        UpstreamSocket(
            fileDescriptor: -1, authority: ProxyAuthority(host: "example.org", port: 443), receivedBytes: Array("HTTP/1.1 200 OK\r\n\r\n".utf8),
            release: { [self] in count.add(1, ordering: .relaxed) })
    }
}

@Suite("Connection state machine: proxy tunnels")
struct ProxyStateMachineTests {
    @Test("a CONNECT answered with a tunnel: the head is written, then the socket is handed over with what the client sent meanwhile")
    func handOffAfterHead() {
        var connection = ConnectionDriver()
        let hello: [UInt8] = [0x16, 0x03, 0x01, 0x02, 0x00, 0x01]
        connection.send(Array(connect.utf8) + hello) // a client that pipelines its ClientHello
        #expect(connection.startedPaths == ["api.warplink.app:443"])
        #expect(connection.interest.read) // still reading (bounded by the read limit): those bytes are the tunnel's
        connection.send([0x02, 0x03])
        connection.answer(intercept)
        #expect(connection.statuses == [200] && connection.written.first?.keepAlive == true)
        #expect(connection.tunnel?.plan == .intercept(tls: true, authority: authority))
        #expect(connection.tunnel?.leftover == hello + [0x02, 0x03])
        #expect(!connection.isClosed && connection.machine.isHandedOff && connection.machine.bufferedByteCount == 0)
    }

    @Test("a tunnel starts only once its head is written, however long the socket stays full")
    func handOffWaitsForDrain() {
        var connection = ConnectionDriver()
        connection.send(connect)
        connection.socketFull = true
        connection.answer(intercept)
        #expect(connection.statuses == [200] && connection.tunnel == nil && connection.interest.write)
        connection.advance(seconds: 100) // no deadline runs out while a head waits for room
        #expect(connection.tunnel == nil && !connection.isClosed)
        connection.drain()
        #expect(connection.tunnel?.leftover == [])
    }

    @Test("after the hand-over the machine does nothing: no input, close, shutdown or deadline reaches it")
    func nothingAfterHandOff() {
        var machine = ConnectionStateMachine(configuration: ConnectionConfiguration(), remoteAddress: "127.0.0.1", now: 1)
        _ = machine.start()
        _ = machine.bytesReceived(Array(connect.utf8), now: 2)
        let written = machine.responseReady(intercept, now: 3)
        #expect(written.contains { if case .write = $0 { true } else { false } })
        let handedOver = machine.outputDrained(now: 4)
        #expect(handedOver.count == 1)
        guard case .startTunnel(let plan, let leftover) = handedOver.first else {
            Issue.record("no tunnel: \(handedOver)")
            return
        }
        #expect(plan == .intercept(tls: true, authority: authority) && leftover.isEmpty)
        #expect(machine.bytesReceived(Array("GET / HTTP/1.1\r\n\r\n".utf8), now: 5).isEmpty)
        #expect(machine.peerClosed(.hangUp, now: 6).isEmpty)
        #expect(machine.shutdownRequested(now: 7).isEmpty)
        #expect(machine.forceClose(now: 8).isEmpty)
        #expect(machine.tick(now: .max).isEmpty)
        #expect(machine.isHandedOff && !machine.isClosed)
    }

    @Test("a relayed answer writes nothing itself and hands over at once")
    func relayHandsOverAtOnce() {
        let counter = ReleaseCounter()
        var connection = ConnectionDriver()
        connection.send("GET http://example.org/ HTTP/1.1\r\nHost: example.org\r\n\r\nGET http://example.org/2 HTTP/1.1\r\n")
        let upstream = counter.socket()
        connection.answer(Response(status: 200, delivery: .tunnel(.relay(upstream))))
        #expect(connection.written.isEmpty)
        #expect(connection.tunnel?.plan == .relay(upstream))
        #expect(connection.tunnel?.leftover == Array("GET http://example.org/2 HTTP/1.1\r\n".utf8))
    }

    @Test("a refused CONNECT is answered and the connection ends, lingering when the client already sent tunnel bytes")
    func refusalCloses() {
        var quiet = ConnectionDriver()
        quiet.send(connect)
        quiet.answer(.text("refused", status: 403))
        #expect(quiet.written == [.init(status: 403, keepAlive: false, portion: .whole, body: "refused")])
        #expect(quiet.closed == .orderly && quiet.tunnel == nil)

        var eager = ConnectionDriver()
        eager.send(Array(connect.utf8) + [0x16, 0x03, 0x01])
        eager.answer(.text("refused", status: 403))
        #expect(eager.statuses == [403] && eager.writeSideClosed && !eager.isClosed) // lingering: the 403 is not destroyed by a reset
        eager.advance(seconds: 2.1)
        #expect(eager.isClosed && eager.tunnel == nil)
    }

    @Test("a client that leaves before the tunnel starts, or a shutdown, closes instead; the upstream is let go of")
    func noTunnelWithoutClient() {
        let counter = ReleaseCounter()
        do {
            var gone = ConnectionDriver()
            gone.send(connect)
            gone.peerCloses(.hangUp)
            gone.answer(Response(status: 200, delivery: .tunnel(.passthrough(counter.socket()))))
            #expect(gone.isClosed && gone.tunnel == nil && gone.written.isEmpty)

            var stopping = ConnectionDriver()
            stopping.send(connect)
            stopping.shutdown()
            stopping.answer(Response(status: 200, delivery: .tunnel(.passthrough(counter.socket()))))
            #expect(stopping.isClosed && stopping.tunnel == nil)

            var midWrite = ConnectionDriver()
            midWrite.send(connect)
            midWrite.socketFull = true
            midWrite.answer(Response(status: 200, delivery: .tunnel(.passthrough(counter.socket()))))
            midWrite.shutdown()
            midWrite.drain()
            #expect(midWrite.isClosed && midWrite.tunnel == nil)
        }
        #expect(counter.released == 3)
    }

    @Test("an unreadable request is never tunnelled, whatever the application answers")
    func noTunnelAfterFailure() {
        var connection = ConnectionDriver()
        connection.send("CONNECT nowhere HTTP/1.1\r\n\r\n")
        #expect(connection.startedPaths == ["!invalid_target"])
        connection.answer(intercept)
        #expect(connection.isClosed && connection.tunnel == nil)
    }
}
