import Foundation

/// A project as the control plane returns it.
public struct Project: Sendable, Codable, Equatable {
    /// The project's id (`prj_…`, or `demo`), the `{id}` of every project route.
    public var id: String
    /// A label for people; names need not be unique.
    public var name: String
    /// The seed of its ids, when given.
    public var seed: Int64?
    /// When the project was created (ISO 8601).
    public var createdAt: String
    /// Whether it is the demo project.
    public var isDemo: Bool
    /// The project's virtual clock, which its expiries and timestamps follow.
    public var clock: ClockState
    /// Credentials per platform (`warplink`: `sdkKey`, `apiKey`; `asleep`: `apiKey`; …).
    public var credentials: [String: [String: String]]
    /// Each platform's plain-HTTP base URL, e.g. `http://127.0.0.1:8080/asleep`: the server's
    /// public URL when it has one, else the host this client reached it under.
    public var baseURLs: [String: String]
    /// Each platform's base URL on the HTTPS port; empty while the server runs no TLS listener.
    public var httpsBaseURLs: [String: String]
    /// SDK settings to paste, per platform, named as each SDK names them.
    public var sdkSettings: [String: [String: String]]
    /// How each platform's unmodified SDK reaches Understudy: a base-URL setting, or the proxy.
    public var connections: [String: Connection]
    /// The intercepting proxy and the CA certificate devices trust.
    public var proxy: Proxy

    /// How one SDK reaches Understudy.
    public struct Connection: Sendable, Codable, Equatable {
        /// `baseURL` (set `setting` to `value`) or `proxy` (route the device through `proxy`).
        public var mode: String
        /// With `baseURL`: the SDK's setting, e.g. `apiEndpoint`.
        public var setting: String?
        /// With `baseURL`: the value to give it.
        public var value: String?
        /// With `proxy`: the hosts the SDK calls over HTTPS, e.g. `www.warrantylife.com`.
        public var realHosts: [String]?
        /// With `proxy`: the proxy as `host:port`; nil while the proxy is off.
        public var proxy: String?
        /// With `proxy`: the CA certificate file on the server's machine.
        public var caCertificate: String?
        /// With `proxy`: where a device downloads the CA certificate.
        public var caCertificateURL: String?

        /// Whether the SDK is pointed at Understudy through the proxy rather than a setting.
        public var usesProxy: Bool { mode == "proxy" }
    }

    /// The proxy's address and the CA, each nil while off or absent.
    public struct Proxy: Sendable, Codable, Equatable {
        /// `host:port`, the form proxy settings take.
        public var address: String?
        /// The CA certificate (PEM) on the server's machine.
        public var caCertificatePath: String?
        /// `…/__admin/ca.pem`, where a device downloads the CA certificate.
        public var caCertificateURL: String?

        /// Creates a value (to compare answers with).
        public init(address: String? = nil, caCertificatePath: String? = nil, caCertificateURL: String? = nil) {
            self.address = address
            self.caCertificatePath = caCertificatePath
            self.caCertificateURL = caCertificateURL
        }
    }

    /// Credential `name` of `platform`, or "".
    public func credential(_ platform: String, _ name: String) -> String { credentials[platform]?[name] ?? "" }
}
