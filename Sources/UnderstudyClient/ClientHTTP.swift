import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URLSession plumbing shared by all namespaces.
final class ClientHTTP: Sendable {
    let baseURL: URL
    let timeout: TimeInterval
    // One session per client keeps connections alive across calls. Its delegate is a separate
    // object: a session holds its delegate strongly, so `self` as delegate would never be freed.
    private let session: URLSession
    /// Where requests go when not over HTTP (a test server's router mode).
    private let inProcess: UnderstudyTransport.Handler?

    init(baseURL: URL, timeout: TimeInterval, transport: UnderstudyTransport = .http) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.inProcess = transport.handler
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: RedirectPolicy(), delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    func send(_ request: ClientRequest) async throws(UnderstudyClientError) -> ClientResponse {
        guard var components = URLComponents(url: baseURL.appendingPathComponent(""), resolvingAgainstBaseURL: false) else {
            throw .encoding("bad base URL \(baseURL)")
        }
        let basePath = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = basePath + request.path
        if !request.query.isEmpty {
            components.percentEncodedQuery = request.query.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        }
        guard let url = components.url else { throw .encoding("bad path \(request.path)") }
        // A redirect to follow may leave this server, so only HTTP can follow it.
        if let inProcess, !request.followRedirects {
            return try await inProcess(components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? ""), request)
        }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout ?? timeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        if request.followRedirects { urlRequest.setValue("1", forHTTPHeaderField: "X-Understudy-Client-Follow") }
        do {
            let (data, response) = try await session.data(for: urlRequest)
            guard let http = response as? HTTPURLResponse else { throw UnderstudyClientError.transport(code: -1, message: "not an HTTP response") }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
            }
            return ClientResponse(status: http.statusCode, headers: headers, body: data)
        } catch let error as UnderstudyClientError {
            throw error
        } catch let error as URLError {
            throw .transport(code: error.errorCode, message: error.localizedDescription)
        } catch {
            throw .transport(code: -1, message: String(describing: error))
        }
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// Follows a redirect only when the request asked for it, so tests see a 302 and its `Location`.
private final class RedirectPolicy: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let follow = task.originalRequest?.value(forHTTPHeaderField: "X-Understudy-Client-Follow") == "1"
        completionHandler(follow ? request : nil)
    }
}
