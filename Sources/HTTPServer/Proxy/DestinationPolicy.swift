/// Which resolved addresses an outbound connection (a proxy tunnel, a forwarded request, a
/// webhook) may be opened to. Checked on each address `getaddrinfo` returned, right before the
/// connect, so a name that resolves to loopback and every odd spelling of a literal are judged by
/// the address actually dialled.
public struct DestinationPolicy: Sendable, Equatable {
    /// Whether loopback, private, link-local and other non-public addresses may be reached.
    public var allowsPrivate: Bool
    /// Ports of this server's own listeners: an address of this machine on one of them is the
    /// server itself, never dialled (a loop that would hold a connection slot per turn).
    public var ownPorts: Set<Int>

    /// A policy; the default reaches public addresses only.
    public init(allowsPrivate: Bool = false, ownPorts: Set<Int> = []) {
        self.allowsPrivate = allowsPrivate
        self.ownPorts = ownPorts
    }

    /// Every address, the server's own listeners excepted.
    public static let anywhere = DestinationPolicy(allowsPrivate: true)

    /// What the policy says about one address.
    public enum Verdict: Sendable, Equatable {
        /// Connect.
        case allowed
        /// A non-public address and the policy reaches public ones only.
        case privateAddress(AddressScope)
        /// This machine on one of the server's own ports.
        case ownListener
    }

    /// The verdict for `address:port`; `interfaces` (this machine's addresses) is asked only when
    /// `port` is one of the server's own.
    public func verdict(_ address: NetworkAddress, port: Int, interfaces: () -> Set<NetworkAddress>) -> Verdict {
        if ownPorts.contains(port), address.isThisMachine(interfaces: interfaces()) { return .ownListener }
        let scope = address.scope
        if !allowsPrivate && !scope.isGlobal { return .privateAddress(scope) }
        return .allowed
    }
}
