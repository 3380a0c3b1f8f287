/// What a `ConnectionStateMachine` asks its connection to do, in order.
enum ConnectionAction {
    /// Run the application on this input; report its answer with `responseReady`.
    case startHandler(HandlerInput)
    /// Serialize and queue these bytes; report `outputBlocked` / `outputDrained`.
    case write(ConnectionOutput)
    /// When to call `tick(now:)` next (monotonic ns); nil for never.
    case setDeadline(UInt64?)
    /// Which readiness to wait for on the socket. With neither, the socket is not watched at all
    /// (error and hang-up conditions are reported even for an empty interest set).
    case setInterest(ConnectionInterest)
    /// Send FIN but keep the read side open: the start of a lingering close.
    case closeWriteSide
    /// Close the socket; nothing follows.
    case close(ConnectionCloseMode)
    /// Stop speaking HTTP on this socket and carry out `plan`; `leftover` is what the client sent
    /// after the request that asked for it (a pipelined TLS ClientHello, say), unconsumed. The
    /// machine is done: nothing follows, and the socket is the plan's now.
    case startTunnel(TunnelPlan, leftover: [UInt8])
}

/// What the application is asked to answer.
enum HandlerInput {
    /// A well-formed request.
    case request(Request)
    /// A request that could not be read (`head` when its head was parsed).
    case failure(HTTPRequestError, head: Request?)
}

/// Bytes the connection should write, described rather than serialized: serializing reads the
/// wall clock (the `Date` header), which the state machine does not.
enum ConnectionOutput {
    /// `100 Continue`.
    case continueInterim
    /// A response (or the part of it a fault lets through).
    case response(Response, method: HTTPMethod?, version: HTTPVersion, keepAlive: Bool, portion: ResponsePortion)
}

/// How much of a serialized response goes on the wire.
enum ResponsePortion: Equatable {
    /// All of it.
    case whole
    /// The head only (its `Content-Length` still announces the whole body).
    case headOnly
    /// The head and the first `bodyBytes` of the body.
    case truncated(bodyBytes: Int)
}

/// The readiness a connection waits for.
struct ConnectionInterest: Equatable {
    /// Wait for input (and the peer's half-close).
    var read: Bool
    /// Wait for room to write.
    var write: Bool
}

/// How a connection ends.
enum ConnectionCloseMode: Equatable {
    /// FIN.
    case orderly
    /// RST (SO_LINGER 0), for the reset fault.
    case reset
}

/// How the peer went away.
enum PeerClosure: Equatable {
    /// Read returned end of stream: the peer shut its write side but may still read our answer.
    case endOfStream
    /// Hang-up, reset or socket error: nothing written will arrive.
    case hangUp
}

/// One connection's timeouts and limits, in the state machine's units.
struct ConnectionConfiguration: Sendable {
    /// Parser limits.
    var limits: HTTPParserLimits
    /// Nanoseconds a request head may take from its first byte.
    var headerTimeout: UInt64
    /// Nanoseconds an idle keep-alive connection (or a stalled body) is kept.
    var idleTimeout: UInt64
    /// Most unconsumed input held while a response is being produced or written.
    var readLimit = 1 << 20
    /// Longest a lingering close reads and drops input before closing (nginx: lingering_time).
    var lingerTimeout: UInt64 = 2_000_000_000
    /// Most input a lingering close reads and drops before closing: one whole refused request, so
    /// a client that writes its body before reading (most do) still sees the 413 or 503 instead of
    /// a reset. Dropping input holds no memory; the time bound is what limits the cost.
    var lingerBytes: Int
    /// The connection starts with a TLS handshake: until its first request byte the deadline is
    /// the header timeout, so a client that stalls in the handshake is a slow header, not an idle
    /// keep-alive connection.
    var startsWithHandshake = false

    /// Converts a server configuration.
    init(_ configuration: HTTPServerConfiguration) {
        self.init(limits: configuration.limits, headerTimeout: configuration.headerTimeout, idleTimeout: configuration.idleTimeout)
    }

    /// Creates a configuration with timeouts in seconds.
    init(limits: HTTPParserLimits = HTTPParserLimits(), headerTimeout: Double = 10, idleTimeout: Double = 75) {
        self.limits = limits
        self.lingerBytes = limits.maxHeaderBytes + limits.maxBodyBytes
        self.headerTimeout = Self.nanoseconds(headerTimeout)
        self.idleTimeout = Self.nanoseconds(idleTimeout)
    }

    /// `seconds` as nanoseconds: NaN and negatives are 0, and anything past a century is a
    /// century, so a configured timeout of 1e300 s means "never" instead of a trap.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        return UInt64(exactly: (min(seconds, 3.2e9) * 1e9).rounded()) ?? 0
    }
}
