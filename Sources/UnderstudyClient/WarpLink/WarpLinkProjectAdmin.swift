import Foundation

/// `/__admin/projects/{id}/warplink/...`: seed and inspect one project's WarpLink state.
public struct WarpLinkProjectAdmin: Sendable {
    let admin: AdminClient
    let base: String

    private func send(_ method: String, _ path: String, _ body: (some Encodable)?, query: [(String, String)] = []) async throws(UnderstudyClientError) -> ClientResponse {
        var request = ClientRequest(method: method, path: base + path, query: query)
        if let body {
            request = try .json(method, base + path, body)
            request.query = query
        }
        return try await admin.raw(request)
    }

    private func send(_ method: String, _ path: String, query: [(String, String)] = []) async throws(UnderstudyClientError) -> ClientResponse {
        try await send(method, path, Optional<AnyJSON>.none, query: query)
    }

    // MARK: Settings

    /// The matching settings.
    public func settings() async throws(UnderstudyClientError) -> WarpLinkSettings { try await send("GET", "/settings").expect(200) }

    /// Changes the settings given (nil members unchanged).
    public func updateSettings(_ changes: WarpLinkSettings) async throws(UnderstudyClientError) -> WarpLinkSettings {
        try await send("PUT", "/settings", changes).expect(200)
    }

    /// Changes settings from raw JSON (e.g. `["client_ip": .null]` to clear the override).
    public func updateSettings(json: AnyJSON) async throws(UnderstudyClientError) -> WarpLinkSettings {
        try await send("PUT", "/settings", json).expect(200)
    }

    // MARK: Apps

    /// Creates an app (`handle` gives it `<handle>.aplnk.to`).
    public func createApp(
        name: String, handle: String? = nil, iosBundleID: String? = nil, androidPackageName: String? = nil,
        id: String? = nil
    ) async throws(UnderstudyClientError) -> WarpLinkApp {
        struct Body: Encodable {
            var id, handle, iosBundleID, androidPackageName: String?
            var name: String
            enum CodingKeys: String, CodingKey { case id, handle, name, iosBundleID = "ios_bundle_id", androidPackageName = "android_package_name" }
        }
        return try await send("POST", "/apps", Body(id: id, handle: handle, iosBundleID: iosBundleID, androidPackageName: androidPackageName, name: name)).expect(201)
    }

    /// The project's apps.
    public func apps() async throws(UnderstudyClientError) -> [WarpLinkApp] {
        struct List: Decodable { var apps: [WarpLinkApp] }
        return try await send("GET", "/apps").expect(200, as: List.self).apps
    }

    /// Deletes an app.
    public func deleteApp(_ id: String) async throws(UnderstudyClientError) { try await send("DELETE", "/apps/\(id)").expect(204) }

    // MARK: Keys

    /// Creates a key: `kind` `sdk` (fixed scopes, optional app binding) or `api` (chosen scopes).
    public func createKey(
        kind: String = "sdk", value: String? = nil, scopes: [String]? = nil, appID: String? = nil,
        name: String? = nil
    ) async throws(UnderstudyClientError) -> WarpLinkKey {
        struct Body: Encodable {
            var kind: String; var value: String?; var scopes: [String]?; var appID: String?; var name: String?
            enum CodingKeys: String, CodingKey { case kind, value, scopes, name, appID = "app_id" }
        }
        return try await send("POST", "/keys", Body(kind: kind, value: value, scopes: scopes, appID: appID, name: name)).expect(201)
    }

    /// The project's SDK and API keys, revoked ones included.
    public func keys() async throws(UnderstudyClientError) -> [WarpLinkKey] {
        struct List: Decodable { var keys: [WarpLinkKey] }
        return try await send("GET", "/keys").expect(200, as: List.self).keys
    }

    /// Revokes a key.
    public func revokeKey(_ value: String) async throws(UnderstudyClientError) -> WarpLinkKey { try await send("POST", "/keys/\(value)/revoke").expect(200) }

    /// Makes a revoked key active again.
    public func restoreKey(_ value: String) async throws(UnderstudyClientError) -> WarpLinkKey { try await send("POST", "/keys/\(value)/restore").expect(200) }

    /// Deletes a key.
    public func deleteKey(_ value: String) async throws(UnderstudyClientError) { try await send("DELETE", "/keys/\(value)").expect(204) }

    // MARK: Domains

    /// Adds a custom domain (`verified` unless `state` says `suspended`).
    public func addDomain(_ hostname: String, state: String? = nil, appID: String? = nil) async throws(UnderstudyClientError) -> WarpLinkDomain {
        struct Body: Encodable {
            var hostname: String; var state: String?; var appID: String?
            enum CodingKeys: String, CodingKey { case hostname, state, appID = "app_id" }
        }
        return try await send("POST", "/domains", Body(hostname: hostname, state: state, appID: appID)).expect(201)
    }

    /// Every custom domain.
    public func domains() async throws(UnderstudyClientError) -> [WarpLinkDomain] {
        struct List: Decodable { var domains: [WarpLinkDomain] }
        return try await send("GET", "/domains").expect(200, as: List.self).domains
    }

    /// Suspends a domain (its links answer 404 and it leaves `/sdk/validate`).
    public func suspendDomain(_ hostname: String) async throws(UnderstudyClientError) -> WarpLinkDomain {
        try await send("POST", "/domains/\(hostname)/suspend").expect(200)
    }

    /// Verifies (or un-suspends) a domain.
    public func verifyDomain(_ hostname: String) async throws(UnderstudyClientError) -> WarpLinkDomain {
        try await send("POST", "/domains/\(hostname)/verify").expect(200)
    }

    /// Removes a domain.
    public func deleteDomain(_ hostname: String) async throws(UnderstudyClientError) { try await send("DELETE", "/domains/\(hostname)").expect(204) }

    // MARK: Links

    /// Creates a link from a seed; nil members get the server's defaults.
    public func createLink(_ seed: WarpLinkLinkSeed) async throws(UnderstudyClientError) -> WarpLinkStoredLink {
        try await send("POST", "/links", seed).expect(201)
    }

    /// The project's links as stored.
    public func links() async throws(UnderstudyClientError) -> [WarpLinkStoredLink] {
        struct List: Decodable { var links: [WarpLinkStoredLink] }
        return try await send("GET", "/links").expect(200, as: List.self).links
    }

    /// One link as stored (the control plane's view, password flag included).
    public func link(_ id: String) async throws(UnderstudyClientError) -> WarpLinkStoredLink { try await send("GET", "/links/\(id)").expect(200) }

    /// Changes link fields (`null` clears `password`, `expires_at`, URLs, `match_window_hours`).
    public func updateLink(_ id: String, _ changes: AnyJSON) async throws(UnderstudyClientError) -> WarpLinkStoredLink {
        try await send("PATCH", "/links/\(id)", changes).expect(200)
    }

    /// Expires a link now (project clock).
    public func expireLink(_ id: String) async throws(UnderstudyClientError) -> WarpLinkStoredLink { try await send("POST", "/links/\(id)/expire").expect(200) }

    /// Deletes a link (installs attributed to it then match routeless).
    public func deleteLink(_ id: String) async throws(UnderstudyClientError) { try await send("DELETE", "/links/\(id)").expect(204) }

    // MARK: Clicks and installs

    /// Seeds a click.
    public func seedClick(_ seed: WarpLinkClickSeed) async throws(UnderstudyClientError) -> WarpLinkClick {
        try await send("POST", "/clicks", seed).expect(201)
    }

    /// Clicks, newest first.
    public func clicks(linkID: String? = nil, source: String? = nil, limit: Int? = nil) async throws(UnderstudyClientError) -> [WarpLinkClick] {
        struct List: Decodable { var clicks: [WarpLinkClick] }
        var query: [(String, String)] = []
        if let linkID { query.append(("link_id", linkID)) }
        if let source { query.append(("source", source)) }
        if let limit { query.append(("limit", String(limit))) }
        return try await send("GET", "/clicks", query: query).expect(200, as: List.self).clicks
    }

    /// Seeds an earlier install.
    public func seedInstall(_ seed: WarpLinkInstallSeed) async throws(UnderstudyClientError) -> WarpLinkInstall {
        try await send("POST", "/installs", seed).expect(201)
    }

    /// Install records, newest first.
    public func installs(limit: Int? = nil) async throws(UnderstudyClientError) -> [WarpLinkInstall] {
        struct List: Decodable { var installs: [WarpLinkInstall] }
        return try await send("GET", "/installs", query: limit.map { [("limit", String($0))] } ?? []).expect(200, as: List.self).installs
    }
}
