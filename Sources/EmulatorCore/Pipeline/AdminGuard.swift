import Foundation
import HTTPServer

/// Pipeline stage for control-plane requests: no changes from web pages of other origins, the
/// admin token (when one is configured) and the existence of the project a
/// `/__admin/projects/{id}…` route names.
struct AdminGuard: Sendable {
    /// Paths that are never journalled (orchestrators and scrapers would drown the journal).
    static let probes: Set<String> = ["/__admin/health", "/__admin/ready", EmulatorMetrics.path]

    /// Whether `path` is readable without the token: the probes, the OpenAPI documents and the CA
    /// certificate, which hold no secrets and which browsers and phones fetch without credentials.
    static func isPublic(_ path: String) -> Bool {
        // The metrics are a probe but not public: they name projects and fault rules, so with a token
        // configured a scraper sends it (Prometheus' `authorization` setting sends `Authorization: Bearer`).
        (probes.contains(path) && path != EmulatorMetrics.path) || path == "/__admin/openapi.json" || path.hasPrefix("/__admin/openapi/")
            || path == AdvertisedEndpoints.caCertificateRoute
    }

    let token: String?
    let projectExists: @Sendable (ProjectID) -> Bool
    /// The configured public URL, whose origin is the server's own too.
    var publicURL: @Sendable () -> PublicURL? = { nil }

    /// The refusal for this request, or nil when it may proceed. `changesState`: the method is not
    /// GET, HEAD or OPTIONS, or the route writes even on GET.
    func check(_ request: Request, path: String, template: String, project: ProjectID?, changesState: Bool) -> Response? {
        // Before the token: a page of another origin cannot send the token, and must not change
        // anything on a server that needs none (a form or a no-cors fetch needs no CORS answer).
        if changesState, let reason = ForeignOrigin.reason(request, publicURL: publicURL()) {
            return AdminError(
                status: 403, code: "cross_origin_refused",
                message: "The control plane refuses changes from web pages of other origins (\(reason)). "
                    + "Use the dashboard this server serves at /__admin/ui, curl, the understudy CLI or the client library."
            ).response
        }
        if let token, !Self.isPublic(path), !Self.presents(token, in: request) {
            var response = AdminError(
                status: 401, code: "unauthorized",
                message: "The control plane needs the admin token (X-Understudy-Admin-Token or Authorization: Bearer)."
            ).response
            response.headers.set("WWW-Authenticate", "Bearer realm=\"understudy-admin\"")
            return response
        }
        if let project, template.hasPrefix("/__admin/projects/{id}"), !projectExists(project) {
            return AdminError.notFound("Project `\(project)`").response
        }
        return nil
    }

    private static func presents(_ token: String, in request: Request) -> Bool {
        guard let presented = request.headers["x-understudy-admin-token"] ?? request.bearerToken else { return false }
        return ConstantTime.equals(presented, token)
    }
}

/// Comparison that takes the same time wherever the first difference is.
enum ConstantTime {
    /// Whether the strings are equal, in time that depends only on their lengths.
    static func equals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8), b = Array(rhs.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
