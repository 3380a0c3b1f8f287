import Foundation

/// How a client's requests reach its server: over HTTP (the default), or handed to the server in
/// the same process without a socket, as a test server's router mode does (in the spirit of
/// HummingbirdTesting's `.router` and `.live`).
public struct UnderstudyTransport: Sendable {
    /// Answers one request in process. `target` is its path and query as they would go on the
    /// wire (from the server's root, percent-encoded); `request` gives the method, headers and body.
    public typealias Handler = @Sendable (_ target: String, _ request: ClientRequest) async throws(UnderstudyClientError) -> ClientResponse

    /// The in-process handler; nil for HTTP.
    let handler: Handler?

    /// Over HTTP, with URLSession.
    public static let http = UnderstudyTransport(handler: nil)

    /// Handed to `handler` in this process. Requests that follow redirects still go over HTTP,
    /// since a redirect may lead off the server.
    public static func inProcess(_ handler: @escaping Handler) -> UnderstudyTransport { UnderstudyTransport(handler: handler) }
}
