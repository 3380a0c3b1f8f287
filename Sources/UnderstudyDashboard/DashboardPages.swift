import Foundation
import HTTPServer

/// What the dashboard answers: the single-page shell for every page URL, its assets, and the
/// redirects from `/` and `/__admin`. Nil means "not the dashboard's": the emulator answers.
public struct DashboardPages: Sendable {
    /// Where the dashboard lives.
    public static let root = "/__admin/ui"
    /// The sections of a project page (`/__admin/ui/projects/{id}/<section>`).
    public static let sections: Set<String> = [
        "journal", "checks", "faults", "clock", "snapshots", "outbox", "devices", "warplink", "asleep", "warrantylife", "telematics",
    ]
    /// The server-wide pages besides the project list (`/__admin/ui/<page>`).
    public static let serverPages: Set<String> = ["unmatched"]

    /// Content-Security-Policy of every dashboard response: only this origin's files, no inline
    /// script or style, no frames, no plugins; with text-only rendering it stops injected markup.
    public static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    private let compiled: DashboardAssets
    private let directory: String?

    /// Pages served from `assets` (normally `DashboardAssets.compiled`).
    public init(assets: DashboardAssets = .compiled) {
        self.compiled = assets
        self.directory = nil
    }

    /// Pages read from `directory` on every request, so edits show on reload (working on the dashboard).
    public init(directory: String) {
        self.compiled = DashboardAssets(texts: [:])
        self.directory = directory
    }

    /// The compiled pages, or those of the folder named by `UNDERSTUDY_DASHBOARD_ASSETS` when it is set.
    public static func fromEnvironment() -> DashboardPages {
        if let directory = ProcessInfo.processInfo.environment["UNDERSTUDY_DASHBOARD_ASSETS"], !directory.isEmpty {
            return DashboardPages(directory: directory)
        }
        return DashboardPages()
    }

    private var assets: DashboardAssets { directory.map(DashboardAssets.load) ?? compiled }

    /// The dashboard's answer to `request`, or nil when the request is not for the dashboard.
    /// `hostBelongsToPlatform` says whether a platform serves this request's `Host` (then `/` is that platform's).
    public func response(to request: Request, hostBelongsToPlatform: @autoclosure () -> Bool) -> Response? {
        guard request.method == .get || request.method == .head else { return nil }
        let path = request.path
        switch path {
        case "/":
            return hostBelongsToPlatform() ? nil : Self.redirect(to: Self.root)
        case "/__admin", "/__admin/":
            return Self.redirect(to: Self.root)
        default:
            break
        }
        guard path == Self.root || path.hasPrefix(Self.root + "/") else { return nil }
        let rest = path.dropFirst(Self.root.count).split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let assets = self.assets
        if rest.first == "assets" {
            guard rest.count == 2, rest[1] != "index.html", let asset = assets[rest[1]] else { return Self.notFound() }
            return serve(asset, request: request, status: 200)
        }
        guard let shell = assets["index.html"] else { return Self.notFound() }
        // Unknown page URLs still get the shell (its router says "no such page"), with a 404.
        return serve(shell, request: request, status: Self.isPage(rest) ? 200 : 404)
    }

    /// Whether the segments after `/__admin/ui` name a page the shell's router knows.
    static func isPage(_ segments: [String]) -> Bool {
        switch segments.count {
        case 0: return true
        case 1: return serverPages.contains(segments[0])
        case 2: return segments[0] == "projects"
        case 3: return segments[0] == "projects" && sections.contains(segments[2])
        default: return false
        }
    }

    private func serve(_ asset: DashboardAsset, request: Request, status: Int) -> Response {
        var headers = Self.securityHeaders()
        headers.set("Content-Type", asset.contentType)
        headers.set("ETag", asset.etag)
        // Revalidate every time (a 304 costs nothing), so a new binary's files are picked up at once.
        headers.set("Cache-Control", "no-cache")
        if status == 200, let presented = request.headers["if-none-match"],
            presented.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == asset.etag || $0.trimmingCharacters(in: .whitespaces) == "*" })
        {
            return Response(status: 304, headers: headers)
        }
        return Response(status: status, headers: headers, body: asset.body)
    }

    static func securityHeaders() -> HTTPHeaders {
        [
            "Content-Security-Policy": contentSecurityPolicy,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
            "X-Frame-Options": "DENY",
            "Cross-Origin-Opener-Policy": "same-origin",
        ]
    }

    static func redirect(to location: String) -> Response {
        var headers = securityHeaders()
        headers.set("Location", location)
        headers.set("Content-Type", "text/plain; charset=utf-8")
        headers.set("Cache-Control", "no-cache")
        return Response(status: 302, headers: headers, body: Data("The dashboard is at \(location)\n".utf8))
    }

    static func notFound() -> Response {
        var headers = securityHeaders()
        headers.set("Content-Type", "text/plain; charset=utf-8")
        return Response(status: 404, headers: headers, body: Data("No such dashboard file.\n".utf8))
    }
}
