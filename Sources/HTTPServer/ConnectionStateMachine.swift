import Foundation

/// The lifecycle of one HTTP/1.1 connection as a value: inputs in (bytes read, peer closed,
/// response ready, output blocked or drained, time passing, shutdown), actions out (start a
/// handler, write, arm a deadline, change interest, close).
///
/// No I/O and no clock: the caller says what happened and when, and carries the actions out, so
/// keep-alive, pipelining, timeouts and faults are unit-tested with a fake clock. Requests are
/// answered one at a time, in order, which is what makes pipelining safe.
struct ConnectionStateMachine {
    /// The timeouts and limits in force.
    let configuration: ConnectionConfiguration
    private var charge: BodyBudgetCharge
    private var reader: HTTPRequestReader
    private(set) var state: State = .awaitingRequest
    private var peer = PeerState.open
    private var shutdownRequested = false
    private var outputBlocked = false
    private var handlerBodyBytes = 0 // the body of the request being answered
    private var deadline: UInt64?
    private var interest = ConnectionInterest(read: true, write: false)
    // What the caller has been told, so only changes become actions.
    private var announcedDeadline: UInt64?
    private var announcedInterest = ConnectionInterest(read: true, write: false)
    private var now: UInt64 = 0
    private var actions: [ConnectionAction] = []

    /// A machine for a connection that was accepted at `now` and is already watched for reads.
    init(configuration: ConnectionConfiguration, remoteAddress: String, now: UInt64, budget: RequestBodyBudget? = nil) {
        self.configuration = configuration
        charge = BodyBudgetCharge(budget: budget)
        reader = HTTPRequestReader(limits: configuration.limits, remoteAddress: remoteAddress)
        self.now = now
        deadline = now + (configuration.startsWithHandshake ? configuration.headerTimeout : configuration.idleTimeout)
    }

    /// The actions that set up a new connection (its first deadline).
    mutating func start() -> [ConnectionAction] {
        begin(now)
        return end()
    }

    // MARK: - Queries

    /// Whether the caller should keep reading from the socket now.
    var wantsInput: Bool { interest.read }

    /// Bytes received but not yet consumed by a request.
    var bufferedByteCount: Int { reader.bufferedByteCount }

    // MARK: - Inputs

    /// Bytes arrived from the peer.
    mutating func bytesReceived(_ bytes: UnsafeRawBufferPointer, now: UInt64) -> [ConnectionAction] {
        begin(now)
        receive(bytes.count) { $0.feed(bytes, now: now) }
        return end()
    }

    /// Bytes arrived from the peer.
    mutating func bytesReceived<C: Collection>(_ bytes: C, now: UInt64) -> [ConnectionAction] where C.Element == UInt8 {
        begin(now)
        receive(bytes.count) { $0.feed(bytes, now: now) }
        return end()
    }

    /// The peer closed its side (or the connection broke).
    mutating func peerClosed(_ closure: PeerClosure, now: UInt64) -> [ConnectionAction] {
        begin(now)
        if isHandedOff { return end() }
        if closure == .hangUp {
            peer = .gone
            switch state {
            case .handling:
                break // remembered: the handler's answer goes nowhere, and then we close
            default:
                close(.orderly)
            }
            return end()
        }
        if peer == .open { peer = .inputEnded }
        switch state {
        case .hanging, .lingering:
            close(.orderly)
        case .awaitingRequest, .readingRequest:
            // Half-closed clients still get the answer to what they already sent.
            pump()
            closeUnlessAnswering()
        default:
            break
        }
        return end()
    }

    /// The application answered the input of the last `.startHandler`.
    mutating func responseReady(_ response: Response, now: UInt64) -> [ConnectionAction] {
        begin(now)
        guard case .handling(let job) = state else { return end() }
        handlerBodyBytes = 0
        updateCharge()
        var response = response
        if let seconds = job.error?.retryAfterSeconds, !response.headers.contains("retry-after") {
            response.headers.setRetryAfter(seconds)
        }
        if peer == .gone {
            close(.orderly)
            return end()
        }
        // After the client's half-close, go on only for requests it already sent.
        let keepAlive = job.keepAlive && !shutdownRequested && (peer == .open || reader.isMidRequest)
        switch response.delivery {
        case .normal:
            write(.response(response, method: job.method, version: job.version, keepAlive: keepAlive, portion: .whole))
            if keepAlive {
                state = .writing(then: .nextRequest)
            } else {
                // After an error the client may still be sending the body we refused; after a
                // last answer it may have pipelined more. Either way, linger rather than reset.
                let clientMaySend = peer == .open && (job.error != nil || reader.bufferedByteCount > 0)
                state = .writing(then: clientMaySend ? .linger : .close)
            }
        case .reset:
            close(.reset)
        case .closeAfterHeaders:
            write(.response(response, method: job.method, version: job.version, keepAlive: false, portion: .headOnly))
            state = .writing(then: .close)
        case .truncateBody(let bytes):
            write(.response(response, method: job.method, version: job.version, keepAlive: false, portion: .truncated(bodyBytes: max(0, bytes))))
            state = .writing(then: .close)
        case .hang(let seconds):
            state = .hanging
            deadline = now + ConnectionConfiguration.nanoseconds(seconds)
        case .tunnel(let plan) where job.error == nil && !shutdownRequested:
            if plan.writesResponseHead {
                write(.response(response, method: job.method, version: job.version, keepAlive: true, portion: .whole))
                state = .writing(then: .tunnel(plan))
            } else {
                handOff(plan)
            }
        case .tunnel:
            // Shutting down, or an unreadable request: no tunnel starts (the plan's upstream closes with it).
            close(.orderly)
        }
        return end()
    }

    /// The socket took only part of the queued output; the rest waits for writability.
    mutating func outputBlocked(now: UInt64) -> [ConnectionAction] {
        begin(now)
        outputBlocked = true
        return end()
    }

    /// Everything queued has been written.
    mutating func outputDrained(now: UInt64) -> [ConnectionAction] {
        begin(now)
        outputBlocked = false
        guard case .writing(let then) = state else { return end() }
        switch then {
        case .close:
            close(.orderly)
        case .linger:
            guard peer == .open else {
                close(.orderly)
                break
            }
            reader.abandon()
            actions.append(.closeWriteSide)
            state = .lingering(discarded: 0)
            deadline = now + configuration.lingerTimeout
        case .tunnel(let plan):
            if shutdownRequested || peer == .gone {
                close(.orderly)
            } else {
                handOff(plan)
            }
        case .nextRequest:
            if shutdownRequested || peer != .open && !reader.isMidRequest && reader.bufferedByteCount == 0 {
                close(.orderly)
                break
            }
            if reader.isMidRequest {
                state = .readingRequest
                deadline = now + configuration.headerTimeout
            } else {
                state = .awaitingRequest
                deadline = now + configuration.idleTimeout
            }
            pump()
            // A request the half-closed client has not finished never will be.
            if peer != .open { closeUnlessAnswering() }
        }
        return end()
    }

    /// Time passed; acts on a deadline that has run out.
    mutating func tick(now: UInt64) -> [ConnectionAction] {
        begin(now)
        guard let due = deadline, due <= now else { return end() }
        deadline = nil
        switch state {
        case .awaitingRequest, .hanging, .lingering:
            close(.orderly)
        case .readingRequest:
            if reader.isReadingBody || !reader.isMidRequest {
                // A body that stopped arriving, or only blank lines: nothing sensible to answer.
                close(.orderly)
            } else {
                startFailure(.headerTimeout, head: nil)
            }
        default:
            break
        }
        return end()
    }

    /// The server is shutting down: finish what is in progress, then close.
    mutating func shutdownRequested(now: UInt64) -> [ConnectionAction] {
        begin(now)
        shutdownRequested = true
        switch state {
        case .handedOff: break
        case .awaitingRequest, .hanging, .lingering: close(.orderly)
        case .readingRequest where !reader.isMidRequest: close(.orderly) // blank lines only
        default: break
        }
        return end()
    }

    /// Close at once (the grace period is over).
    mutating func forceClose(now: UInt64) -> [ConnectionAction] {
        begin(now)
        if !isHandedOff { close(.orderly) }
        return end()
    }

    // MARK: - Steps

    private mutating func receive(_ count: Int, _ feed: (inout HTTPRequestReader) -> Void) {
        switch state {
        case .closed, .handedOff:
            return
        case .hanging:
            return // held: what the client sends is never answered
        case .lingering(let discarded):
            if discarded + count >= configuration.lingerBytes {
                close(.orderly)
            } else {
                state = .lingering(discarded: discarded + count)
            }
            return
        case .awaitingRequest:
            state = .readingRequest
            deadline = now + configuration.headerTimeout
        default:
            break
        }
        feed(&reader)
        pump()
    }

    /// Takes events out of the reader while the connection is ready for the next request.
    private mutating func pump() {
        while true {
            switch state {
            case .awaitingRequest, .readingRequest: break
            default: return
            }
            guard let event = reader.next() else {
                if !updateCharge() {
                    // Over the server-wide budget: refuse this request rather than hold more.
                    startFailure(.serverBusy, head: reader.currentHead)
                    return
                }
                // Bytes that do not complete a head (blank lines included) never move the
                // header timer: it runs from the request's first byte.
                if case .awaitingRequest = state, reader.isMidRequest {
                    state = .readingRequest
                    deadline = now + configuration.headerTimeout
                } else if case .readingRequest = state, reader.isReadingBody {
                    // The head is in; a slow body gets the idle timeout, not the header timeout.
                    deadline = now + configuration.idleTimeout
                }
                return
            }
            switch event {
            case .continueExpected:
                write(.continueInterim)
            case .request(var request):
                handlerBodyBytes = request.body.count
                if !updateCharge() {
                    handlerBodyBytes = 0
                    request.body = Data()
                    startFailure(.serverBusy, head: request)
                    return
                }
                // A CONNECT is the last request either way: after a 2xx the bytes are the
                // tunnel's; after a refusal the client may already have sent them.
                let keepAlive = request.wantsKeepAlive && !shutdownRequested && request.method != .connect
                state = .handling(Job(error: nil, method: request.method, version: request.version, keepAlive: keepAlive))
                deadline = nil
                actions.append(.startHandler(.request(request)))
            case .failure(let error, let head):
                startFailure(error, head: head)
            }
        }
    }

    private mutating func closeUnlessAnswering() {
        switch state {
        case .handling, .writing: break
        default: close(.orderly)
        }
    }

    /// Charges the budget for the body bytes this connection holds; false when it had no room.
    @discardableResult
    private mutating func updateCharge() -> Bool {
        charge.update(holding: handlerBodyBytes + reader.heldBodyByteCount)
    }

    private mutating func startFailure(_ error: HTTPRequestError, head: Request?) {
        reader.abandon()
        state = .handling(Job(error: error, method: head?.method, version: head?.version ?? .http11, keepAlive: false))
        deadline = nil
        actions.append(.startHandler(.failure(error, head: head)))
    }

    private mutating func write(_ output: ConnectionOutput) {
        actions.append(.write(output))
    }

    /// Gives the socket, and what the client sent after its request, to the tunnel plan.
    private mutating func handOff(_ plan: TunnelPlan) {
        let leftover = reader.takeUnconsumedBytes()
        state = .handedOff
        deadline = nil
        handlerBodyBytes = 0
        charge.releaseAll()
        actions.append(.startTunnel(plan, leftover: leftover))
    }

    private mutating func close(_ mode: ConnectionCloseMode) {
        guard !isFinished else { return }
        state = .closed
        deadline = nil
        handlerBodyBytes = 0
        charge.releaseAll()
        actions.append(.close(mode))
    }

    // MARK: - Bookkeeping

    private mutating func begin(_ now: UInt64) {
        self.now = now
        actions = []
    }

    /// Adds the interest and deadline changes the step caused, and hands the actions over.
    private mutating func end() -> [ConnectionAction] {
        defer { actions = [] }
        guard !isFinished else { return actions }
        interest = ConnectionInterest(read: readingAllowed, write: outputBlocked)
        if interest != announcedInterest {
            announcedInterest = interest
            actions.append(.setInterest(interest))
        }
        if deadline != announcedDeadline {
            announcedDeadline = deadline
            actions.append(.setDeadline(deadline))
        }
        return actions
    }

    private var readingAllowed: Bool {
        if peer != .open { return false }
        switch state {
        case .handling(let job):
            // A failed stream is never read again.
            return job.error == nil && reader.bufferedByteCount < configuration.readLimit
        case .writing:
            // Pipelined requests are read ahead only up to the read limit, as nginx does: a
            // client that sends and never reads would otherwise make us buffer without end.
            return reader.bufferedByteCount < configuration.readLimit
        case .closed, .handedOff:
            return false
        default:
            return true
        }
    }
}
