import Foundation
import HTTPServer

/// Pipeline stage 0, for what only a proxy is asked: `CONNECT`, and absolute-form requests on the
/// proxy port for hosts no platform emulates. Everything else (requests for emulated hosts, and
/// origin-form requests on the proxy port) goes down the ordinary pipeline.
///
/// For an emulated host a `CONNECT` is intercepted (port 443: TLS with a certificate minted for
/// the name; port 80: plain HTTP), so the requests inside are served as direct requests to that
/// host; so is a tunnel or request to Understudy's own HTTP or HTTPS port (a phone whose base URL
/// is the machine's address sends those through its proxy too), served here instead of dialled.
/// Other hosts follow the proxy mode: passed through to the real destination — public addresses
/// only unless private targets are allowed, and beyond loopback only with the proxy password —
/// or refused. With a password set, every proxy request must carry it.

struct ProxyStage: Sendable {
    /// A proxy answer and what the journal should say about it.
    struct Answer: Sendable {
        var response: Response
        /// The path the journal shows: the `host:port` of a CONNECT, the path of a forwarded request.
        var journalPath: String
        /// Why the request matched no project, for the journal: a host nobody emulates, a missing
        /// proxy password. Nil for the tunnels the proxy opens to emulated hosts and to this
        /// server, whose requests are journalled on their own, and for malformed proxy requests.
        var unmatched: UnmatchedRequest? = nil
    }

    let platforms: [any Platform]
    let settings: ProxySettings
    let connector: UpstreamConnector
    let logger: Logger
    /// Whether the server listens beyond loopback (then passthrough needs the password).
    let listensBeyondLoopback: Bool
    /// The server's bound ports and public URL, read per request (they are known only once bound).
    let addresses: @Sendable () -> ServerAddresses

    /// Whether some platform serves `host` (lower-cased, IPv6 without brackets).
    func emulates(host: String) -> Bool {
        platforms.contains { $0.pathPrefix(forHost: host) != nil }
    }

    /// Whether `request` was made to the proxy as a proxy: a CONNECT or an absolute-form request
    /// on the proxy port, outside any tunnel (requests inside one were let in with its CONNECT).
    private func isProxyRequest(_ request: Request) -> Bool {
        request.connection.listener == .proxy && request.connection.tunnelAuthority == nil
            && (request.method == .connect || request.absoluteFormScheme != nil)
    }

    /// Whether the proxy password is set and `request`, a proxy request, lacks it.
    private func lacksPassword(_ request: Request) -> Bool {
        guard let password = settings.password else { return false }
        return isProxyRequest(request) && !ProxyPassword(secret: password).admits(request)
    }

    /// Whether this stage answers `request` (the rest of the pipeline, the dashboard included, must not).
    func claims(_ request: Request) -> Bool {
        if request.method == .connect || lacksPassword(request) { return true }
        guard request.connection.listener == .proxy, request.connection.tunnelAuthority == nil,
            let scheme = request.absoluteFormScheme, let host = request.hostName, !emulates(host: host)
        else { return false }
        let authority = ProxyAuthority(urlAuthority: request.headers["host"] ?? "", defaultPort: scheme == "https" ? 443 : 80)
        return authority.map { ownListener(literally: $0) == nil } ?? true
    }

    /// The proxy's answer, or nil when the ordinary pipeline serves the request.
    func answer(_ request: Request) async -> Answer? {
        guard claims(request) else { return nil }
        if lacksPassword(request) {
            let path = request.method == .connect ? request.target : request.path
            let host = request.method == .connect ? request.connectAuthority?.host : request.hostName
            return Answer(response: ProxyPassword.challenge(), journalPath: path, unmatched: UnmatchedRequest(reason: .proxyUnauthorized, host: host))
        }
        if request.method == .connect { return await answerConnect(request) }
        return await forward(request)
    }

    /// What outbound connections may reach: public addresses unless private ones are allowed, and
    /// never this server's own ports.
    private var policy: DestinationPolicy {
        let addresses = addresses()
        let own = [addresses.httpPort, addresses.httpsPort, addresses.proxyPort].compactMap { $0 }.filter { $0 > 0 }
        return DestinationPolicy(allowsPrivate: settings.allowsPrivateTargets, ownPorts: Set(own))
    }

    /// Which of this server's listeners `authority` names, judged without a lookup: a loopback,
    /// unspecified or interface address literal (any spelling), `localhost`, or the public URL's
    /// host, on a bound port. Names that need resolving are judged by the connector instead.
    func ownListener(literally authority: ProxyAuthority) -> ConnectionInfo.Listener? {
        let addresses = addresses()
        guard let listener = Self.listener(on: authority.port, addresses) else { return nil }
        let host = authority.host
        if host == "localhost" || host.hasSuffix(".localhost") { return listener }
        if let publicHost = addresses.publicURL?.authority.host, publicHost.lowercased() == host { return listener }
        guard let literal = NetworkAddress(literal: host) else { return nil }
        return literal.isThisMachine(interfaces: NetworkAddress.localInterfaces()) ? listener : nil
    }

    private static func listener(on port: Int, _ addresses: ServerAddresses) -> ConnectionInfo.Listener? {
        if port == addresses.httpPort { return .http }
        if port == addresses.httpsPort { return .https }
        if port == addresses.proxyPort { return .proxy }
        return nil
    }

    // MARK: - CONNECT

    private func answerConnect(_ request: Request) async -> Answer {
        let path = request.target
        guard request.connection.listener == .proxy else {
            var response = Response.text("CONNECT is answered on Understudy's proxy port only.\n", status: 405)
            response.headers.set("Allow", "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS")
            return Answer(response: response, journalPath: path)
        }
        guard request.connection.tunnelAuthority == nil else {
            return Answer(
                response: .text("CONNECT inside a tunnel to \(request.connection.tunnelAuthority ?? "") is not supported.\n", status: 400),
                journalPath: path)
        }
        // The parser accepts CONNECT only with a valid `host:port`.
        guard let authority = request.connectAuthority else {
            return Answer(response: .text("CONNECT needs a host:port target.\n", status: 400), journalPath: path)
        }
        if emulates(host: authority.host) {
            switch authority.port {
            case 443: return Answer(response: tunnelEstablished(.intercept(tls: true, authority: authority)), journalPath: path)
            case 80: return Answer(response: tunnelEstablished(.intercept(tls: false, authority: authority)), journalPath: path)
            default:
                return Answer(
                    response: .text(
                        """
                        Understudy emulates \(authority.hostForURL) on ports 443 (HTTPS) and 80 (HTTP) only; \
                        CONNECT \(authority) asks for port \(authority.port).\n
                        """, status: 400), journalPath: path)
            }
        }
        if let listener = ownListener(literally: authority) { return Answer(response: ownTunnel(listener, authority), journalPath: path) }
        let notEmulated = UnmatchedRequest(reason: .hostNotEmulated, host: authority.host)
        if let refusal = passthroughRefusal(authority) { return Answer(response: refusal, journalPath: path, unmatched: notEmulated) }
        do {
            let upstream = try await connector.connect(to: authority, policy: policy)
            return Answer(response: tunnelEstablished(.passthrough(upstream)), journalPath: path, unmatched: notEmulated)
        } catch .ownListener {
            // A name that resolved to this machine: served here like a literal address.
            let listener = Self.listener(on: authority.port, addresses()) ?? .proxy
            return Answer(response: ownTunnel(listener, authority), journalPath: path)
        } catch {
            return Answer(response: upstreamFailure(error, authority: authority), journalPath: path, unmatched: notEmulated)
        }
    }

    private func tunnelEstablished(_ plan: TunnelPlan) -> Response {
        Response(status: 200, delivery: .tunnel(plan))
    }

    /// A tunnel to one of this server's own listeners: served in process (the HTTPS port's with
    /// TLS, as an emulated host's 443), never dialled; the proxy port itself is refused, so nested
    /// CONNECTs cannot pile up connections.
    private func ownTunnel(_ listener: ConnectionInfo.Listener, _ authority: ProxyAuthority) -> Response {
        switch listener {
        case .http: return tunnelEstablished(.intercept(tls: false, authority: authority))
        case .https: return tunnelEstablished(.intercept(tls: true, authority: authority))
        case .proxy:
            return .text("Understudy's proxy refuses CONNECT \(authority): that is the proxy itself.\n", status: 403)
        }
    }

    // MARK: - Absolute-form requests for other hosts

    private func forward(_ request: Request) async -> Answer? {
        let path = request.path
        let hostHeader = request.headers["host"] ?? ""
        let defaultPort = request.absoluteFormScheme == "https" ? 443 : 80
        guard let authority = ProxyAuthority(urlAuthority: hostHeader, defaultPort: defaultPort) else {
            return Answer(response: .text("The request URL's host `\(hostHeader)` is not a valid host[:port].\n", status: 400), journalPath: path)
        }
        let notEmulated = UnmatchedRequest(reason: .hostNotEmulated, host: authority.host)
        if let refusal = passthroughRefusal(authority) { return Answer(response: refusal, journalPath: path, unmatched: notEmulated) }
        guard request.absoluteFormScheme == "http" else {
            return Answer(
                response: .text(
                    """
                    Understudy's proxy forwards plain http:// URLs only; for https://\(authority.hostForURL) send CONNECT \(authority).\n
                    """, status: 400), journalPath: path, unmatched: notEmulated)
        }
        do {
            let (upstream, head) = try await connector.forward(ForwardedRequest.bytes(for: request), to: authority, policy: policy)
            return Answer(
                response: Response(status: head.status, headers: head.headers, delivery: .tunnel(.relay(upstream))), journalPath: path,
                unmatched: notEmulated)
        } catch .ownListener {
            return nil // a name for this machine: the ordinary pipeline serves it, as it would a literal address
        } catch {
            return Answer(response: upstreamFailure(error, authority: authority), journalPath: path, unmatched: notEmulated)
        }
    }

    // MARK: - Refusals

    /// The 403 for a host nobody emulates when nothing may be passed through, or nil when it may.
    private func passthroughRefusal(_ authority: ProxyAuthority) -> Response? {
        if settings.refusesUnknownHosts {
            return .text(
                """
                Understudy's proxy refuses \(authority): no platform emulates \(authority.hostForURL), \
                and the proxy mode is `refuse` (start with --proxy-mode passthrough to reach real hosts).\n
                """, status: 403)
        }
        if settings.passthroughNeedsPassword(listensBeyondLoopback: listensBeyondLoopback) {
            return .text(
                """
                Understudy's proxy refuses \(authority): no platform emulates \(authority.hostForURL), and passthrough to other \
                hosts needs either a loopback-only listen address (--host 127.0.0.1) or a proxy password (--proxy-password) \
                while Understudy listens beyond loopback.\n
                """, status: 403)
        }
        return nil
    }

    private func upstreamFailure(_ error: UpstreamConnector.Failure, authority: ProxyAuthority) -> Response {
        logger.info("proxy could not reach upstream", [("upstream", authority.description), ("error", error.description)])
        switch error {
        case .tooManyTunnels:
            var response = Response.text("Understudy's proxy is busy: \(error.description); retry shortly.\n", status: 503)
            response.headers.setRetryAfter(1)
            return response
        case .privateAddress:
            return .text(
                """
                Understudy's proxy refuses \(authority): \(error.description). The proxy reaches only public addresses; \
                start with --proxy-allow-private to let it reach loopback and private networks.\n
                """, status: 403)
        case .ownListener:
            return .text("Understudy's proxy refuses \(authority): \(error.description).\n", status: 403)
        default:
            return .text("Understudy's proxy could not reach \(authority): \(error.description).\n", status: 502)
        }
    }
}

/// What the intercepting proxy does with hosts no platform emulates.
public struct ProxySettings: Sendable, Equatable {
    /// `--proxy-mode refuse`: answer 403 instead of connecting to the real destination.
    public var refusesUnknownHosts: Bool
    /// Seconds a connection to a real destination may take before the client gets 504.
    public var connectTimeout: Double
    /// `--proxy-allow-private`: passthrough may reach loopback, private, link-local and other
    /// non-public addresses (never this server's own ports).
    public var allowsPrivateTargets: Bool
    /// `--proxy-password`: required on every proxy request (`Proxy-Authorization: Basic`); nil for none.
    public var password: String?

    /// Creates settings; the default passes other hosts through with a 10-second connect timeout,
    /// to public addresses only, with no password.
    public init(refusesUnknownHosts: Bool = false, connectTimeout: Double = 10, allowsPrivateTargets: Bool = false, password: String? = nil) {
        self.refusesUnknownHosts = refusesUnknownHosts
        self.connectTimeout = connectTimeout
        self.allowsPrivateTargets = allowsPrivateTargets
        self.password = password
    }

    /// Whether passthrough is off for want of a password: listening beyond loopback without one,
    /// anyone on the network could use the machine as a way out, or into its loopback.
    public func passthroughNeedsPassword(listensBeyondLoopback: Bool) -> Bool { listensBeyondLoopback && password == nil }

    /// What the proxy does with hosts nobody emulates, for the start-up log.
    public func effectiveMode(listensBeyondLoopback: Bool) -> String {
        if refusesUnknownHosts { return "refuse" }
        if passthroughNeedsPassword(listensBeyondLoopback: listensBeyondLoopback) { return "refuse (passthrough needs --proxy-password beyond loopback)" }
        return allowsPrivateTargets ? "passthrough (private targets allowed)" : "passthrough (public addresses only)"
    }
}
