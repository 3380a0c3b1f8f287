import HTTPServer

/// Whether a request comes from a web page of another origin, by what browsers say about every
/// page's request: `Sec-Fetch-Site` (sent to loopback and HTTPS) and `Origin` (sent on every
/// cross-origin `POST`, `PUT`, `PATCH` and `DELETE`, forms included). Curl, the CLI and the client
/// library send neither, so they always pass; so does the dashboard, whose page has the origin its
/// requests go to.
enum ForeignOrigin {
    /// Why `request` counts as another origin's (the header that says so), or nil when it does not.
    /// The request's own origin is `scheme://Host` on the scheme of the connection it came on;
    /// the public URL's origin also counts as its own (a TLS-terminating tunnel in front).
    static func reason(_ request: Request, publicURL: PublicURL?) -> String? {
        if let site = request.headers["sec-fetch-site"] {
            // `same-site` too: a page on another port of the same host is same-site.
            let value = site.lowercased()
            if value != "same-origin" && value != "none" { return "Sec-Fetch-Site: \(site)" }
        }
        guard let origin = request.headers["origin"] else { return nil }
        guard let page = Endpoint(origin: origin) else { return "Origin: \(origin)" }
        let scheme = request.connection.isSecure ? "https" : "http"
        if let host = request.headers["host"], let own = Endpoint(scheme: scheme, authority: host), own == page { return nil }
        if let publicURL, Endpoint(scheme: publicURL.scheme, authority: publicURL.authority.text) == page { return nil }
        return "Origin: \(origin)"
    }

    /// An origin reduced to what identifies it: scheme, host and port (the scheme's default when absent).
    struct Endpoint: Equatable {
        let scheme: String
        let host: String
        let port: Int

        /// Parses `scheme://host[:port]`; nil for anything else (`null`, a path, another scheme).
        init?(origin: String) {
            let lower = origin.lowercased()
            guard let separator = lower.range(of: "://") else { return nil }
            self.init(scheme: String(lower[..<separator.lowerBound]), authority: String(lower[separator.upperBound...]))
        }

        /// `authority` (`host[:port]`) reached over `scheme` (`http` or `https`).
        init?(scheme: String, authority: String) {
            guard scheme == "http" || scheme == "https", let parsed = Authority(authority) else { return nil }
            self.scheme = scheme
            host = parsed.host
            port = parsed.port ?? (scheme == "https" ? 443 : 80)
        }
    }
}
