import Foundation

/// One client connection: feeds what happens on the socket to its `ConnectionStateMachine` and
/// carries out the machine's actions (run the handler, write, watch, close) on its event loop.
///
/// Confined to its event loop's thread: every method runs there (the loop calls `readable`,
/// `writable` and `tick`; handler tasks prefer the loop as executor), which is why it is
/// `@unchecked Sendable`.
final class Connection: @unchecked Sendable {
    let id: Int
    private var transport: ByteTransport
    private let loop: any EventLoop
    /// The listener this connection came from; requests carry it with the transport's TLS facts.
    let listener: ConnectionInfo.Listener
    /// For the proxy port's intercepted `CONNECT host:443` tunnels.
    private let intercept: (any InterceptTransportFactory)?
    /// The `host:port` of the CONNECT whose tunnel this connection now serves, once intercepted.
    private var tunnelAuthority: String?
    // Strong: a connection keeps its server alive until it closes (the registry drops it then).
    private let server: HTTPServer
    private var machine: ConnectionStateMachine
    private let remoteAddress: String
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var interest = ConnectionInterest(read: true, write: false)
    private var closed = false
    private var reportedBufferedBytes = 0
    /// When the machine wants `tick`, in monotonic ns; nil for never. Read by the loop's sweep.
    private(set) var deadline: UInt64?

    init(
        id: Int, transport: ByteTransport, listener: ConnectionInfo.Listener, loop: any EventLoop, server: HTTPServer, remoteAddress: String,
        intercept: (any InterceptTransportFactory)? = nil
    ) {
        self.id = id
        self.transport = transport
        self.listener = listener
        self.intercept = intercept
        self.remoteAddress = remoteAddress
        self.loop = loop
        self.server = server
        var configuration = ConnectionConfiguration(server.configuration)
        // A transport that is secure from the start begins with a handshake: header timeout first.
        configuration.startsWithHandshake = transport.isSecure
        machine = ConnectionStateMachine(
            configuration: configuration,
            remoteAddress: remoteAddress, now: MonotonicClock.nanoseconds(), budget: server.bodyBudget)
    }

    /// The socket.
    var fileDescriptor: Int32 { transport.fileDescriptor }

    /// Starts watching the socket. Call on the loop.
    func start() {
        let configuration = server.configuration
        loop.register(self, sweepInterval: min(configuration.headerTimeout, configuration.idleTimeout) / 4)
        perform(machine.start())
    }

    /// Asks the connection to finish what it is doing and close. Call on the loop.
    func beginShutdown() { perform(machine.shutdownRequested(now: MonotonicClock.nanoseconds())) }

    /// Closes at once. Call on the loop.
    func forceClose() { perform(machine.forceClose(now: MonotonicClock.nanoseconds())) }

    /// The deadline has passed. Called by the loop's sweep.
    func tick(now: UInt64) { perform(machine.tick(now: now)) }

    // MARK: - Socket readiness (called by the loop)

    /// The socket is readable, or reports a hang-up or error (`hangUp`).
    func readable(hangUp: Bool) {
        guard !closed else { return }
        let buffer = loop.readBuffer
        while !closed && machine.wantsInput {
            let now = MonotonicClock.nanoseconds()
            switch transport.receive(into: buffer) {
            case .done(let count):
                perform(machine.bytesReceived(UnsafeRawBufferPointer(rebasing: buffer[0..<count]), now: now))
                // A short read drained the socket, unless the transport holds more (TLS records).
                if count < buffer.count && !transport.hasBufferedInput { return }
            case .wouldBlock:
                return
            case .closed:
                perform(machine.peerClosed(.endOfStream, now: now))
                return
            case .failed:
                perform(machine.peerClosed(.hangUp, now: now))
                return
            }
        }
        // Not reading now (backpressure, or a handler runs), but the socket says the peer is gone.
        if hangUp && !closed { perform(machine.peerClosed(.hangUp, now: MonotonicClock.nanoseconds())) }
    }

    /// The socket can take more bytes.
    func writable() {
        guard !closed else { return }
        flush()
    }

    // MARK: - Carrying out actions

    private func perform(_ actions: [ConnectionAction]) {
        var wrote = false
        for action in actions {
            if closed { break }
            switch action {
            case .startHandler(let input):
                startHandler(input)
            case .write(let output):
                queue(output)
                wrote = true
            case .setDeadline(let deadline):
                self.deadline = deadline
            case .setInterest(let interest):
                let resumesReading = interest.read && !self.interest.read
                self.interest = interest
                loop.watch(self, read: interest.read, write: interest.write)
                // Reading stopped (read limit) while the transport held records read ahead, which
                // no readiness event will announce: read them now.
                if resumesReading && transport.hasBufferedInput { loop.execute { [self] in readable(hangUp: false) } }
            case .closeWriteSide:
                transport.shutdownWrite()
            case .close(let mode):
                close(reset: mode == .reset)
            case .startTunnel(let plan, let leftover):
                startTunnel(plan, leftover: leftover)
                return // a new machine, or no connection at all: nothing of this batch is left to do
            }
        }
        reportBufferedBytes()
        // Writing after the whole batch keeps the machine's view in order: what it says after
        // the drain comes after what it said before.
        if wrote && !closed { flush() }
    }

    /// What requests on this connection are told about how it was reached.
    private var connectionInfo: ConnectionInfo {
        ConnectionInfo(listener: listener, isSecure: transport.isSecure, serverName: transport.serverName, tunnelAuthority: tunnelAuthority)
    }

    private func startHandler(_ input: HandlerInput) {
        let application = server.application
        let info = connectionInfo
        server.requestStarted()
        Task(executorPreference: loop) {
            let response: Response
            switch input {
            case .request(var request):
                request.connection = info
                response = await application.respond(to: request)
            case .failure(let error, var head):
                head?.connection = info
                response = await application.respond(to: error, head: head)
            }
            // Back on the loop: the task prefers it as its executor.
            self.handlerFinished(response)
        }
    }

    private func handlerFinished(_ response: Response) {
        precondition(loop.inLoop, "a connection is used off its event loop")
        server.requestFinished()
        guard !closed else { return }
        perform(machine.responseReady(response, now: MonotonicClock.nanoseconds()))
    }

    private func queue(_ output: ConnectionOutput) {
        let bytes: [UInt8]
        switch output {
        case .continueInterim:
            bytes = ResponseSerializer.continueBytes
        case .response(let response, let method, let version, let keepAlive, let portion):
            let serialized = ResponseSerializer.serialize(response, method: method, version: version, keepAlive: keepAlive)
            switch portion {
            case .whole:
                bytes = serialized.bytes
            case .headOnly:
                bytes = Array(serialized.bytes[0..<serialized.bodyOffset])
            case .truncated(let count):
                bytes = Array(serialized.bytes[0..<min(serialized.bytes.count, serialized.bodyOffset + count)])
            }
        }
        if pending.isEmpty {
            pending = bytes
            pendingOffset = 0
        } else {
            pending.append(contentsOf: bytes)
        }
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
                if !interest.write { perform(machine.outputBlocked(now: MonotonicClock.nanoseconds())) }
                return
            case .closed, .failed:
                perform(machine.peerClosed(.hangUp, now: MonotonicClock.nanoseconds()))
                if !closed { perform(machine.forceClose(now: MonotonicClock.nanoseconds())) }
                return
            }
        }
        pending.removeAll(keepingCapacity: pending.capacity <= 64 * 1024)
        pendingOffset = 0
        perform(machine.outputDrained(now: MonotonicClock.nanoseconds()))
    }

    /// Keeps the server's count of buffered input bytes (for tests and monitoring) current.
    private func reportBufferedBytes() {
        let buffered = closed ? 0 : machine.bufferedByteCount
        if buffered != reportedBufferedBytes {
            server.bufferedInputChanged(by: buffered - reportedBufferedBytes)
            reportedBufferedBytes = buffered
        }
    }

    // MARK: - Tunnels (the proxy port)

    private func startTunnel(_ plan: TunnelPlan, leftover: [UInt8]) {
        reportBufferedBytes()
        switch plan {
        case .intercept(let tls, let authority):
            if tls {
                guard let intercept, !transport.isSecure else {
                    close(reset: false)
                    return
                }
                // The socket moves to a TLS transport; a duplicate descriptor keeps it open while
                // the plain transport lets go of the old one.
                let fd = Socket.duplicate(transport.fileDescriptor)
                let plain = transport
                loop.unregister(self) { plain.close(reset: false) } // the loop says when the old descriptor may go
                guard fd >= 0 else {
                    closed = true
                    server.connectionClosed(self)
                    return
                }
                transport = intercept.makeInterceptTransport(socket: fd, prefix: leftover)
                loop.register(self, sweepInterval: min(server.configuration.headerTimeout, server.configuration.idleTimeout) / 4)
            } else {
                loop.watch(self, read: true, write: false)
            }
            tunnelAuthority = authority.description
            interest = ConnectionInterest(read: true, write: false)
            var configuration = ConnectionConfiguration(server.configuration)
            // A stalled handshake inside the tunnel is a slow header, as on the HTTPS port.
            configuration.startsWithHandshake = tls
            machine = ConnectionStateMachine(
                configuration: configuration, remoteAddress: remoteAddress,
                now: MonotonicClock.nanoseconds(), budget: server.bodyBudget)
            perform(machine.start())
            if !tls && !leftover.isEmpty { perform(machine.bytesReceived(leftover, now: MonotonicClock.nanoseconds())) }
            // Replayed bytes (the ClientHello inside the TLS transport) announce no readiness of their own.
            if tls { readable(hangUp: false) }
        case .passthrough(let upstream), .relay(let upstream):
            let owed = Array(pending[pendingOffset...]) + upstream.receivedBytes
            let fd = transport.isSecure ? -1 : Socket.duplicate(transport.fileDescriptor)
            close(reset: false)
            guard fd >= 0 else { return }
            server.startTunnel(client: fd, upstream: upstream, toUpstream: leftover, toClient: owed)
        }
    }

    private func close(reset: Bool) {
        guard !closed else { return }
        closed = true
        deadline = nil
        pending = []
        let transport = self.transport
        loop.unregister(self) { transport.close(reset: reset) } // the loop says when the descriptor may go
        server.connectionClosed(self)
    }
}
