import HTTPServer

/// Pipeline stage 1: which platform a request is for, and the path to route. A real service's
/// host name puts that platform's prefix in front of the path; otherwise the path's own prefix
/// names the platform. Control-plane paths (`/__admin…`) belong to no platform.
struct PlatformResolver: Sendable {
    /// Where a request goes before routing.
    struct Destination: Sendable {
        /// The platform, or nil for the control plane and unknown paths.
        var platform: (any Platform)?
        /// The path the router sees (with the platform prefix).
        var routedPath: String
        /// Whether `platform` was chosen by the request's `Host` (a host it emulates), so later
        /// stages need not ask the platforms about that host again.
        var byHost = false
    }

    let platforms: [any Platform]
    /// Each platform's path prefix (`/<platform id>`), as UTF-8. Made per request (and `prefix + "/"`
    /// after it) for every platform in turn, they were most of this stage's cost.
    private let prefixes: [[UInt8]]

    /// A resolver over `platforms`, asked in order.
    init(platforms: [any Platform]) {
        self.platforms = platforms
        prefixes = platforms.map { Array($0.id.pathPrefix.utf8) }
    }

    /// The destination of `request`.
    func resolve(_ request: Request) -> Destination {
        let path = request.path
        if path.hasPrefix("/__admin") { return Destination(platform: nil, routedPath: path) }
        if let host = request.hostName {
            for candidate in platforms {
                if let prefix = candidate.pathPrefix(forHost: host) {
                    return Destination(platform: candidate, routedPath: prefix + (path == "/" ? "" : Self.collapsingSlashes(path)), byHost: true)
                }
            }
        }
        let utf8 = path.utf8
        for (platform, prefix) in zip(platforms, prefixes) where utf8.starts(with: prefix) {
            // The prefix alone, or followed by a path segment: `/testingx` is no platform's.
            let rest = utf8.dropFirst(prefix.count)
            if rest.isEmpty || rest.first == UInt8(ascii: "/") { return Destination(platform: platform, routedPath: Self.collapsingSlashes(path)) }
        }
        return Destination(platform: nil, routedPath: path)
    }

    /// `path` with every run of slashes as one. An SDK whose base URL setting ends in `/` sends
    /// `/<platform>//api/v1/…`, and servers behind the usual proxies answer that as the single
    /// slash. The journal shows the routed path, as it does for a path a real host name prefixed.
    static func collapsingSlashes(_ path: String) -> String {
        let slash = UInt8(ascii: "/")
        guard path.utf8.count > 1, zip(path.utf8, path.utf8.dropFirst()).contains(where: { $0 == slash && $1 == slash }) else { return path }
        var collapsed: [UInt8] = []
        collapsed.reserveCapacity(path.utf8.count)
        for byte in path.utf8 where !(byte == slash && collapsed.last == slash) { collapsed.append(byte) }
        return String(decoding: collapsed, as: UTF8.self)
    }
}
