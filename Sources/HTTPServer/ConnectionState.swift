/// The states a `ConnectionStateMachine` moves through, and what it remembers about the peer.
extension ConnectionStateMachine {
    /// Whether the connection is closed.
    var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    /// Whether the socket was handed to a tunnel plan; the machine does nothing more.
    var isHandedOff: Bool {
        if case .handedOff = state { return true }
        return false
    }

    /// Closed or handed off: either way, no more actions.
    var isFinished: Bool { isClosed || isHandedOff }

    /// Where the connection is in its request/response cycle.
    enum State {
        /// Nothing of a request yet (the idle timeout applies).
        case awaitingRequest
        /// Some of a request has arrived, if only blank lines (header timeout from the first byte
        /// until the head is complete, then the idle timeout between pieces of the body).
        case readingRequest
        /// The application is producing an answer.
        case handling(Job)
        /// A response is queued; `then` says what follows once it is written.
        case writing(then: AfterWrite)
        /// A hang fault: hold the socket, write nothing, until the client leaves or the deadline.
        case hanging
        /// Lingering close after an error answer: our FIN is sent; what still arrives is read and
        /// dropped, so closing does not reset the connection (a reset can destroy the answer
        /// before the client reads it). Bounded in time and bytes, like nginx's lingering_close.
        case lingering(discarded: Int)
        /// Closed; nothing follows.
        case closed
        /// The socket was handed to a tunnel plan (`.startTunnel`); nothing follows here.
        case handedOff
    }

    /// What the handler in progress answers, and how its response may leave.
    struct Job {
        var error: HTTPRequestError?
        var method: HTTPMethod?
        var version: HTTPVersion
        var keepAlive: Bool
    }

    /// What follows once a queued response is written.
    enum AfterWrite { case nextRequest, close, linger, tunnel(TunnelPlan) }

    /// How much of the peer is still there.
    enum PeerState {
        case open
        /// The peer half-closed: it sends nothing more but may still read.
        case inputEnded
        /// Hang-up, reset or error: nothing written arrives.
        case gone
    }
}
