import Foundation

/// A webhook target's origin (`scheme://host[:port]`), in the one form allowed origins and
/// callback URLs are compared in: lower case, the scheme's default port left out, no trailing slash.
enum WebhookOrigin {
    /// What an entry of `webhookAllowedOrigins` looks like: a callback URL's scheme, host and port,
    /// an optional trailing slash, nothing more. The OpenAPI document states the same pattern.
    static let pattern = #"^[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?/?$"#

    /// `text` as an origin, or nil when it is not one (a path, a query, user info, a bad port).
    static func normalized(_ text: String) -> String? {
        guard text.range(of: pattern, options: .regularExpression) != nil, let url = URL(string: text) else { return nil }
        return of(url)
    }

    /// The origin of an absolute http(s) URL; nil for anything else.
    static func of(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host?.lowercased(), !host.isEmpty
        else { return nil }
        let defaultPort = scheme == "https" ? 443 : 80
        guard let port = url.port else { return "\(scheme)://\(host)" }
        guard (1...65535).contains(port) else { return nil }
        return port == defaultPort ? "\(scheme)://\(host)" : "\(scheme)://\(host):\(port)"
    }
}
