import Dispatch
import Foundation
import Glibc

/// One client connection: reads, parses, hands requests to the application one at a time (in
/// order, so pipelining is answered in order), writes each response with one `send`, and applies
/// keep-alive, timeouts and fault deliveries.
///
/// Confined to `events.queue`: every method runs there, which is why it is `@unchecked Sendable`.
final class Connection: @unchecked Sendable {
    private enum Phase {
        /// Waiting for the first byte of a request (idle keep-alive timeout applies).
        case idle
        /// Some of a request has arrived (header timeout applies until the head is complete).
        case receiving
        /// The application is producing a response.
        case responding
        /// Writing a response; `then` says what follows.
        case writing(then: AfterWrite)
        /// A hang fault: hold the socket, write nothing.
        case hanging
        case closed
    }

    private enum AfterWrite { case nextRequest, close, none }

    let id: Int
    private let transport: ByteTransport
    private let events: EventQueue
    // Strong: a connection keeps its server alive until it closes (the registry drops it then).
    private let server: HTTPServer
    private var parser: HTTPRequestParser
    private var phase: Phase = .idle
    private var readSource: DispatchSourceRead?
    private var readSuspended = false
    private var writeSource: DispatchSourceWrite?
    private var writeSuspended = true
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    /// When the current timeout (idle, header or hang) runs out, in monotonic ns; nil for none.
    private(set) var deadline: UInt64?
    private var peerClosed = false
    private var closeRequested = false
    private var resetOnClose = false
    private var liveSources = 0

    init(id: Int, transport: ByteTransport, events: EventQueue, server: HTTPServer, remoteAddress: String) {
        self.id = id
        self.transport = transport
        self.events = events
        self.server = server
        self.parser = HTTPRequestParser(limits: server.configuration.limits, remoteAddress: remoteAddress)
    }

    /// Starts watching the socket. Call on `events.queue`.
    func start() {
        let source = DispatchSource.makeReadSource(fileDescriptor: transport.fileDescriptor, queue: events.queue)
        source.setEventHandler { [unowned self] in self.readable() }
        readSource = source
        source.resume()
        let configuration = server.configuration
        events.register(self, sweepInterval: min(configuration.headerTimeout, configuration.idleTimeout) / 4)
        arm(after: configuration.idleTimeout)
    }

    /// Asks the connection to finish what it is doing and close. Call on `events.queue`.
    func beginShutdown() {
        closeRequested = true
        switch phase {
        case .idle: close()
        case .hanging: close()
        default: break
        }
    }

    /// Closes at once. Call on `events.queue`.
    func forceClose() { close() }

    // MARK: - Reading

    private func readable() {
        guard !isClosed else { return }
        var received = false
        loop: while true {
            switch transport.receive(into: events.readBuffer) {
            case .done(let count):
                received = true
                parser.feed(UnsafeRawBufferPointer(rebasing: events.readBuffer[0..<count]))
                if count < events.readBuffer.count { break loop }
                // Stop pulling while a response is pending and pipelined bytes pile up.
                if case .responding = phase, parser.bufferedByteCount > 1 << 20 { break loop }
            case .wouldBlock:
                break loop
            case .closed, .failed:
                peerClosed = true
                break loop
            }
        }
        if case .hanging = phase {
            if peerClosed { close() }
            return
        }
        if received, case .idle = phase {
            phase = .receiving
            arm(after: server.configuration.headerTimeout)
        }
        if peerClosed {
            // Half-closed clients still get the answer to what they already sent.
            suspendReading()
            switch phase {
            case .idle, .receiving:
                processEvents()
                if case .responding = phase { return }
                if case .writing = phase { return }
                close()
            default:
                return
            }
            return
        }
        processEvents()
        if case .responding = phase, parser.bufferedByteCount > 1 << 20 { suspendReading() }
    }

    private func processEvents() {
        while true {
            switch phase {
            case .idle, .receiving: break
            default: return
            }
            guard let event = parser.next() else {
                if case .receiving = phase, !parser.isMidRequest {
                    phase = .idle
                    arm(after: server.configuration.idleTimeout)
                } else if case .idle = phase, parser.isMidRequest {
                    phase = .receiving
                    arm(after: server.configuration.headerTimeout)
                } else if case .receiving = phase, parser.isReadingBody {
                    // The head is in; a slow body gets the idle timeout, not the header timeout.
                    arm(after: server.configuration.idleTimeout)
                }
                return
            }
            switch event {
            case .continueExpected:
                write(ResponseSerializer.continueBytes, then: .none)
            case .request(let request):
                phase = .responding
                disarm()
                let keepAlive = request.wantsKeepAlive && !closeRequested && !server.isShuttingDown
                let application = server.application
                server.requestStarted()
                Task(executorPreference: events) {
                    let response = await application.respond(to: request)
                    // Back on `events.queue`: the task prefers it as its executor.
                    self.deliver(response, for: request, keepAlive: keepAlive)
                }
            case .failure(let error, let head):
                phase = .responding
                disarm()
                let application = server.application
                server.requestStarted()
                Task(executorPreference: events) {
                    let response = await application.respond(to: error, head: head)
                    self.deliver(response, for: head, keepAlive: false)
                }
            }
        }
    }

    // MARK: - Writing

    private func deliver(_ response: Response, for request: Request?, keepAlive: Bool) {
        dispatchPrecondition(condition: .onQueue(events.queue))
        server.requestFinished()
        guard !isClosed else { return }
        let version = request?.version ?? .http11
        let keepAlive = keepAlive && !closeRequested && !peerClosed
        switch response.delivery {
        case .normal:
            let output = ResponseSerializer.serialize(response, method: request?.method, version: version, keepAlive: keepAlive)
            write(output.bytes, then: keepAlive ? .nextRequest : .close)
        case .reset:
            resetOnClose = true
            close()
        case .closeAfterHeaders:
            let output = ResponseSerializer.serialize(response, method: request?.method, version: version, keepAlive: false)
            write(Array(output.bytes[0..<output.bodyOffset]), then: .close)
        case .truncateBody(let bytes):
            let output = ResponseSerializer.serialize(response, method: request?.method, version: version, keepAlive: false)
            let end = min(output.bytes.count, output.bodyOffset + max(0, bytes))
            write(Array(output.bytes[0..<end]), then: .close)
        case .hang(let seconds):
            phase = .hanging
            resumeReading() // to notice the client giving up
            arm(after: seconds)
        }
    }

    private func write(_ bytes: [UInt8], then: AfterWrite) {
        if then != .none { phase = .writing(then: then) }
        if pending.isEmpty {
            pending = bytes
            pendingOffset = 0
        } else {
            pending.append(contentsOf: bytes)
        }
        flush()
    }

    private func flush() {
        while pendingOffset < pending.count {
            let result = pending.withUnsafeBytes { raw in
                transport.send(UnsafeRawBufferPointer(rebasing: raw[pendingOffset...]))
            }
            switch result {
            case .done(let count):
                pendingOffset += count
            case .wouldBlock:
                waitForWritable()
                return
            case .closed, .failed:
                close()
                return
            }
        }
        pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
        pendingOffset = 0
        if !writeSuspended { writeSource?.suspend(); writeSuspended = true }
        guard case .writing(let then) = phase else { return }
        switch then {
        case .close:
            close()
        case .nextRequest:
            if closeRequested || peerClosed && !parser.isMidRequest && parser.bufferedByteCount == 0 {
                close()
                return
            }
            phase = parser.isMidRequest ? .receiving : .idle
            arm(after: parser.isMidRequest ? server.configuration.headerTimeout : server.configuration.idleTimeout)
            resumeReading()
            processEvents()
            if peerClosed, case .idle = phase { close() }
        case .none:
            break
        }
    }

    private func waitForWritable() {
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: transport.fileDescriptor, queue: events.queue)
            source.setEventHandler { [unowned self] in self.flush() }
            writeSource = source
        }
        if writeSuspended {
            writeSuspended = false
            writeSource?.resume()
        }
    }

    private func suspendReading() {
        if !readSuspended, let readSource { readSource.suspend(); readSuspended = true }
    }

    private func resumeReading() {
        if readSuspended, let readSource { readSource.resume(); readSuspended = false }
    }

    // MARK: - Timeouts

    private func arm(after seconds: Double) {
        deadline = MonotonicClock.nanoseconds() + UInt64(max(0, seconds) * 1e9)
    }

    private func disarm() {
        deadline = nil
    }

    /// Called by the queue's sweep when `deadline` has passed.
    func deadlinePassed() {
        deadline = nil
        switch phase {
        case .idle, .hanging:
            close()
        case .receiving:
            if parser.isReadingBody {
                close() // a body that stopped arriving: nothing sensible to answer
                return
            }
            phase = .responding
            disarm()
            suspendReading()
            let application = server.application
            server.requestStarted()
            Task(executorPreference: events) {
                let response = await application.respond(to: .headerTimeout, head: nil)
                self.deliver(response, for: nil, keepAlive: false)
            }
        default:
            break
        }
    }

    // MARK: - Closing

    private var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    private func close() {
        guard !isClosed else { return }
        phase = .closed
        deadline = nil
        // The descriptor is closed only after every source on it is cancelled, so a reused
        // descriptor number can never be watched by a stale source.
        var sources: [(DispatchSourceProtocol, Bool)] = []
        if let readSource { sources.append((readSource, readSuspended)) }
        if let writeSource { sources.append((writeSource, writeSuspended)) }
        readSource = nil
        writeSource = nil
        liveSources = sources.count
        if sources.isEmpty {
            finishClose()
            return
        }
        for (source, suspended) in sources {
            source.setEventHandler {}
            source.setCancelHandler { self.sourceCancelled() }
            source.cancel()
            // A suspended source must be resumed for its cancellation to complete.
            if suspended { source.resume() }
        }
    }

    private func sourceCancelled() {
        liveSources -= 1
        if liveSources == 0 { finishClose() }
    }

    private func finishClose() {
        events.unregister(self)
        transport.close(reset: resetOnClose)
        server.connectionClosed(self)
    }
}
