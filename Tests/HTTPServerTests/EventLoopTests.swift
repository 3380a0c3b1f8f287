import Foundation
import Synchronization
import TestSockets
import Testing

@testable import HTTPServer

/// Blocks the calling thread (a loop's, in the busy-stretch test) as a wait on a lock or a disk would.
private func holdThread(seconds: Double) { Thread.sleep(forTimeInterval: seconds) }

/// What ran where, recorded from the loop.
private final class Record: Sendable {
    let entries = Mutex<[(index: Int, inLoop: Bool)]>([])
}

/// What every loop implementation must do, run once per loop this build has.
@Suite("Event loops")
struct EventLoopTests {
    @Test("a server runs the loop its configuration names", arguments: EventLoopKind.available)
    func serverRunsNamedLoop(loop: EventLoopKind) async throws {
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoop: loop),
            application: ClosureApplication { _ in .text("ok") })
        try server.start()
        #expect(server.eventLoopKind == loop)
        let client = try RawClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        let reply = try await blocking { try client.readResponse() }
        #expect(reply.status == 200 && reply.text == "ok")
        await server.shutdown()
    }

    @Test("an epoll loop counts the stretches it stayed busy between waits; a Dispatch loop says it cannot tell", arguments: EventLoopKind.available)
    func busyStretchesAreCounted(loop: EventLoopKind) async throws {
        // One loop, so that every request below is handled by the loop that blocks.
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoopCount: 1, eventLoop: loop),
            application: ClosureApplication { request in
                // Blocks the loop thread, as a handler that waited on a lock or a disk would.
                if request.path == "/block" { holdThread(seconds: 0.04) }
                if request.path == "/long" { holdThread(seconds: 0.11) }
                return .text("ok")
            })
        try server.start()
        let client = try RawClient(port: server.port)
        for path in ["/quick", "/block", "/quick", "/long"] {
            client.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try await blocking { try client.readResponse() }.status == 200)
        }
        // A stretch is counted once the loop is back at its wait, just after the answer went out.
        var stretches = server.loopBusyStretches
        let deadline = Date().addingTimeInterval(2)
        while let counted = stretches, counted.verySlow == 0, Date() < deadline {
            try await Task.sleep(nanoseconds: 1_000_000)
            stretches = server.loopBusyStretches
        }
        await server.shutdown()
        switch loop {
        case .epoll:
            // Lower bounds only: a loop the machine preempts stays busy longer, never shorter.
            let counted = try #require(stretches)
            #expect(counted.slow >= 2)
            #expect(counted.verySlow >= 1)
            #expect(counted.longestNanoseconds >= 110_000_000)
        case .dispatch:
            #expect(stretches == nil)
        }
    }

    @Test("work and handler tasks run on the loop, in the order they were given", arguments: EventLoopKind.available)
    func workRunsOnTheLoop(kind: EventLoopKind) async throws {
        let loop = try #require(EventLoopFactory.makeLoops(kind, count: 1).first)
        #expect(!loop.inLoop)
        let record = Record()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for index in 0..<100 {
                loop.execute {
                    record.entries.withLock { $0.append((index, loop.inLoop)) }
                    if index == 99 { done.resume() }
                }
            }
        }
        #expect(record.entries.withLock { $0.map(\.index) } == Array(0..<100))
        #expect(record.entries.withLock { $0.allSatisfy(\.inLoop) })
        // A task that prefers the loop runs its jobs there, before and after a suspension.
        let task = Task(executorPreference: loop) { () -> [Bool] in
            let before = loop.inLoop
            await Task.yield()
            return [before, loop.inLoop]
        }
        #expect(await task.value == [true, true])
        loop.stop()
    }

    #if os(Linux)
    @Test("an epoll loop's thread carries its own name in the kernel, for top, perf and /proc")
    func epollThreadName() async throws {
        let loop = try #require(EventLoopFactory.makeLoops(.epoll, count: 1).first)
        let name = await withCheckedContinuation { (done: CheckedContinuation<String, Never>) in
            loop.execute {
                let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                done.resume(returning: comm.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        #expect(name == "http-loop-0")
        loop.stop()
    }
    #endif

    @Test("a loop's turn names the loop, runs work after what is queued, and says whether anything is", arguments: EventLoopKind.available)
    func loopTurn(kind: EventLoopKind) async throws {
        let loop = try #require(EventLoopFactory.makeLoops(kind, count: 1).first)
        #expect(LoopTurn.current == nil, "off the server's loops there is no turn")
        let order = Mutex<[String]>([])
        let seen = Mutex<(id: ObjectIdentifier?, queued: [Bool])>((nil, []))
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Queued from the loop itself, so that all four wait before the first runs.
            loop.execute {
                loop.execute {
                    let turn = LoopTurn.current
                    seen.withLock {
                        $0.id = turn?.id; $0.queued.append(turn?.hasQueuedWork ?? false)
                    }
                    turn?.afterQueuedWork {
                        order.withLock { $0.append("end of turn") }
                        // Nothing is left: on epoll the turn says so (Dispatch cannot tell, and says true).
                        seen.withLock { $0.queued.append(LoopTurn.current?.hasQueuedWork ?? true) }
                        done.resume()
                    }
                    order.withLock { $0.append("first") }
                }
                for index in 1...3 { loop.execute { order.withLock { $0.append("queued \(index)") } } }
            }
        }
        #expect(order.withLock { $0 } == ["first", "queued 1", "queued 2", "queued 3", "end of turn"])
        let (id, queued) = seen.withLock { $0 }
        #expect(id == ObjectIdentifier(loop))
        #expect(queued == (kind == .dispatch ? [true, true] : [true, false]))
        loop.stop()
    }

    /// Descriptor numbers are reused as soon as a socket closes. A loop that let the number go
    /// while it still watched it (a Dispatch source not yet cancelled) would attach the next
    /// client's events to the old connection, and that client would wait in vain.
    @Test("connections opened and closed in quick succession, in parallel, are all answered", arguments: EventLoopKind.available)
    func descriptorReuse(loop: EventLoopKind) async throws {
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, eventLoopCount: 4, eventLoop: loop)
        let server = HTTPServer(configuration: configuration, application: ClosureApplication { request in .text(request.path) })
        try server.start()
        let port = server.port
        let failures = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    try await blocking {
                        var failures: [String] = []
                        for index in 0..<150 {
                            let path = "/\(worker)/\(index)"
                            do {
                                let client = try RawClient(port: port)
                                client.send("GET \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                                let reply = try client.readResponse()
                                if reply.text != path { failures.append("\(path): got \(reply.text)") }
                                if !client.isClosedByServer() { failures.append("\(path): not closed") }
                            } catch {
                                failures.append("\(path): \(error)")
                            }
                        }
                        return failures
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        await server.shutdown()
        #expect(server.connectionCount == 0)
    }
}
