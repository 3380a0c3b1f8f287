import Foundation

extension AdminClient {
    /// The journal across every project and the requests with none (what the proxy answered
    /// itself), newest first. With `waitMs` (and `query.since`) it is a long poll like a project's listing.
    public func requests(_ query: JournalQuery = JournalQuery(), waitMs: Int? = nil) async throws(UnderstudyClientError) -> JournalPage {
        try await journalPage(path: "/__admin/requests", query: query, waitMs: waitMs)
    }

    /// The requests meant for an emulated service that matched no project (a missing or unknown
    /// key, a path no platform serves, a host nobody emulates), newest first, each with
    /// `unmatched.reason`: `requests(_:waitMs:)` with `query.unmatched` set to true.
    public func unmatchedRequests(_ query: JournalQuery = JournalQuery(), waitMs: Int? = nil) async throws(UnderstudyClientError) -> JournalPage {
        var query = query
        query.unmatched = true
        return try await requests(query, waitMs: waitMs)
    }

    /// The local CA's certificate (PEM), which devices trust to reach Understudy over TLS.
    public func caCertificate() async throws(UnderstudyClientError) -> Data {
        let response = try await raw(ClientRequest(method: "GET", path: "/__admin/ca.pem"))
        try response.expect(200)
        return response.body
    }

    /// Adds a global fault rule given as JSON, so the server checks every member strictly.
    public func addGlobalFault(json rule: AnyJSON) async throws(UnderstudyClientError) -> FaultRule {
        try await raw(.json("POST", "/__admin/faults", rule)).expect(201)
    }

    /// Removes one global fault rule.
    public func removeGlobalFault(_ ruleID: String) async throws(UnderstudyClientError) {
        try await raw(ClientRequest(method: "DELETE", path: "/__admin/faults/\(ClientHTTP.encode(ruleID))")).expect(204)
    }

    func journalPage(path: String, query: JournalQuery, waitMs: Int?) async throws(UnderstudyClientError) -> JournalPage {
        var request = ClientRequest(method: "GET", path: path, query: query.listingItems(waitMs: waitMs))
        // A long poll holds the request open for up to `waitMs`; the client's own timeout must outlast it.
        if let waitMs { request.timeout = Double(waitMs) / 1000 + 10 }
        return try await raw(request).expect(200)
    }
}
