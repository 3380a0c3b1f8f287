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

    /// The destination of `request`.
    func resolve(_ request: Request) -> Destination {
        let path = request.path
        if let host = request.hostName, !path.hasPrefix("/__admin") {
            for candidate in platforms {
                if let prefix = candidate.pathPrefix(forHost: host) {
                    return Destination(platform: candidate, routedPath: prefix + (path == "/" ? "" : path))
                }
            }
        }
        for platform in platforms {
            let prefix = platform.id.pathPrefix
            if path == prefix || path.hasPrefix(prefix + "/") { return Destination(platform: platform, routedPath: path) }
        }
        return Destination(platform: nil, routedPath: path)
    }
}
