import EmulatorCore
import Foundation
import HTTPServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends one webhook, and decides where it may go.
///
/// While the server listens on loopback only, whoever sets a callback URL is on this machine, and
/// every URL is delivered as given (the developer's own backend on `127.0.0.1` is the point of
/// webhooks). Beyond loopback an SDK key holder anywhere on the network could aim Understudy, and
/// the project's `x-api-key`, at this machine's or its network's private services, so a target
/// whose address (after resolution) is loopback, private, link-local or otherwise not public is
/// sent to only when its origin is in the project's `webhookAllowedOrigins`; otherwise the attempt
/// is recorded as refused, with the reason. Where the URL came from (SDK or control plane) does
/// not matter: a session's URL set by an SDK may be fired later from the control plane.
///
/// Beyond loopback, `http://` targets are dialled through `UpstreamConnector`, which judges the
/// address it actually connects to (no second lookup that could answer differently), and no
/// target's redirect is followed. `https://` targets are resolved and judged first, then sent with
/// `URLSession`; a name that resolves elsewhere at connect time still meets certificate validation.
enum WebhookDelivery {
    /// What one attempt came to.
    struct Outcome: Sendable, Equatable {
        /// The response status, when one arrived.
        var status: Int?
        /// Why there was no response (or nil).
        var error: String?
        /// Why the attempt was not made at all: the target is not allowed (or nil).
        var refusal: String?
    }

    /// Seconds an attempt may take (connect and response head each).
    static let timeout = 5.0

    /// Dials `http://` targets beyond loopback; bounded like the proxy's, on threads of its own.
    static let connector = UpstreamConnector(connectTimeout: timeout, responseTimeout: timeout, maxUpstreams: 64)

    /// Sends `webhook`. `guarded`: the server listens beyond loopback; `allowed`: the project's
    /// allowed origins, normalized.
    static func send(_ webhook: WebhookRecord, guarded: Bool, allowed: Set<String>) async -> Outcome {
        guard let url = URL(string: webhook.url), let origin = WebhookOrigin.of(url), let host = url.host else {
            return Outcome(status: nil, error: "invalid URL")
        }
        guard guarded else { return await sendWithURLSession(webhook, url: url, followsRedirects: true) }
        let allowsPrivate = allowed.contains(origin)
        if url.scheme?.lowercased() == "http" { return await sendChecked(webhook, url: url, origin: origin, allowsPrivate: allowsPrivate) }
        if !allowsPrivate {
            let addresses = await resolve(host)
            guard !addresses.isEmpty else { return Outcome(status: nil, error: "cannot resolve \(host)") }
            if let address = addresses.first(where: { !$0.scope.isGlobal }) {
                return Outcome(refusal: refusal(origin, address: address.description, scope: address.scope))
            }
        }
        return await sendWithURLSession(webhook, url: url, followsRedirects: false)
    }

    /// The reason recorded for a refused attempt.
    static func refusal(_ origin: String, address: String, scope: AddressScope) -> String {
        """
        refused: \(origin) resolves to \(address), a \(scope.explanation) address. Understudy listens beyond \
        loopback, so webhooks reach such addresses only for origins listed in the project's Asleep setting \
        webhookAllowedOrigins (PATCH /__admin/projects/{id}/asleep/settings {"webhookAllowedOrigins": ["\(origin)"]})
        """
    }

    // MARK: - Through the checked connector (http, beyond loopback)

    private static func sendChecked(_ webhook: WebhookRecord, url: URL, origin: String, allowsPrivate: Bool) async -> Outcome {
        guard let host = url.host else { return Outcome(status: nil, error: "invalid URL") }
        let authority = ProxyAuthority(host: host, port: url.port ?? 80)
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var target = components?.percentEncodedPath ?? "/"
        if target.isEmpty { target = "/" }
        if let query = components?.percentEncodedQuery { target += "?" + query }
        let body = Array(webhook.body.utf8)
        var head = "POST \(target) HTTP/1.1\r\nHost: \(authority.port == 80 ? authority.hostForURL : authority.description)\r\n"
        for (name, value) in headers(webhook) { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        do {
            let (socket, response) = try await connector.forward(
                Array(head.utf8) + body, to: authority,
                policy: DestinationPolicy(allowsPrivate: allowsPrivate))
            _ = socket // dropped here, which closes it: only the status matters
            return Outcome(status: response.status, error: nil)
        } catch .privateAddress(_, _, let address, let scope) {
            return Outcome(refusal: refusal(origin, address: address, scope: scope))
        } catch {
            return Outcome(status: nil, error: error.description)
        }
    }

    /// The fields every attempt carries besides the framing; values that could break a header line are dropped.
    private static func headers(_ webhook: WebhookRecord) -> [(String, String)] {
        var fields: [(String, String)] = [("Content-Type", "application/json")]
        if let key = webhook.apiKey { fields.append(("x-api-key", key)) }
        fields.append(("x-user-id", webhook.userID))
        fields.append(("User-Agent", "Understudy-Asleep-Webhook/1.0"))
        return fields.filter { !$0.1.contains(where: { $0 == "\r" || $0 == "\n" }) }
    }

    /// `host`'s addresses, looked up on a thread of its own (`getaddrinfo` blocks).
    private static func resolve(_ host: String) async -> [NetworkAddress] {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: NetworkAddress.resolve(host)) }
            thread.name = "understudy.webhook.resolve"
            thread.stackSize = 256 * 1024
            thread.start()
        }
    }

    // MARK: - URLSession

    /// Answers every redirect with "no": the 3xx itself is the attempt's status.
    private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable { // no state
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }
    }

    private static func sendWithURLSession(_ webhook: WebhookRecord, url: URL, followsRedirects: Bool) async -> Outcome {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.timeoutInterval = timeout
        request.httpBody = Data(webhook.body.utf8)
        for (name, value) in headers(webhook) { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session =
            followsRedirects
            ? URLSession(configuration: configuration)
            : URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return await withCheckedContinuation { continuation in
            session.dataTask(with: request) { _, response, error in
                if let http = response as? HTTPURLResponse {
                    continuation.resume(returning: Outcome(status: http.statusCode, error: nil))
                } else {
                    continuation.resume(returning: Outcome(status: nil, error: error.map { String(describing: $0) } ?? "no response"))
                }
            }.resume()
        }
    }
}

extension WebhookDelivery.Outcome {
    /// A refused attempt: nothing was sent.
    init(refusal: String) { self.init(status: nil, error: nil, refusal: refusal) }
}
