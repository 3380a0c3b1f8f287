import Foundation
import Testing

@testable import HTTPServer

private let get = "GET /a HTTP/1.1\r\nHost: t\r\n\r\n"

@Suite("Connection state machine")
struct ConnectionStateMachineTests {
    @Test("keep-alive: one request at a time, the idle timer between them")
    func keepAlive() {
        var connection = ConnectionDriver()
        #expect(connection.deadline == connection.now + 75_000_000_000)
        connection.send(get)
        #expect(connection.startedPaths == ["/a"])
        #expect(connection.deadline == nil) // no timeout while the application works
        connection.echo()
        #expect(connection.written == [.init(status: 200, keepAlive: true, portion: .whole, body: "/a ")])
        #expect(!connection.isClosed && connection.interest.read)
        #expect(connection.deadline == connection.now + 75_000_000_000)
        connection.send("GET /b HTTP/1.1\r\nHost: t\r\n\r\n")
        connection.echo()
        #expect(connection.statuses == [200, 200] && connection.startedPaths == ["/a", "/b"] && !connection.isClosed)
    }

    @Test("Connection: close and HTTP/1.0 are answered, then closed")
    func closeAfterAnswer() {
        for request in ["GET /c HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n", "GET /c HTTP/1.0\r\n\r\n"] {
            var connection = ConnectionDriver()
            connection.send(request)
            connection.echo()
            #expect(connection.written.map(\.keepAlive) == [false])
            #expect(connection.closed == .orderly)
        }
    }

    @Test("pipelined requests reach the application one at a time, in order")
    func pipelining() {
        var connection = ConnectionDriver()
        connection.send("GET /1 HTTP/1.1\r\nHost: t\r\n\r\nPOST /2 HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(connection.startedPaths == ["/1"])
        connection.echo()
        #expect(connection.startedPaths == ["/1", "/2"])
        connection.echo()
        connection.echo()
        #expect(connection.written.map(\.body) == ["/1 ", "/2 hi", "/3 "])
        #expect(connection.handlers.isEmpty && !connection.isClosed)
    }

    @Test("Expect: 100-continue gets an interim 100 before the body arrives")
    func continueExpected() {
        var connection = ConnectionDriver()
        connection.send("PUT /e HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(connection.statuses == [100] && connection.started.isEmpty)
        connection.send("data")
        connection.echo()
        #expect(connection.written.map(\.body) == ["", "/e data"])
    }

    @Test("a head that takes longer than the header timeout gets 408, then the connection closes")
    func headerTimeout() {
        var connection = ConnectionDriver(headerTimeout: 10)
        connection.send("GET /slowloris HTTP/1.1\r\nHost: t\r\n")
        connection.advance(seconds: 9.9)
        #expect(connection.started.isEmpty && !connection.isClosed)
        connection.advance(seconds: 0.2)
        #expect(connection.startedPaths == ["!header_timeout"])
        #expect(!connection.interest.read)
        connection.echo()
        #expect(connection.statuses == [408] && connection.written.map(\.keepAlive) == [false])
        #expect(connection.writeSideClosed) // the client sees the end of the stream now
        connection.advance(seconds: 2.1) // and the socket closes once lingering is over
        #expect(connection.isClosed)
    }

    @Test("an idle keep-alive connection closes after the idle timeout")
    func idleTimeout() {
        var connection = ConnectionDriver(idleTimeout: 75)
        connection.send(get)
        connection.echo()
        connection.advance(seconds: 74)
        #expect(!connection.isClosed)
        connection.advance(seconds: 2)
        #expect(connection.closed == .orderly && connection.statuses == [200])
    }

    @Test("a body that stops arriving for the idle timeout is dropped without an answer")
    func slowBody() {
        var connection = ConnectionDriver(headerTimeout: 10, idleTimeout: 30)
        connection.send("POST /u HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\n01234")
        connection.advance(seconds: 20)
        connection.send("56")
        // Past the header timeout, but each piece of body re-arms the idle timer.
        connection.advance(seconds: 20)
        #expect(!connection.isClosed)
        connection.advance(seconds: 11)
        #expect(connection.closed == .orderly && connection.started.isEmpty && connection.written.isEmpty)
    }

    @Test("a hang fault writes nothing and holds the connection until its time is up")
    func hang() {
        var connection = ConnectionDriver()
        connection.send(get)
        connection.answer(Response(status: 0, delivery: .hang(seconds: 30)))
        connection.send(get) // never answered
        connection.advance(seconds: 29)
        #expect(!connection.isClosed && connection.interest.read)
        connection.advance(seconds: 2)
        #expect(connection.closed == .orderly && connection.written.isEmpty && connection.started.count == 1)
    }

    @Test("a hang fault ends when the client leaves")
    func hangClientLeaves() {
        var connection = ConnectionDriver()
        connection.send(get)
        connection.answer(Response(status: 0, delivery: .hang(seconds: 30)))
        connection.peerCloses()
        #expect(connection.closed == .orderly && connection.written.isEmpty)
    }

    @Test("fault deliveries: reset, head only, truncated body")
    func faultDeliveries() {
        var reset = ConnectionDriver()
        reset.send(get)
        reset.answer(Response(status: 200, body: Data("0123456789".utf8), delivery: .reset))
        #expect(reset.closed == .reset && reset.written.isEmpty)

        var headOnly = ConnectionDriver()
        headOnly.send(get)
        headOnly.answer(Response(status: 200, body: Data("0123456789".utf8), delivery: .closeAfterHeaders))
        #expect(headOnly.written.map(\.portion) == [.headOnly] && headOnly.written.map(\.keepAlive) == [false])
        #expect(headOnly.closed == .orderly)

        var truncated = ConnectionDriver()
        truncated.send(get)
        truncated.answer(Response(status: 200, body: Data("0123456789".utf8), delivery: .truncateBody(bytes: 3)))
        #expect(truncated.written.map(\.portion) == [.truncated(bodyBytes: 3)] && truncated.closed == .orderly)
    }

    @Test("half-close: a request followed by the client shutting its write side is still answered")
    func halfClose() {
        var connection = ConnectionDriver()
        connection.send(get)
        connection.peerCloses(.endOfStream)
        #expect(!connection.isClosed && !connection.interest.read)
        connection.echo()
        #expect(connection.written.map(\.keepAlive) == [false] && connection.closed == .orderly)

        var pipelined = ConnectionDriver()
        pipelined.send(get + get)
        pipelined.peerCloses(.endOfStream)
        pipelined.echo()
        #expect(!pipelined.isClosed) // the second request is answered too
        pipelined.echo()
        #expect(pipelined.statuses == [200, 200] && pipelined.isClosed)

        var idle = ConnectionDriver()
        idle.peerCloses(.endOfStream)
        #expect(idle.closed == .orderly)
    }

    @Test("graceful shutdown closes idle connections at once and others after their answer")
    func gracefulShutdown() {
        var idle = ConnectionDriver()
        idle.shutdown()
        #expect(idle.closed == .orderly)

        var busy = ConnectionDriver()
        busy.send(get)
        busy.shutdown()
        #expect(!busy.isClosed)
        busy.echo()
        #expect(busy.written.map(\.keepAlive) == [false] && busy.closed == .orderly)
    }

    @Test("output the socket cannot take waits for writability, then the next request goes on")
    func blockedOutput() {
        var connection = ConnectionDriver()
        connection.socketFull = true
        connection.send(get + "GET /b HTTP/1.1\r\nHost: t\r\n\r\n")
        connection.echo()
        #expect(connection.interest.write && connection.startedPaths == ["/a"])
        connection.drain()
        #expect(!connection.interest.write && connection.startedPaths == ["/a", "/b"])
    }

    @Test("while output is blocked, reading stops once the read limit is buffered")
    func readLimitWhileOutputBlocked() {
        var connection = ConnectionDriver()
        connection.socketFull = true
        connection.send(get)
        connection.echo()
        #expect(connection.interest == ConnectionInterest(read: true, write: true))
        let pipelined = Array(String(repeating: get, count: 40_000).utf8) // about 1.1 MiB
        connection.send(pipelined)
        #expect(connection.machine.bufferedByteCount > connection.machine.configuration.readLimit)
        #expect(connection.interest == ConnectionInterest(read: false, write: true))
        connection.drain()
        #expect(connection.startedPaths.count == 2) // the next request is being answered; reading waits on
        #expect(!connection.interest.read)
    }

    @Test("a hang-up while the handler runs: stop watching, write nothing, close when it is done")
    func hangUpWhileHandling() {
        var connection = ConnectionDriver()
        connection.send(get)
        connection.peerCloses(.hangUp)
        #expect(connection.interest == ConnectionInterest(read: false, write: false))
        #expect(!connection.isClosed)
        connection.peerCloses(.hangUp) // reported again: nothing new to do
        #expect(!connection.isClosed && connection.interest == ConnectionInterest(read: false, write: false))
        connection.echo()
        #expect(connection.written.isEmpty && connection.closed == .orderly)
    }

    @Test("a hang-up while output is blocked closes at once")
    func hangUpWhileWriting() {
        var connection = ConnectionDriver()
        connection.socketFull = true
        connection.send(get)
        connection.echo()
        connection.peerCloses(.hangUp)
        #expect(connection.closed == .orderly)
    }

    @Test("blank lines start the header timer and never re-arm it: a CRLF every 3 s is closed at 10 s")
    func blankLinesDoNotDodgeTheHeaderTimer() {
        var connection = ConnectionDriver(headerTimeout: 10, idleTimeout: 75)
        for _ in 0..<3 {
            connection.send("\r\n")
            connection.advance(seconds: 3)
        }
        connection.send("\r\n")
        #expect(!connection.isClosed)
        connection.advance(seconds: 1.5)
        // Nothing but blank lines arrived: there is no request to answer, so no 408.
        #expect(connection.closed == .orderly && connection.written.isEmpty && connection.started.isEmpty)
    }

    @Test("the header timer runs from the first byte, blank lines included, to the 408")
    func headerTimerFromFirstByte() {
        var connection = ConnectionDriver(headerTimeout: 10, idleTimeout: 75)
        connection.send("\r\n")
        connection.advance(seconds: 8)
        connection.send("GET /late HTTP/1.1\r\nHost: t\r\n")
        connection.advance(seconds: 2.5)
        #expect(connection.startedPaths == ["!header_timeout"])
    }

    @Test("after an error answer the write side closes, and input is read and dropped until the client leaves")
    func lingeringClose() {
        var connection = ConnectionDriver(maxBody: 1000)
        connection.send("POST /u HTTP/1.1\r\nHost: t\r\nContent-Length: 5000\r\n\r\n" + String(repeating: "x", count: 500))
        #expect(connection.startedPaths == ["!body_too_large"] && !connection.interest.read)
        connection.echo()
        #expect(connection.statuses == [413] && connection.written.map(\.keepAlive) == [false])
        #expect(connection.writeSideClosed && !connection.isClosed && connection.interest.read)
        connection.send(String(repeating: "x", count: 4500)) // the rest of the body, dropped
        #expect(!connection.isClosed && connection.startedPaths.count == 1)
        connection.peerCloses(.endOfStream)
        #expect(connection.closed == .orderly)
    }

    @Test("lingering is bounded: 2 s, or 1 MiB of input")
    func lingeringIsBounded() {
        #expect(ConnectionConfiguration(limits: HTTPParserLimits(maxHeaderBytes: 100, maxBodyBytes: 1000)).lingerBytes == 1100)
        var byTime = ConnectionDriver()
        byTime.send("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n")
        byTime.echo()
        byTime.advance(seconds: 1.9)
        #expect(byTime.writeSideClosed && !byTime.isClosed)
        byTime.advance(seconds: 0.2)
        #expect(byTime.closed == .orderly)

        var small = ConnectionConfiguration()
        small.lingerBytes = 1 << 20
        var byBytes = ConnectionDriver(configuration: small)
        byBytes.send("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n")
        byBytes.echo()
        byBytes.send([UInt8](repeating: 0, count: 1 << 19))
        #expect(!byBytes.isClosed)
        byBytes.send([UInt8](repeating: 0, count: 1 << 19))
        #expect(byBytes.closed == .orderly)
    }

    @Test("a client that already half-closed is not lingered on")
    func noLingerAfterHalfClose() {
        var connection = ConnectionDriver()
        connection.send("GET / HTTP/1.1\r\nBad Header: x\r\n\r\n")
        connection.peerCloses(.endOfStream)
        connection.echo()
        #expect(connection.statuses == [400] && connection.closed == .orderly && !connection.writeSideClosed)
    }
}
