import Foundation
import HTTPServer

extension CoreAdminRoutes {
    /// `GET /__admin/projects/{id}/export` and `POST /__admin/projects/import`.
    static func bundleRoutes(_ bundles: ProjectBundleStore, platforms: [any Platform], checks: CheckEngine) -> [Route] {
        [
            Route(.get, "/__admin/projects/{id}/export") { _, context in
                let id = context.parameter("id")
                await checks.flush() // the bundle holds every finding raised so far
                guard let bundle = try await bundles.export(id) else { throw AdminError.notFound("Project `\(id)`") }
                var headers = HTTPHeaders()
                headers.set("Content-Type", "application/json")
                headers.set("Content-Disposition", "attachment; filename=\"\(id).json\"")
                return Response(status: 200, headers: headers, body: bundle)
            },
            Route(.post, "/__admin/projects/import") { request, context in
                var id: String?
                var replacing: String?
                for (name, value) in request.queryItems {
                    switch name {
                    case "id": id = value
                    case "replace": replacing = value
                    default: throw AdminError.badRequest("Unknown query parameter `\(name)`; use id or replace.")
                    }
                }
                guard !request.body.isEmpty else { throw ProjectBundle.invalid("The body must be a bundle (a JSON document from `GET /__admin/projects/{id}/export`).") }
                if replacing != nil { await checks.flush() } // a finding still being written would land in the new project
                let record = try await bundles.importBundle(request.body, id: id, replacing: replacing)
                if let replacing { checks.forget(project: replacing) }
                return .json(status: 201, bytes: ProjectAnswer.render(record, for: request, services: context.services, platforms: platforms).encoded())
            },
        ]
    }
}
