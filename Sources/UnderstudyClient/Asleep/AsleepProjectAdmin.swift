import Foundation

/// `/__admin/projects/{id}/asleep/...`: settings, keys, users, products, sessions, webhooks.
public struct AsleepProjectAdmin: Sendable {
    let project: ProjectAdmin

    private func send(_ method: String, _ path: String, _ json: AnyJSON? = nil, query: [(String, String)] = []) async throws(UnderstudyClientError) -> ClientResponse {
        try await project.platformRequest("asleep", method, path, json: json, query: query)
    }

    private func expect(_ response: ClientResponse, _ status: Int) throws(UnderstudyClientError) -> AnyJSON {
        try response.expect(status, as: AnyJSON.self)
    }

    /// The project's Asleep settings: server-wide defaults with the project's own changes applied.
    public func settings() async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("GET", "/settings"), 200) }

    /// Changes settings (`completionDelaySeconds`, `maxSessionSeconds`, `conflictMode`, `breathing`, …).
    @discardableResult
    public func updateSettings(_ patch: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("PATCH", "/settings", patch), 200) }

    /// API keys with their customers and plan flags.
    public func keys() async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("GET", "/keys"), 200) }

    /// Adds an API key (`apiKey`, `customer`, `state`, `productBilling`).
    @discardableResult
    public func addKey(_ body: AnyJSON = [:]) async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("POST", "/keys", body), 201) }

    /// Changes a key's `state` (`active`, `plan_expired`, `rate_limited`, `quota_exceeded`, `revoked`), `productBilling` or `customer`.
    @discardableResult
    public func updateKey(_ apiKey: String, _ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON {
        try expect(await send("PATCH", "/keys/\(ClientHTTP.encode(apiKey))", body), 200)
    }

    /// Adds an appId/appSecret pair.
    @discardableResult
    public func addApp(_ body: AnyJSON = [:]) async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("POST", "/apps", body), 201) }

    /// Expires tokens at once (`access`, `refresh` or `all`).
    @discardableResult
    public func expireTokens(kind: String = "all") async throws(UnderstudyClientError) -> AnyJSON {
        try expect(await send("POST", "/tokens/expire", ["kind": .string(kind)]), 200)
    }

    /// The project's Asleep users with their customers and metadata.
    public func users() async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("GET", "/users"), 200) }

    /// Seeds a user (`userId`, `apiKey` or `customer`, `metadata`).
    @discardableResult
    public func seedUser(_ body: AnyJSON = [:]) async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("POST", "/users", body), 201) }

    /// The products devices registered with `setup(apiKey:productInfo:)`, and seeded ones.
    public func products() async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("GET", "/products"), 200) }

    /// Seeds a registered product (`model`, `identifierType`, `identifierValue`, `apiKey` or `customer`, `productKey`).
    @discardableResult
    public func seedProduct(_ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("POST", "/products", body), 201) }

    /// Revokes a product credential.
    @discardableResult
    public func revokeProduct(_ productId: String) async throws(UnderstudyClientError) -> AnyJSON {
        try expect(await send("POST", "/products/\(ClientHTTP.encode(productId))/revoke"), 200)
    }

    /// Sessions, optionally of one user or state.
    public func sessions(userId: String? = nil, state: String? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        var query: [(String, String)] = []
        if let userId { query.append(("userId", userId)) }
        if let state { query.append(("state", state)) }
        return try expect(await send("GET", "/sessions", query: query), 200)
    }

    /// One session with its state, chunks, stages and webhook settings.
    public func session(_ id: String) async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("GET", "/sessions/\(ClientHTTP.encode(id))"), 200) }

    /// The session's received chunks by sequence number, with each one's size and SHA-256.
    public func chunks(sessionId: String) async throws(UnderstudyClientError) -> [AsleepChunk] {
        struct List: Decodable { var chunks: [AsleepChunk] }
        return try await send("GET", "/sessions/\(ClientHTTP.encode(sessionId))/chunks").expect(200, as: List.self).chunks
    }

    /// Seeds a session in any state (`userId`, `state`, `chunks`, `startTime`, stage arrays, …).
    @discardableResult
    public func seedSession(_ body: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON { try expect(await send("POST", "/sessions", body), 201) }

    /// Changes a session (`hold`, `callbackUrl`, stage arrays, `peculiarities`, `stat`, detections).
    @discardableResult
    public func updateSession(_ id: String, _ patch: AnyJSON) async throws(UnderstudyClientError) -> AnyJSON {
        try expect(await send("PATCH", "/sessions/\(ClientHTTP.encode(id))", patch), 200)
    }

    /// Closes an OPEN session server-side (as another device or the 24 h limit would).
    @discardableResult
    public func closeSession(_ id: String) async throws(UnderstudyClientError) -> AnyJSON {
        try expect(await send("POST", "/sessions/\(ClientHTTP.encode(id))/close"), 200)
    }

    /// Completes a session at once.
    @discardableResult
    public func completeSession(_ id: String) async throws(UnderstudyClientError) -> AnyJSON {
        try expect(await send("POST", "/sessions/\(ClientHTTP.encode(id))/complete"), 200)
    }

    /// Queues `INFERENCE_COMPLETE` or `SESSION_COMPLETE` for a session now.
    @discardableResult
    public func fireWebhook(_ sessionId: String, event: String, callbackUrl: String? = nil) async throws(UnderstudyClientError) -> AnyJSON {
        try expect(
            await send(
                "POST", "/sessions/\(ClientHTTP.encode(sessionId))/webhooks",
                AnyJSON.object(["event": .string(event), "callbackUrl": callbackUrl.map(AnyJSON.string) ?? .null]).asleepWithoutNulls), 202)
    }

    /// Webhook deliveries with their attempts and last status.
    public func webhooks(sessionId: String? = nil) async throws(UnderstudyClientError) -> [AnyJSON] {
        let page = try expect(await send("GET", "/webhooks", query: sessionId.map { [("sessionId", $0)] } ?? []), 200)
        return page["deliveries"]?.array ?? []
    }
}
