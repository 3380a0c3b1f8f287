import EmulatorCore
import Foundation
import HTTPServer

/// Links, seeded clicks and seeded installs.
extension WarpLinkAdmin {
    /// Fields a `PATCH …/links/{linkId}` may name (`id` only to be refused as read-only).
    static let linkFields: Set<String> = [
        "id", "slug", "domain", "destination_url", "ios_url", "ios_fallback_url", "android_url",
        "android_fallback_url", "custom_params", "app_id", "tags", "password", "expires_at", "is_active",
        "match_window_hours", "created_at",
    ]

    // MARK: Links

    func createLink(_ request: Request, _ context: AdminContext) async throws -> Response {
        let input = try AdminBody.decode(AdminInputs.Link.self, from: request)
        let link = try await write(context) { service in
            let link = try withGenerator(context) { try service.link(input, existing: nil, generator: &$0) }
            try service.store.save(link, project: service.project)
            return link
        }
        return .json(status: 201, bytes: WarpLinkWire.storedLink(link).encoded())
    }

    /// Links oldest first: every link, or one page with `limit` (1–10000) and `offset`; always the total.
    func listLinks(_ request: Request, _ context: AdminContext) async throws -> Response {
        let page = try Self.linkPage(request)
        let (links, total) = try await read(context) { scope in
            (
                try page.map { try scope.store.links(scope.project, limit: $0.limit, offset: $0.offset) } ?? scope.store.links(scope.project),
                try scope.store.linkCount(scope.project)
            )
        }
        return .json(status: 200, bytes: JSONValue.object(["links": .array(links.map(WarpLinkWire.storedLink)), "total": .int(Int64(total))]).encoded())
    }

    /// `limit` (1–10000) and `offset` of a links page; nil (every link) when neither is given.
    static func linkPage(_ request: Request) throws -> (limit: Int, offset: Int)? {
        var limit: Int?, offset: Int?
        for (name, value) in request.queryItems {
            switch name {
            case "limit":
                guard let number = Int(value), (1...10_000).contains(number) else { throw AdminError.badRequest("`limit` must be 1–10000.") }
                limit = number
            case "offset":
                guard let number = Int(value), number >= 0 else { throw AdminError.badRequest("`offset` must be 0 or more.") }
                offset = number
            default: throw AdminError.badRequest("Unknown query parameter `\(name)`; use limit, offset.")
            }
        }
        guard limit != nil || offset != nil else { return nil }
        return (limit ?? 500, offset ?? 0)
    }

    func link(_ request: Request, _ context: AdminContext) async throws -> Response {
        let id = context.parameter("linkId").lowercased()
        guard let link = try await read(context, { try $0.store.link($0.project, id: id) }) else { throw AdminError.notFound("Link `\(id)`") }
        return .json(status: 200, bytes: WarpLinkWire.storedLink(link).encoded())
    }

    /// Overlays the body on the stored link's fields (null clears) and re-validates the whole link.
    func updateLink(_ request: Request, _ context: AdminContext) async throws -> Response {
        let id = context.parameter("linkId").lowercased()
        let patch = try AdminBody.decode([String: JSONValue].self, from: request)
        let link = try await write(context) { service in
            guard let existing = try service.store.link(service.project, id: id) else { throw AdminError.notFound("Link `\(id)`") }
            var members = WarpLinkService.linkInput(from: existing).objectValue ?? [:]
            for (key, value) in patch {
                guard Self.linkFields.contains(key), key != "id" else { throw AdminError.badRequest("Unknown or read-only field `\(key)`.", code: "unknown_field") }
                members[key] = value == .null ? nil : value
            }
            let input: AdminInputs.Link
            do { input = try JSONValue.object(members).decode(AdminInputs.Link.self) } catch let error as DecodingError {
                throw AdminError(JSONBody.describe(error))
            }
            // An update keeps the link's id, so the generator is never asked for one.
            var generator = IDGenerator()
            let link = try service.link(input, existing: existing, generator: &generator)
            try service.store.save(link, project: service.project)
            return link
        }
        return .json(status: 200, bytes: WarpLinkWire.storedLink(link).encoded())
    }

    func expireLink(_ request: Request, _ context: AdminContext) async throws -> Response {
        let id = context.parameter("linkId").lowercased()
        let link = try await write(context) { service in
            guard var link = try service.store.link(service.project, id: id) else { throw AdminError.notFound("Link `\(id)`") }
            // Stored to the millisecond, rounded to the nearest: "now" could be kept up to half a
            // millisecond ahead, and a tap in that half millisecond was served. The whole millisecond
            // before it has passed, so the link reads expired at once.
            link.expiresAt = Date(timeIntervalSince1970: (service.now.timeIntervalSince1970 * 1000).rounded(.down) / 1000)
            link.updatedAt = service.now
            try service.store.save(link, project: service.project)
            return link
        }
        return .json(status: 200, bytes: WarpLinkWire.storedLink(link).encoded())
    }

    func deleteLink(_ request: Request, _ context: AdminContext) async throws -> Response {
        let id = context.parameter("linkId").lowercased()
        guard try await write(context, { try $0.store.deleteLink($0.project, id: id) }) else { throw AdminError.notFound("Link `\(id)`") }
        return .empty(204)
    }

    // MARK: Clicks

    func seedClick(_ request: Request, _ context: AdminContext) async throws -> Response {
        let input = try AdminBody.decode(AdminInputs.Click.self, from: request)
        let server = serverSettings
        let click = try await write(context) { service in
            let settings = try MatchingSettings.resolve(server: server, stored: try service.store.settingsDocument(service.project))
            let click = try withGenerator(context) { try service.click(input, settings: settings, generator: &$0) }
            try service.store.insert(click, project: service.project)
            return click
        }
        return .json(status: 201, bytes: WarpLinkWire.click(click).encoded())
    }

    func listClicks(_ request: Request, _ context: AdminContext) async throws -> Response {
        var linkID: String?, source: ClickSource?, limit = 500
        for (name, value) in request.queryItems {
            switch name {
            case "link_id": linkID = value.lowercased()
            case "source":
                guard let known = ClickSource(rawValue: value) else { throw AdminError.badRequest("`source` must be redirect, resolve or seed.") }
                source = known
            case "limit":
                guard let number = Int(value), (1...10_000).contains(number) else { throw AdminError.badRequest("`limit` must be 1–10000.") }
                limit = number
            default: throw AdminError.badRequest("Unknown query parameter `\(name)`; use link_id, source, limit.")
            }
        }
        let clicks = try await read(context) { [linkID, source, limit] in try $0.store.clicks($0.project, linkID: linkID, source: source, limit: limit) }
        return .json(status: 200, bytes: JSONValue.object(["clicks": .array(clicks.map(WarpLinkWire.click))]).encoded())
    }

    // MARK: Installs

    func seedInstall(_ request: Request, _ context: AdminContext) async throws -> Response {
        let input = try AdminBody.decode(AdminInputs.Install.self, from: request)
        let install = try await write(context) { service in
            let install = try withGenerator(context) { try service.install(input, generator: &$0) }
            try service.store.insert(install, project: service.project)
            return install
        }
        return .json(status: 201, bytes: WarpLinkWire.install(install).encoded())
    }

    func listInstalls(_ request: Request, _ context: AdminContext) async throws -> Response {
        var limit = 500
        for (name, value) in request.queryItems {
            guard name == "limit", let number = Int(value), (1...10_000).contains(number) else {
                throw AdminError.badRequest("The only query parameter is `limit` (1–10000).")
            }
            limit = number
        }
        let installs = try await read(context) { [limit] in try $0.store.installs($0.project, limit: limit) }
        return .json(status: 200, bytes: JSONValue.object(["installs": .array(installs.map(WarpLinkWire.install))]).encoded())
    }
}
