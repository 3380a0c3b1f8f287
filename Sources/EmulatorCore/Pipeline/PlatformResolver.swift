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
                    return Destination(platform: candidate, routedPath: prefix + (path == "/" ? "" : path))
                }
            }
        }
        let utf8 = path.utf8
        for (platform, prefix) in zip(platforms, prefixes) where utf8.starts(with: prefix) {
            // The prefix alone, or followed by a path segment: `/testingx` is no platform's.
            let rest = utf8.dropFirst(prefix.count)
            if rest.isEmpty || rest.first == UInt8(ascii: "/") { return Destination(platform: platform, routedPath: path) }
        }
        return Destination(platform: nil, routedPath: path)
    }
}
