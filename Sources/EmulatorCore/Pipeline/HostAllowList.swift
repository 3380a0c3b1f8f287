import HTTPServer

/// Pipeline stage before routing: the `Host` a request names must be one this server answers to.
///
/// A web page can make the browser resolve its own host name to 127.0.0.1 (DNS rebinding); the
/// browser then treats the server as that page's origin and lets the page read every answer. The
/// one thing such a page cannot change is the `Host` the browser sends: its own name. So, as
/// webpack-dev-server and Vite do, names outside a short list are refused before anything runs.
///
/// Admitted: any IP literal (a rebinding page needs a name; phones, the Android emulator's
/// `10.0.2.2` and LAN addresses use literals), `localhost` and `*.localhost` (browsers resolve
/// those to loopback themselves), `host.docker.internal`, the public URL's and the listen
/// address's host, every host a platform emulates (`pathPrefix(forHost:)`: real API hosts,
/// hosts configured per project, a project's custom link domains), and the configured `AllowedHostName`s.
/// A request without `Host` (HTTP/1.0) passes: browsers always send one.
///
/// The proxy's own traffic (CONNECT, absolute-form requests for hosts nobody emulates) is answered
/// before this stage; requests inside an intercepted tunnel name the emulated host.
struct HostAllowList: Sendable {
    let configured: [AllowedHostName]
    let platforms: [any Platform]
    /// The public URL and listen address, which the server sets once it is bound.
    let addresses: @Sendable () -> ServerAddresses

    /// Whether `request` may be answered; `hostEmulated` says the platform resolver already found
    /// a platform serving its host (which is admitted without asking the platforms again).
    func admits(_ request: Request, hostEmulated: Bool = false) -> Bool {
        if hostEmulated { return true }
        guard let header = request.headers["host"], !header.isEmpty else { return true }
        let utf8 = header.utf8
        // The parser accepts only IPv6 or IPvFuture literals in brackets, never a name.
        if utf8.first == UInt8(ascii: "[") { return true }
        // An address, as SDKs, phones and benchmarks send it, is answered without copying the name out.
        if Self.endsInNumber(utf8[..<(utf8.firstIndex(of: UInt8(ascii: ":")) ?? utf8.endIndex)]) { return true }
        guard var name = request.hostName else { return false }
        if name.utf8.count > 1, name.utf8.last == UInt8(ascii: ".") { name.removeLast() }
        return admits(name: name)
    }

    /// Whether `name` (lower-cased, without port or trailing dot) is allowed.
    func admits(name: String) -> Bool {
        if Self.endsInNumber(name.utf8) || name == "localhost" || name.hasSuffix(".localhost") || name == "host.docker.internal" { return true }
        if platforms.contains(where: { $0.pathPrefix(forHost: name) != nil }) { return true }
        if configured.contains(where: { $0.matches(name) }) { return true }
        let addresses = addresses()
        if let publicURL = addresses.publicURL, publicURL.authority.host == name { return true }
        return addresses.listenHost.lowercased() == name
    }

    /// Whether a browser would take `name` for an IPv4 address: its last label is a number
    /// (decimal, or hex after `0x`). The URL standard parses such a host as an address, and refuses
    /// it when it is not a valid one, so no page can be served from a DNS name of that shape.
    static func endsInNumber<Name: BidirectionalCollection<UInt8>>(_ utf8: Name) -> Bool {
        let last = utf8.lastIndex(of: UInt8(ascii: ".")).map { utf8[utf8.index(after: $0)...] } ?? utf8[...]
        guard !last.isEmpty else { return false }
        if last.allSatisfy({ $0 >= 48 && $0 <= 57 }) { return true }
        guard last.count >= 2, last.first == UInt8(ascii: "0"), last.dropFirst().first == UInt8(ascii: "x") || last.dropFirst().first == UInt8(ascii: "X") else {
            return false
        }
        return last.dropFirst(2).allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 | 0x20 >= 97 && $0 | 0x20 <= 102) }
    }

    /// What a refused request is told: which name was refused, why, and the flag that allows it.
    static func refusalMessage(host: String) -> String {
        let name = Authority(host)?.host ?? host
        return "Understudy does not answer to the host name `\(host)`: unknown names in Host are how a DNS-rebinding web page "
            + "reaches a server on this machine. If you reach Understudy under this name on purpose (a .local name, a tunnel such "
            + "as ngrok, a container's service name), start it with --allowed-host \(name) (or add it to allowedHosts in the "
            + "configuration file, or to UNDERSTUDY_ALLOWED_HOSTS)."
    }
}
