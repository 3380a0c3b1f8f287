import Foundation
import Synchronization
import TestSockets
import Testing

@testable import HTTPServer

/// Echoes what it received, so tests can see what the server decoded.
private struct EchoApplication: HTTPApplication {
    let gate: Gate?

    func respond(to request: Request) async -> Response {
        if request.path == "/slow", let gate { await gate.wait() }
        if request.path == "/big" {
            return Response(status: 200, body: Data(repeating: UInt8(ascii: "x"), count: 8 * 1024 * 1024))
        }
        let summary = "\(request.method.rawValue) \(request.path) \(request.body.count) \(String(decoding: request.body.prefix(64), as: UTF8.self))"
        return .text(summary)
    }
}

/// Lets a test hold a request inside the handler until it says go.
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>], entered: Int)>((false, [], 0))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state -> Bool in
                state.entered += 1
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    var entered: Int { state.withLock { $0.entered } }

    func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

private func read(_ client: RawClient, head: Bool = false) async throws -> HTTPReply {
    try await blocking { try client.readResponse(head: head) }
}

private func closed(_ client: RawClient) async -> Bool {
    (try? await blocking { client.isClosedByServer() }) ?? false
}

/// Polls `condition` until it holds or `seconds` pass (there is no event to wait on from outside the loop).
/// The deadline only bounds a failure: a loop notices a reset within milliseconds. (The resets
/// once "took" over 30 s: another test's double close, or a child that inherited the client's
/// socket, had kept the reset from happening at all.)
private func eventually(within seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = MonotonicClock.nanoseconds() + UInt64(seconds * 1e9)
    while !condition() {
        if MonotonicClock.nanoseconds() > deadline { return false }
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return true
}

private func startServer(
    _ loop: EventLoopKind, headerTimeout: Double = 10, idleTimeout: Double = 75, maxBody: Int = 32 * 1024 * 1024, gate: Gate? = nil,
    bodyBudget: Int = 256 * 1024 * 1024
) throws -> HTTPServer {
    let configuration = HTTPServerConfiguration(
        host: "127.0.0.1", port: 0, limits: HTTPParserLimits(maxBodyBytes: maxBody),
        headerTimeout: headerTimeout, idleTimeout: idleTimeout, maxBufferedBodyBytes: bodyBudget,
        eventLoop: loop)
    let server = HTTPServer(configuration: configuration, application: EchoApplication(gate: gate))
    try server.start()
    return server
}

/// Every test runs once per event loop this build has (epoll and Dispatch on Linux).
@Suite("Live server on real sockets")
struct LiveServerTests {
    @Test("keep-alive: several requests share one connection", arguments: EventLoopKind.available)
    func keepAlive(loop: EventLoopKind) async throws {
        let server = try startServer(loop)
        let client = try RawClient(port: server.port)
        for index in 0..<3 {
            client.send("GET /k\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
            let reply = try await read(client)
            #expect(reply.status == 200 && reply.text.hasPrefix("GET /k\(index) 0"))
            #expect(reply.headers["connection"] == nil)
        }
        #expect(server.connectionCount == 1)
        await server.shutdown()
    }

    @Test("pipelined requests in one write are answered in order", arguments: EventLoopKind.available)
    func pipelining(loop: EventLoopKind) async throws {
        let server = try startServer(loop)
        let client = try RawClient(port: server.port)
        client.send("GET /1 HTTP/1.1\r\nHost: t\r\n\r\nPOST /2 HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\n\r\nhiGET /3 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try await read(client).text == "GET /1 0 ")
        #expect(try await read(client).text == "POST /2 2 hi")
        #expect(try await read(client).text == "GET /3 0 ")
        await server.shutdown()
    }

    @Test("chunked and gzip uploads arrive decoded", arguments: EventLoopKind.available)
    func uploads(loop: EventLoopKind) async throws {
        let server = try startServer(loop)
        let client = try RawClient(port: server.port)
        client.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
        #expect(try await read(client).text == "POST /c 11 hello world")
        let payload = Data("[{\"t\":1},{\"t\":2}]".utf8)
        let gz = Gzip.compress(payload)
        client.send(Array("POST /g HTTP/1.1\r\nHost: t\r\nContent-Encoding: gzip\r\nContent-Length: \(gz.count)\r\n\r\n".utf8) + Array(gz))
        #expect(try await read(client).text == "POST /g \(payload.count) [{\"t\":1},{\"t\":2}]")
        await server.shutdown()
    }

    @Test("Expect: 100-continue gets an interim 100 before the body is sent", arguments: EventLoopKind.available)
    func continueExpected(loop: EventLoopKind) async throws {
        let server = try startServer(loop)
        let client = try RawClient(port: server.port)
        client.send("PUT /e HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        #expect(try await read(client).status == 100)
        client.send("data")
        #expect(try await read(client).text == "PUT /e 4 data")
        await server.shutdown()
    }

    @Test(
        "oversized and malformed requests get 431/413/400 and the connection closes", arguments: EventLoopKind.available,
        [
            ("GET / HTTP/1.1\r\nHost: t\r\nX: " + String(repeating: "a", count: 20_000) + "\r\n\r\n", 431),
            ("POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 2000\r\n\r\n", 413),
            ("GET / HTTP/1.1\r\nHost: t\r\nBad Header: x\r\n\r\n", 400),
            ("POST / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n", 400),
            ("GET / HTTP/1.1\r\n\r\n", 400),
        ])
    func rejects(loop: EventLoopKind, rejected: (input: String, status: Int)) async throws {
        let server = try startServer(loop, maxBody: 1000)
        let client = try RawClient(port: server.port)
        client.send(rejected.input)
        let reply = try await read(client)
        #expect(reply.status == rejected.status)
        #expect(reply.headers["connection"] == "close")
        #expect(await closed(client))
        await server.shutdown()
    }

    @Test("HEAD is answered without a body; a large body survives partial writes", arguments: EventLoopKind.available)
    func headAndBig(loop: EventLoopKind) async throws {
        let server = try startServer(loop)
        let client = try RawClient(port: server.port)
        client.send("HEAD /big HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try await read(client, head: true)
        #expect(head.status == 200 && head.headers["content-length"] == String(8 * 1024 * 1024) && head.body.isEmpty)
        client.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\n")
        let big = try await read(client)
        #expect(big.body.count == 8 * 1024 * 1024 && big.body.allSatisfy { $0 == UInt8(ascii: "x") })
        await server.shutdown()
    }

    @Test("graceful shutdown finishes the request in flight, then refuses new connections", arguments: EventLoopKind.available)
    func gracefulShutdown(loop: EventLoopKind) async throws {
        let gate = Gate()
        let server = try startServer(loop, gate: gate)
        let port = server.port
        // A long read timeout: on a loaded machine the shutdown task may start seconds late.
        let idleClient = try RawClient(port: port, timeout: 30)
        idleClient.send("GET /warm HTTP/1.1\r\nHost: t\r\n\r\n")
        _ = try await read(idleClient)
        let client = try RawClient(port: port)
        client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        while gate.entered == 0 { await Task.yield() }
        // Generous: the shutdown ends as soon as the slow request does; a short grace force-closed it on a loaded machine.
        let shutdown = Task { await server.shutdown(gracePeriod: 60) }
        #expect(await closed(idleClient)) // idle connections go at once
        gate.open()
        let reply = try await read(client)
        #expect(reply.status == 200 && reply.text.hasPrefix("GET /slow"))
        #expect(reply.headers["connection"] == "close")
        await shutdown.value
        #expect(server.connectionCount == 0)
        #expect(throws: RawClient.Failure.self) { _ = try RawClient(port: port) }
    }

    // Timeouts and the hang fault are clock-driven unit tests of ConnectionStateMachine; what
    // needs the socket is that a damaged response really reaches the client damaged.
    @Test("fault deliveries: reset, close after headers, truncated body", arguments: EventLoopKind.available)
    func deliveries(loop: EventLoopKind) async throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoop: loop),
            application: ClosureApplication { request in
                var response = Response.text("0123456789")
                switch request.path {
                case "/reset": response.delivery = .reset
                case "/headers": response.delivery = .closeAfterHeaders
                case "/truncate": response.delivery = .truncateBody(bytes: 3)
                default: break
                }
                return response
            })
        try server.start()
        for path in ["/reset", "/headers", "/truncate"] {
            let client = try RawClient(port: server.port)
            client.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
            await #expect(throws: RawClient.Failure.self, "\(path) should not yield a whole response") { _ = try await read(client) }
        }
        await server.shutdown()
    }

    @Test("a client that pipelines and never reads cannot make the server buffer more than the read limit", arguments: EventLoopKind.available)
    func pipelinerThatNeverReads(loop: EventLoopKind) async throws {
        let server = try startServer(loop)
        do {
            let client = try RawClient(port: server.port)
            // The first answer is 8 MiB, more than the socket buffers hold, so output blocks at once.
            let requests = Array(String(repeating: "GET /big HTTP/1.1\r\nHost: t\r\n\r\n", count: 1_000_000).utf8)
            client.setSendTimeout(1) // once the server stops reading, the kernel buffers fill and send blocks
            let sent = try await blocking { client.send(requests) }
            #expect(sent < requests.count)
            #expect(server.bufferedInputBytes <= (1 << 20) + 64 * 1024)
        }
        await server.shutdown()
    }

    @Test("a client that resets while its handler runs is no longer watched, and is closed when the handler ends", arguments: EventLoopKind.available)
    func resetDuringHandler(loop: EventLoopKind) async throws {
        let gate = Gate()
        let server = try startServer(loop, gate: gate)
        let client = try RawClient(port: server.port)
        client.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(await eventually { gate.entered == 1 })
        client.reset()
        // epoll reports a reset (EPOLLHUP/EPOLLERR) even with no interest: watching the socket on
        // would wake the loop for ever; it is dropped from epoll until the handler is done.
        #expect(await eventually { server.watchedConnectionCount == 0 })
        #expect(server.connectionCount == 1)
        gate.open()
        #expect(await eventually { server.connectionCount == 0 })
        await server.shutdown()
    }

    @Test("past the server-wide body budget a request gets 503 with Retry-After", arguments: EventLoopKind.available)
    func bodyBudget(loop: EventLoopKind) async throws {
        let server = try startServer(loop, bodyBudget: 1000)
        let holder = try RawClient(port: server.port)
        holder.send("POST /held HTTP/1.1\r\nHost: t\r\nContent-Length: 900\r\n\r\n" + String(repeating: "h", count: 800))
        #expect(await eventually { server.bufferedBodyBytes == 800 })
        let client = try RawClient(port: server.port)
        client.send("POST /more HTTP/1.1\r\nHost: t\r\nContent-Length: 300\r\n\r\n" + String(repeating: "m", count: 300))
        let reply = try await read(client)
        #expect(reply.status == 503 && reply.headers["retry-after"] == "1")
        holder.send(String(repeating: "h", count: 100))
        #expect(try await read(holder).text == "POST /held 900 " + String(repeating: "h", count: 64))
        #expect(await eventually { server.bufferedBodyBytes == 0 })
        await server.shutdown()
    }

    @Test("a client sending an oversized body reads the 413 and an orderly close, not a reset", arguments: EventLoopKind.available)
    func lingeringCloseAfter413(loop: EventLoopKind) async throws {
        let server = try startServer(loop, maxBody: 1000)
        let client = try RawClient(port: server.port)
        let body = [UInt8](repeating: UInt8(ascii: "b"), count: 300_000)
        let request = Array("POST /upload HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body
        // The server answers after the head and stops reading the body; it must keep reading
        // (and discarding) after its answer, or closing with unread bytes sends RST.
        _ = try await blocking { client.send(request) }
        let reply = try await read(client)
        #expect(reply.status == 413 && reply.headers["connection"] == "close")
        #expect(try await blocking { client.endsWithOrderlyClose() })
        await server.shutdown()
    }
}
