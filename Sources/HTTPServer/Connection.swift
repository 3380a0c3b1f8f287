import Foundation
import Glibc

/// One client connection: reads, parses, hands requests to the application one at a time (in
/// order, so pipelining is answered in order), writes each response with one `send`, and applies
/// keep-alive, timeouts and fault deliveries.
///
/// Confined to its event loop's thread: every method runs there (the loop calls `readable`,
/// `writable` and `deadlinePassed`; handler tasks prefer the loop as executor), which is why it
/// is `@unchecked Sendable`.
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
    private let loop: EventLoop
    // Strong: a connection keeps its server alive until it closes (the registry drops it then).
    private let server: HTTPServer
    private var parser: HTTPRequestParser
    private var phase: Phase = .idle
    private var reading = true
    private var writingWanted = false
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var peerClosed = false
    private var closeRequested = false
    /// When the current timeout (idle, header or hang) runs out, in monotonic ns; nil for none.
    private(set) var deadline: UInt64?

    init(id: Int, transport: ByteTransport, loop: EventLoop, server: HTTPServer, remoteAddress: String) {
        self.id = id
        self.transport = transport
        self.loop = loop
        self.server = server
        self.parser = HTTPRequestParser(limits: server.configuration.limits, remoteAddress: remoteAddress)
    }

    /// The socket.
    var fileDescriptor: Int32 { transport.fileDescriptor }

    /// Starts watching the socket. Call on the loop.
    func start() {
        let configuration = server.configuration
        loop.register(self, sweepInterval: min(configuration.headerTimeout, configuration.idleTimeout) / 4)
        arm(after: configuration.idleTimeout)
    }

    /// Asks the connection to finish what it is doing and close. Call on the loop.
    func beginShutdown() {
        closeRequested = true
        switch phase {
        case .idle, .hanging: close()
        default: break
        }
    }

    /// Closes at once. Call on the loop.
    func forceClose() { close() }

    // MARK: - Reading

    /// The socket is readable (or closed, or in error). Called by the loop.
    func readable() {
        guard !isClosed, reading else { return }
        var received = false
        loop: while true {
            switch transport.receive(into: loop.readBuffer) {
            case .done(let count):
                received = true
                parser.feed(UnsafeRawBufferPointer(rebasing: loop.readBuffer[0..<count]))
                if count < loop.readBuffer.count { break loop }
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
            setReading(false)
            switch phase {
            case .idle, .receiving:
                processEvents()
                switch phase {
                case .responding, .writing: return
                default: close()
                }
            default:
                return
            }
            return
        }
        processEvents()
        if case .responding = phase, parser.bufferedByteCount > 1 << 20 { setReading(false) }
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
                Task(executorPreference: loop) {
                    let response = await application.respond(to: request)
                    // Back on the loop: the task prefers it as its executor.
                    self.deliver(response, for: request, keepAlive: keepAlive)
                }
            case .failure(let error, let head):
                phase = .responding
                disarm()
                setReading(false)
                let application = server.application
                server.requestStarted()
                Task(executorPreference: loop) {
                    let response = await application.respond(to: error, head: head)
                    self.deliver(response, for: head, keepAlive: false)
                }
            }
        }
    }

    // MARK: - Writing

    private func deliver(_ response: Response, for request: Request?, keepAlive: Bool) {
        precondition(loop.inLoop, "a connection is used off its event loop")
        server.requestFinished()
        guard !isClosed else { return }
        let version = request?.version ?? .http11
        let keepAlive = keepAlive && !closeRequested && !peerClosed
        switch response.delivery {
        case .normal:
            let output = ResponseSerializer.serialize(response, method: request?.method, version: version, keepAlive: keepAlive)
            write(output.bytes, then: keepAlive ? .nextRequest : .close)
        case .reset:
            close(reset: true)
        case .closeAfterHeaders:
            let output = ResponseSerializer.serialize(response, method: request?.method, version: version, keepAlive: false)
            write(Array(output.bytes[0..<output.bodyOffset]), then: .close)
        case .truncateBody(let bytes):
            let output = ResponseSerializer.serialize(response, method: request?.method, version: version, keepAlive: false)
            let end = min(output.bytes.count, output.bodyOffset + max(0, bytes))
            write(Array(output.bytes[0..<end]), then: .close)
        case .hang(let seconds):
            phase = .hanging
            setReading(true) // to notice the client giving up
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

    /// The socket can take more bytes. Called by the loop.
    func writable() {
        guard !isClosed else { return }
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
                if !writingWanted {
                    writingWanted = true
                    loop.watch(self, read: reading, write: true)
                }
                return
            case .closed, .failed:
                close()
                return
            }
        }
        pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
        pendingOffset = 0
        if writingWanted {
            writingWanted = false
            loop.watch(self, read: reading, write: false)
        }
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
            setReading(!peerClosed)
            processEvents()
            if peerClosed, case .idle = phase { close() }
        case .none:
            break
        }
    }

    private func setReading(_ enabled: Bool) {
        guard enabled != reading, !isClosed else { return }
        reading = enabled
        loop.watch(self, read: enabled, write: writingWanted)
    }

    // MARK: - Timeouts

    private func arm(after seconds: Double) {
        deadline = MonotonicClock.nanoseconds() + UInt64(max(0, seconds) * 1e9)
    }

    private func disarm() {
        deadline = nil
    }

    /// Called by the loop's sweep when `deadline` has passed.
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
            setReading(false)
            let application = server.application
            server.requestStarted()
            Task(executorPreference: loop) {
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

    private func close(reset: Bool = false) {
        guard !isClosed else { return }
        phase = .closed
        deadline = nil
        loop.unregister(self)
        transport.close(reset: reset)
        server.connectionClosed(self)
    }
}
