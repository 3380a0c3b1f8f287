import Foundation

/// A typed async client for an Understudy server: the control plane (`admin`) and one namespace
/// per emulated platform (`warpLink`, `asleep`, `warrantyLife`, `telematics`).
public struct Understudy: Sendable {
    /// The server's root URL, e.g. `http://127.0.0.1:8080`.
    public let baseURL: URL
    /// The control-plane token, when the server requires one.
    public let adminToken: String?
    let http: ClientHTTP

    /// A client for the server at `baseURL`, reached over HTTP unless `transport` says otherwise.
    public init(baseURL: URL, adminToken: String? = nil, timeout: TimeInterval = 30, transport: UnderstudyTransport = .http) {
        self.baseURL = baseURL
        self.adminToken = adminToken
        self.http = ClientHTTP(baseURL: baseURL, timeout: timeout, transport: transport)
    }

    /// The control plane: projects, clocks, faults, journal, snapshots, outbox.
    public var admin: AdminClient { AdminClient(http: http, adminToken: adminToken) }

    /// Sends any request to the server (for calls the typed namespaces do not cover).
    public func send(_ request: ClientRequest) async throws(UnderstudyClientError) -> ClientResponse {
        try await http.send(request)
    }
}
