import Foundation

@testable import HTTPServer

/// Plays the part of `Connection` around a `ConnectionStateMachine`: a fake clock, a fake socket
/// that takes every write at once unless told it is full, and a record of what the machine asked for.
struct ConnectionDriver {
    /// One write the machine asked for, reduced to what tests look at.
    struct Written: Equatable {
        var status: Int // 100 for the interim response
        var keepAlive: Bool
        var portion: ResponsePortion
        var body: String
        var retryAfter: String? = nil
    }

    private(set) var machine: ConnectionStateMachine
    /// Monotonic ns; starts away from zero so deadlines are plainly in the future.
    private(set) var now: UInt64 = 1_000_000_000
    /// Inputs handed to the application and not answered yet, oldest first.
    private(set) var handlers: [HandlerInput] = []
    /// Every input ever handed to the application.
    private(set) var started: [HandlerInput] = []
    private(set) var written: [Written] = []
    private(set) var deadline: UInt64?
    private(set) var interest = ConnectionInterest(read: true, write: false)
    private(set) var closed: ConnectionCloseMode?
    private(set) var writeSideClosed = false
    /// The plan and leftover input of `.startTunnel`, once the machine handed the socket over.
    private(set) var tunnel: (plan: TunnelPlan, leftover: [UInt8])?
    /// While true, writes block (`outputBlocked`) until `drain()`.
    var socketFull = false
    private var blocked = false
    private var undrained = false

    init(configuration: ConnectionConfiguration = ConnectionConfiguration(), budget: RequestBodyBudget? = nil) {
        machine = ConnectionStateMachine(configuration: configuration, remoteAddress: "127.0.0.1", now: 1_000_000_000, budget: budget)
        apply(machine.start())
    }

    init(headerTimeout: Double = 10, idleTimeout: Double = 75, maxBody: Int = 32 * 1024 * 1024, budget: RequestBodyBudget? = nil) {
        self.init(
            configuration: ConnectionConfiguration(
                limits: HTTPParserLimits(maxBodyBytes: maxBody),
                headerTimeout: headerTimeout, idleTimeout: idleTimeout), budget: budget)
    }

    var isClosed: Bool { closed != nil }
    var statuses: [Int] { written.map(\.status) }

    /// Paths (or failure codes) of the inputs started so far.
    var startedPaths: [String] {
        started.map { input in
            switch input {
            case .request(let request): return request.path
            case .failure(let error, _): return "!" + error.code
            }
        }
    }

    // MARK: - What the peer and the application do

    mutating func send(_ text: String) { send(Array(text.utf8)) }

    mutating func send(_ bytes: [UInt8]) { apply(machine.bytesReceived(bytes, now: now)) }

    mutating func peerCloses(_ closure: PeerClosure = .endOfStream) { apply(machine.peerClosed(closure, now: now)) }

    /// Answers the oldest running handler.
    mutating func answer(_ response: Response = .text("ok")) {
        precondition(!handlers.isEmpty, "no handler is running")
        handlers.removeFirst()
        apply(machine.responseReady(response, now: now))
    }

    /// Answers the oldest running handler with a text response echoing its path (or failure code).
    mutating func echo() {
        guard let input = handlers.first else { preconditionFailure("no handler is running") }
        switch input {
        case .request(let request): answer(.text(request.path + " " + String(decoding: request.body, as: UTF8.self)))
        case .failure(let error, _): answer(HTTPApplicationDefaults.errorResponse(error))
        }
    }

    /// Moves the clock on; the sweep ticks the machine when its deadline has passed.
    mutating func advance(seconds: Double) {
        now += UInt64(seconds * 1e9)
        if let deadline, deadline <= now { apply(machine.tick(now: now)) }
    }

    /// The socket has room again: what was queued is written.
    mutating func drain() {
        socketFull = false
        if undrained { flush() }
    }

    mutating func shutdown() { apply(machine.shutdownRequested(now: now)) }

    // MARK: - Carrying out actions

    private mutating func apply(_ actions: [ConnectionAction]) {
        var wrote = false
        for action in actions {
            precondition(closed == nil, "an action after close")
            precondition(tunnel == nil, "an action after the socket was handed to a tunnel")
            switch action {
            case .startHandler(let input):
                handlers.append(input)
                started.append(input)
            case .write(let output):
                written.append(Self.describe(output))
                wrote = true
            case .setDeadline(let deadline):
                self.deadline = deadline
            case .setInterest(let interest):
                self.interest = interest
            case .closeWriteSide:
                writeSideClosed = true
            case .close(let mode):
                closed = mode
            case .startTunnel(let plan, let leftover):
                precondition(tunnel == nil, "two tunnels on one connection")
                tunnel = (plan, leftover)
            }
        }
        if wrote {
            undrained = true
            if closed == nil { flush() }
        }
    }

    private mutating func flush() {
        if socketFull {
            if !blocked {
                blocked = true
                apply(machine.outputBlocked(now: now))
            }
            return
        }
        blocked = false
        undrained = false
        apply(machine.outputDrained(now: now))
    }

    private static func describe(_ output: ConnectionOutput) -> Written {
        switch output {
        case .continueInterim:
            return Written(status: 100, keepAlive: true, portion: .whole, body: "")
        case .response(let response, _, _, let keepAlive, let portion):
            return Written(
                status: response.status, keepAlive: keepAlive, portion: portion, body: String(decoding: response.body, as: UTF8.self),
                retryAfter: response.headers["retry-after"])
        }
    }
}
