import EmulatorCore

/// What the server prints at start: each loaded project's SDK settings (the demo project first,
/// at most `shownProjects` of them), each under the SDK's own setting names; for SDKs without a
/// base-URL setting, the proxy to use and the CA to trust; the credentials the settings do not
/// show, labelled as what they are; how to make a project when there is none; and every address
/// to reach. Lines stay within 100 columns (one setting per line) so a terminal does not wrap them.
struct StartupBanner {
    /// The projects whose settings are printed, in order.
    let projects: [ProjectRecord]
    let platforms: [any Platform]
    /// Where the server listens and what it advertises (the public URL, else the listen address).
    let addresses: ServerAddresses
    /// This machine's network addresses, listed when the server listens on every interface.
    var lanAddresses: [String] = []
    /// Why the local CA lives where it does (shown beside its path); nil when not known.
    var caSource: CALocationSource?

    private var endpoints: AdvertisedEndpoints { addresses.advertised }

    /// Projects printed in full; the others are counted (a seed directory may hold dozens).
    static let shownProjects = 3

    /// A banner for every project in `projects`: the demo project first, then by id.
    init(projects: [ProjectRecord], platforms: [any Platform], addresses: ServerAddresses, lanAddresses: [String] = []) {
        self.projects = projects.sorted { ($0.isDemo ? 0 : 1, $0.id) < ($1.isDemo ? 0 : 1, $1.id) }
        self.platforms = platforms
        self.addresses = addresses
        self.lanAddresses = lanAddresses
    }

    /// A banner for one project.
    init(project: ProjectRecord, platforms: [any Platform], addresses: ServerAddresses, lanAddresses: [String] = []) {
        self.init(projects: [project], platforms: platforms, addresses: addresses, lanAddresses: lanAddresses)
    }

    private struct Section {
        let platform: PlatformID
        let settings: [(String, String)]
        let connection: SDKConnection
        let otherCredentials: [(String, String)]
    }

    private func sections(_ project: ProjectRecord) -> [Section] {
        let endpoints = self.endpoints
        return platforms.map { platform in
            let credentials = project.credentials[platform.id] ?? [:]
            let settings = platform.sdkSettings(endpoints: endpoints, credentials: credentials).sorted { $0.key < $1.key }
            let shown = Set(settings.map(\.value))
            let other = credentials.filter { !shown.contains($0.value) }.sorted { $0.key < $1.key }
            return Section(platform: platform.id, settings: settings, connection: platform.sdkConnection, otherCredentials: other)
        }
    }

    /// The URLs other devices may use: the machine's addresses, when listening on every interface
    /// and no public URL says which one to use.
    private var deviceURLs: [String] {
        guard addresses.listensOnEveryInterface, addresses.publicURL == nil else { return [] }
        return lanAddresses.map { "http://\($0):\(addresses.httpPort)" }
    }

    /// The proxy advice for an SDK that calls `realHosts` over HTTPS (two lines, to stay narrow).
    private func proxyAdvice(_ realHosts: [String]) -> [String] {
        let calls = realHosts.first.map { ["(the SDK calls \($0) over HTTPS)"] } ?? []
        guard let proxy = endpoints.proxyAddress else { return ["use the proxy (it is off: start without --no-proxy)"] + calls }
        let trust = endpoints.caCertificatePath.map { ", trust \($0)" } ?? " (no local CA to trust yet)"
        return ["use the proxy: \(proxy)\(trust)"] + calls
    }

    /// The banner as text lines.
    var text: String {
        let indent = String(repeating: " ", count: 16)
        let endpoints = self.endpoints
        let base = endpoints.baseURL
        var lines: [String] = []
        if projects.isEmpty {
            lines.append("No project yet. Make one with `understudy projects create NAME`")
            lines.append("(from the checkout: `swift run understudy projects create NAME`), in the dashboard,")
            lines.append("or with POST \(base)/__admin/projects; its SDK settings are then in its answer.")
        }
        for project in projects.prefix(Self.shownProjects) {
            lines.append("\(project.isDemo ? "Demo project" : "Project") `\(project.id)` is ready. Paste into each SDK:")
            for section in sections(project) {
                var body = section.settings.map { "\($0.0)=\($0.1)" }
                if case .proxy(let realHosts) = section.connection { body += proxyAdvice(realHosts) }
                // Not SDK settings: other credentials of the project (a server-side API key, say).
                body += section.otherCredentials.map { "not an SDK setting: \($0.0)=\($0.1)" }
                for (index, line) in body.enumerated() {
                    let label = index == 0 ? "  " + section.platform.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0) : indent
                    lines.append(label + line)
                }
            }
        }
        if projects.count > Self.shownProjects {
            lines.append("…and \(projects.count - Self.shownProjects) more projects: `understudy projects list`, or the dashboard.")
        }
        let listening = endpoints.isPublicURL ? "  (public URL; listening on \(addresses.listenHost):\(addresses.httpPort))" : ""
        lines.append("HTTP:          \(base)\(listening)")
        lines.append("HTTPS:         \(endpoints.httpsBaseURL ?? "off")")
        lines.append("Proxy:         \(endpoints.proxyAddress.map { "\($0)  (serves the platforms' real hosts)" } ?? "off")")
        lines.append("CA:            \(endpoints.caCertificatePath ?? "none")\(caSource.map { "  (\($0.rawValue))" } ?? "")")
        if let url = endpoints.caCertificateURL { lines.append("               download: \(url)") }
        lines.append("Control plane: \(base)/__admin/projects")
        lines.append("OpenAPI:       \(base)/__admin/openapi.json")
        lines.append("Dashboard:     \(base)/__admin/ui")
        if !deviceURLs.isEmpty {
            lines.append("Other devices: \(deviceURLs.joined(separator: "  "))")
            lines.append("               (this machine's addresses; --public-url names the one devices use)")
        }
        return lines.joined(separator: "\n")
    }

    /// The banner as fields of one JSON log line: the first project's settings (the demo
    /// project's when it exists) and every project's id.
    var fields: [(String, JSONValue)] {
        let endpoints = self.endpoints
        var platformsObject: [String: JSONValue] = [:]
        for section in projects.first.map(sections) ?? [] {
            let settings = Dictionary(uniqueKeysWithValues: section.settings)
            platformsObject[section.platform.rawValue] = [
                "sdkSettings": .object(settings.mapValues(JSONValue.string)),
                "connection": section.connection.render(endpoints: endpoints, sdkSettings: settings),
                "otherCredentials": .object(Dictionary(uniqueKeysWithValues: section.otherCredentials.map { ($0.0, JSONValue.string($0.1)) })),
            ]
        }
        let optional: (String?) -> JSONValue = { $0.map(JSONValue.string) ?? .null }
        let base = endpoints.baseURL
        return [
            ("project", projects.first.map { .string($0.id) } ?? .null), ("platforms", .object(platformsObject)),
            ("projects", .array(projects.map { .string($0.id) })),
            ("http", .string(base)), ("https", optional(endpoints.httpsBaseURL)), ("proxy", optional(endpoints.proxyAddress)),
            ("caCertificate", optional(endpoints.caCertificatePath)), ("caCertificateURL", optional(endpoints.caCertificateURL)),
            ("publicURL", .bool(endpoints.isPublicURL)), ("deviceURLs", .array(deviceURLs.map(JSONValue.string))),
            ("controlPlane", .string(base + "/__admin/projects")), ("openapi", .string(base + "/__admin/openapi.json")),
            ("dashboard", .string(base + "/__admin/ui")),
        ]
    }
}
