import Foundation
import HTTPServer

/// Pipeline stage 0, for what only a proxy is asked: `CONNECT`, and absolute-form requests on the
/// proxy port for hosts no platform emulates. Everything else (requests for emulated hosts, and
/// origin-form requests on the proxy port) goes down the ordinary pipeline.
///
/// For an emulated host a `CONNECT` is intercepted (port 443: TLS with a certificate minted for
/// the name; port 80: plain HTTP), so the requests inside are served as direct requests to that
/// host. Other hosts follow the proxy mode: passed through to the real destination, or refused.
struct ProxyStage: Sendable {
    /// A proxy answer and what the journal should say about it.
    struct Answer: Sendable {
        var response: Response
        /// The path the journal shows: the `host:port` of a CONNECT, the path of a forwarded request.
        var journalPath: String
    }

    let platforms: [any Platform]
    let settings: ProxySettings
    let connector: UpstreamConnector
    let logger: Logger

    /// Whether some platform serves `host` (lower-cased, IPv6 without brackets).
    func emulates(host: String) -> Bool {
        platforms.contains { $0.pathPrefix(forHost: host) != nil }
    }

    /// Whether this stage answers `request` (the rest of the pipeline, the dashboard included, must not).
    func claims(_ request: Request) -> Bool {
        if request.method == .connect { return true }
        guard request.connection.listener == .proxy, request.connection.tunnelAuthority == nil,
              request.absoluteFormScheme != nil, let host = request.hostName else { return false }
        return !emulates(host: host)
    }

    /// The proxy's answer, or nil when the ordinary pipeline serves the request.
    func answer(_ request: Request) async -> Answer? {
        guard claims(request) else { return nil }
        if request.method == .connect { return await answerConnect(request) }
        return await forward(request)
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
            return Answer(response: .text("CONNECT inside a tunnel to \(request.connection.tunnelAuthority ?? "") is not supported.\n", status: 400),
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
                return Answer(response: .text("""
                    Understudy emulates \(authority.hostForURL) on ports 443 (HTTPS) and 80 (HTTP) only; \
                    CONNECT \(authority) asks for port \(authority.port).\n
                    """, status: 400), journalPath: path)
            }
        }
        if settings.refusesUnknownHosts { return Answer(response: refusal(authority), journalPath: path) }
        do {
            let upstream = try await connector.connect(to: authority)
            return Answer(response: tunnelEstablished(.passthrough(upstream)), journalPath: path)
        } catch {
            return Answer(response: upstreamFailure(error, authority: authority), journalPath: path)
        }
    }

    private func tunnelEstablished(_ plan: TunnelPlan) -> Response {
        Response(status: 200, delivery: .tunnel(plan))
    }

    // MARK: - Absolute-form requests for other hosts

    private func forward(_ request: Request) async -> Answer {
        let path = request.path
        let hostHeader = request.headers["host"] ?? ""
        let defaultPort = request.absoluteFormScheme == "https" ? 443 : 80
        guard let authority = ProxyAuthority(urlAuthority: hostHeader, defaultPort: defaultPort) else {
            return Answer(response: .text("The request URL's host `\(hostHeader)` is not a valid host[:port].\n", status: 400), journalPath: path)
        }
        if settings.refusesUnknownHosts { return Answer(response: refusal(authority), journalPath: path) }
        guard request.absoluteFormScheme == "http" else {
            return Answer(response: .text("""
                Understudy's proxy forwards plain http:// URLs only; for https://\(authority.hostForURL) send CONNECT \(authority).\n
                """, status: 400), journalPath: path)
        }
        do {
            let (upstream, head) = try await connector.forward(ForwardedRequest.bytes(for: request), to: authority)
            return Answer(response: Response(status: head.status, headers: head.headers, delivery: .tunnel(.relay(upstream))), journalPath: path)
        } catch {
            return Answer(response: upstreamFailure(error, authority: authority), journalPath: path)
        }
    }

    // MARK: - Refusals

    private func refusal(_ authority: ProxyAuthority) -> Response {
        .text("""
            Understudy's proxy refuses \(authority): no platform emulates \(authority.hostForURL), \
            and the proxy mode is `refuse` (start with --proxy-mode passthrough to reach real hosts).\n
            """, status: 403)
    }

    private func upstreamFailure(_ error: UpstreamConnector.Failure, authority: ProxyAuthority) -> Response {
        logger.info("proxy could not reach upstream", [("upstream", authority.description), ("error", error.description)])
        switch error {
        case .tooManyTunnels:
            var response = Response.text("Understudy's proxy is busy: \(error.description); retry shortly.\n", status: 503)
            response.headers.set("Retry-After", "1")
            return response
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

    /// Creates settings; the default passes other hosts through with a 10-second connect timeout.
    public init(refusesUnknownHosts: Bool = false, connectTimeout: Double = 10) {
        self.refusesUnknownHosts = refusesUnknownHosts
        self.connectTimeout = connectTimeout
    }
}
