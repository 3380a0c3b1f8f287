import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A typed async client for an Understudy server: the control plane (`admin`) and one namespace
/// per emulated platform (`warpLink`, `asleep`, `warrantyLife`, `telematics`).
public struct Understudy: Sendable {
    /// The server's root URL, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// The control-plane token, when the server requires one.
    public let adminToken: String?
    let http: ClientHTTP

    /// A client for the server at `baseURL`.
    public init(baseURL: URL, adminToken: String? = nil, timeout: TimeInterval = 30) {
        self.baseURL = baseURL
        self.adminToken = adminToken
        self.http = ClientHTTP(baseURL: baseURL, timeout: timeout)
    }

    /// The control plane: projects, clocks, faults, journal, snapshots, outbox.
    public var admin: AdminClient { AdminClient(http: http, adminToken: adminToken) }

    /// Sends any request to the server (for calls the typed namespaces do not cover).
    public func send(_ request: ClientRequest) async throws(UnderstudyClientError) -> ClientResponse {
        try await http.send(request)
    }
}

/// A request as the client sends it.
public struct ClientRequest: Sendable {
    /// Method, e.g. `GET`.
    public var method: String
    /// Path below the base URL, starting with `/`.
    public var path: String
    /// Query items, in order (encoded by the client).
    public var query: [(String, String)]
    /// Headers.
    public var headers: [String: String]
    /// The body to send, as is (set `Content-Type` in `headers`).
    public var body: Data?
    /// Whether redirects are followed (default no, so a 302 is visible).
    public var followRedirects: Bool
    /// Per-request timeout in seconds, overriding the client's.
    public var timeout: TimeInterval?

    /// Creates a request.
    public init(method: String, path: String, query: [(String, String)] = [], headers: [String: String] = [:], body: Data? = nil,
                followRedirects: Bool = false, timeout: TimeInterval? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.followRedirects = followRedirects
        self.timeout = timeout
    }

    /// A request with a JSON body encoded from `value`.
    public static func json<T: Encodable>(_ method: String, _ path: String, _ value: T, headers: [String: String] = [:]) throws(UnderstudyClientError) -> ClientRequest {
        var all = headers
        all["Content-Type"] = "application/json"
        do {
            return ClientRequest(method: method, path: path, headers: all, body: try JSONEncoder().encode(value))
        } catch {
            throw .encoding(String(describing: error))
        }
    }
}

/// A response as the client received it.
public struct ClientResponse: Sendable {
    /// The HTTP status.
    public let status: Int
    /// Headers, names lower-cased.
    public let headers: [String: String]
    /// The body as received (decompressed by URLSession when it was gzip).
    public let body: Data

    /// Creates a response.
    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as `T`.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws(UnderstudyClientError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: body)
        } catch {
            throw .decoding(type: String(describing: T.self), status: status, body: text, reason: String(describing: error))
        }
    }

    /// The body as loosely typed JSON.
    public func json() throws(UnderstudyClientError) -> AnyJSON { try decode(AnyJSON.self) }

    /// The body decoded as `T` if the status is `expected`, else an `unexpectedStatus` error.
    public func expect<T: Decodable>(_ expected: Int, as type: T.Type = T.self) throws(UnderstudyClientError) -> T {
        guard status == expected else { throw .unexpectedStatus(status, body: text) }
        return try decode(T.self)
    }

    /// Throws `unexpectedStatus` unless the status is `expected`.
    public func expect(_ expected: Int) throws(UnderstudyClientError) {
        guard status == expected else { throw .unexpectedStatus(status, body: text) }
    }
}

/// What can go wrong talking to Understudy.
public enum UnderstudyClientError: Error, Equatable, CustomStringConvertible {
    /// The request never got a complete response (refused, reset, timed out, cut short).
    case transport(code: Int, message: String)
    /// The server answered with a status the call does not expect.
    case unexpectedStatus(Int, body: String)
    /// The body did not decode as the expected type.
    case decoding(type: String, status: Int, body: String, reason: String)
    /// A request body could not be encoded.
    case encoding(String)

    /// Whether the failure was a timeout.
    public var isTimeout: Bool {
        if case .transport(let code, _) = self { return code == URLError.timedOut.rawValue }
        return false
    }

    /// A sentence for test failures.
    public var description: String {
        switch self {
        case .transport(let code, let message): return "transport error \(code): \(message)"
        case .unexpectedStatus(let status, let body): return "unexpected status \(status): \(body.prefix(500))"
        case .decoding(let type, let status, let body, let reason): return "cannot decode \(type) from \(status) response \(body.prefix(300)): \(reason)"
        case .encoding(let reason): return "cannot encode request: \(reason)"
        }
    }
}

/// The URLSession plumbing shared by all namespaces.
final class ClientHTTP: NSObject, Sendable, URLSessionTaskDelegate {
    let baseURL: URL
    let timeout: TimeInterval
    // URLSession is thread-safe; one per client keeps connections alive across calls.
    nonisolated(unsafe) private var sessionStorage: URLSession!

    init(baseURL: URL, timeout: TimeInterval) {
        self.baseURL = baseURL
        self.timeout = timeout
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 16
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionStorage = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    deinit { sessionStorage.finishTasksAndInvalidate() }

    func send(_ request: ClientRequest) async throws(UnderstudyClientError) -> ClientResponse {
        var components = URLComponents(url: baseURL.appendingPathComponent(""), resolvingAgainstBaseURL: false)!
        let basePath = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = basePath + request.path
        if !request.query.isEmpty {
            components.percentEncodedQuery = request.query.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        }
        guard let url = components.url else { throw .encoding("bad path \(request.path)") }
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = request.method
        urlRequest.timeoutInterval = request.timeout ?? timeout
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        if request.followRedirects { urlRequest.setValue("1", forHTTPHeaderField: "X-Understudy-Client-Follow") }
        do {
            let (data, response) = try await sessionStorage.data(for: urlRequest)
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

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let follow = task.originalRequest?.value(forHTTPHeaderField: "X-Understudy-Client-Follow") == "1"
        completionHandler(follow ? request : nil)
    }

    static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
