import Foundation

extension Understudy {
    /// WarpLink: the three SDK calls, the short-link tap, and the platform's control plane.
    public var warpLink: WarpLinkClient { WarpLinkClient(http: http, admin: admin, basePath: "/warplink/v1", host: nil) }
}

/// WarpLink as its SDKs call it (`validate`, `resolve`, `matchAttribution`), a browser tapping a
/// short link (`tap`), and the control plane of one project (`project(_:)`).
public struct WarpLinkClient: Sendable {
    let http: ClientHTTP
    let admin: AdminClient
    /// The path the SDK calls are appended to (`/warplink/v1` or `/warplink`; empty with `Host: api.warplink.app`).
    public let basePath: String
    /// A `Host` header to send on the SDK calls, e.g. `api.warplink.app`.
    public let host: String?

    /// The same client with another base path or `Host` (the SDKs append paths to `apiEndpoint` verbatim).
    public func using(basePath: String, host: String? = nil) -> WarpLinkClient {
        WarpLinkClient(http: http, admin: admin, basePath: basePath, host: host)
    }

    /// `GET /sdk/validate`, as `configure()` sends it.
    public func validate(apiKey: String?, userAgent: String = "WarpLink-Android/1.1.0") async throws(UnderstudyClientError) -> WarpLinkResponse<WarpLinkValidation> {
        try await call(ClientRequest(method: "GET", path: basePath + "/sdk/validate", headers: headers(apiKey, userAgent: userAgent, tapID: nil)))
    }

    /// `GET /links/resolve/{slug}?domain=&params=`. `tappedQuery` is the tapped URL's raw query
    /// (still percent-encoded); it is encoded once more for transport, as the SDKs do.
    public func resolve(
        slug: String, domain: String? = "aplnk.to", tappedQuery: String? = nil, apiKey: String?, tapID: String? = nil,
        userAgent: String = "WarpLink-Android/1.1.0"
    ) async throws(UnderstudyClientError) -> WarpLinkResponse<WarpLinkLink> {
        var query: [(String, String)] = []
        if let domain { query.append(("domain", domain)) }
        if let tappedQuery, !tappedQuery.isEmpty { query.append(("params", tappedQuery)) }
        let encodedSlug = ClientHTTP.encode(slug)
        return try await call(
            ClientRequest(
                method: "GET", path: basePath + "/links/resolve/" + encodedSlug, query: query,
                headers: headers(apiKey, userAgent: userAgent, tapID: tapID)))
    }

    /// `POST /attribution/match`, the deferred deep link check.
    public func matchAttribution(
        _ body: WarpLinkAttributionRequest, apiKey: String?, tapID: String? = nil,
        userAgent: String = "WarpLink-Android/1.1.0"
    ) async throws(UnderstudyClientError) -> WarpLinkResponse<WarpLinkAttributionMatch> {
        var request = try ClientRequest.json("POST", basePath + "/attribution/match", body, headers: headers(apiKey, userAgent: userAgent, tapID: tapID))
        request.headers["Content-Type"] = "application/json"
        return try await call(request)
    }

    /// Sends any body to `/attribution/match` (for bad-input tests).
    public func matchAttribution(rawBody: Data, apiKey: String?, contentType: String = "application/json") async throws(UnderstudyClientError) -> WarpLinkResponse<
        WarpLinkAttributionMatch
    > {
        var all = headers(apiKey, userAgent: "WarpLink-Android/1.1.0", tapID: nil)
        all["Content-Type"] = contentType
        return try await call(ClientRequest(method: "POST", path: basePath + "/attribution/match", headers: all, body: rawBody))
    }

    /// A browser opening a short link. With `host` (`aplnk.to`, `<handle>.aplnk.to`, a custom
    /// domain) the request is `GET /{slug}` with that `Host`; without, `GET /warplink/r/{slug}?domain=`.
    /// `timeZone` is sent as `tz`; `query` holds the tapped link's own parameters.
    public func tap(
        slug: String, host: String? = nil, domain: String? = nil, query: [(String, String)] = [], acceptLanguage: String? = "en-US,en;q=0.9",
        timeZone: String? = nil, userAgent: String = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)"
    ) async throws(UnderstudyClientError) -> WarpLinkTap {
        var items = query
        if host == nil, let domain { items.append(("domain", domain)) }
        if let timeZone { items.append(("tz", timeZone)) }
        var headers = ["User-Agent": userAgent]
        if let acceptLanguage { headers["Accept-Language"] = acceptLanguage }
        if let host { headers["Host"] = host }
        let path = (host == nil ? "/warplink/r/" : "/") + ClientHTTP.encode(slug)
        let response = try await http.send(ClientRequest(method: "GET", path: path, query: items, headers: headers))
        return WarpLinkTap(
            status: response.status, location: response.headers["location"],
            error: response.status == 302 ? nil : WarpLinkAPIError.from(response))
    }

    /// The WarpLink control plane of one project.
    public func project(_ id: String) -> WarpLinkProjectAdmin { WarpLinkProjectAdmin(admin: admin, base: "/__admin/projects/\(id)/warplink") }

    private func headers(_ apiKey: String?, userAgent: String, tapID: String?) -> [String: String] {
        var headers = ["User-Agent": userAgent]
        if let apiKey { headers["Authorization"] = "Bearer " + apiKey }
        if let tapID { headers["X-WarpLink-Tap-Id"] = tapID }
        if let host { headers["Host"] = host }
        return headers
    }

    private func call<T: Decodable & Sendable>(_ request: ClientRequest) async throws(UnderstudyClientError) -> WarpLinkResponse<T> {
        let response = try await http.send(request)
        if response.status == 200 {
            return WarpLinkResponse(status: 200, value: try response.decode(T.self), error: nil, raw: response)
        }
        return WarpLinkResponse(status: response.status, value: nil, error: WarpLinkAPIError.from(response), raw: response)
    }
}
