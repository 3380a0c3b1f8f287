/// What becomes of a proxy connection once its answer is written: the `Response.Delivery` of a
/// `CONNECT` (or of a request forwarded to a host nobody emulates).
public enum TunnelPlan: Sendable, Equatable {
    /// Serve what arrives next ourselves, as if it came to the plain port (`tls` false) or the TLS
    /// port (`tls` true: the client's next bytes are a ClientHello), for the host `authority` names.
    case intercept(tls: Bool, authority: ProxyAuthority)
    /// Write the response head (`200 Connection Established`), then splice the client and this
    /// connected upstream socket, bytes unchanged both ways, until both sides are done.
    case passthrough(UpstreamSocket)
    /// Write nothing ourselves: the upstream was sent a forwarded request and its answer (begun in
    /// `UpstreamSocket.receivedBytes`) goes to the client unchanged, spliced like `passthrough`.
    case relay(UpstreamSocket)

    /// Whether the state machine writes the response head before the tunnel starts.
    var writesResponseHead: Bool {
        if case .relay = self { return false }
        return true
    }

    /// The upstream socket, for the plans that have one.
    public var upstream: UpstreamSocket? {
        switch self {
        case .intercept: return nil
        case .passthrough(let socket), .relay(let socket): return socket
        }
    }
}
