import Foundation
import HTTPServer

/// The per-device view: the app installations a project's requests named (`Observation.device`,
/// recorded with each journal entry), one installation's requests in order, and forgetting one,
/// which removes the server-side state its platform keeps for it so a first launch can be
/// tested again without resetting the project.
extension CoreAdminRoutes {
    /// A device in the listing.
    struct DeviceRow: Codable {
        var platform: String
        var device: String
        var firstSeen: String
        var lastSeen: String
        var requests: Int
        var findings: Int
    }

    /// A device with its requests, oldest first.
    struct DeviceDetail: Codable {
        var platform: String
        var device: String
        var firstSeen: String
        var lastSeen: String
        var requests: Int
        var findings: Int
        var timeline: [JournalEntry]
    }

    /// Most entries one timeline page holds, and how many it holds unless told.
    static let maxTimelinePage = 1000, defaultTimelinePage = 100

    static func deviceRoutes(journal: Journal, checks: CheckEngine, platforms: [any Platform]) -> [Route] {
        /// The platform a path or query names; a name no platform has is `failure`.
        @Sendable func platform(_ name: String, failure: (String) -> AdminError) throws -> any Platform {
            guard let platform = platforms.first(where: { $0.id.rawValue == name }) else { throw failure(name) }
            return platform
        }
        /// How many findings each device has, by platform and device.
        @Sendable func findingCounts(_ project: ProjectID) async throws -> [String: Int] {
            try await checks.findings(project: project).reduce(into: [:]) { $0[$1.platform.rawValue + " " + $1.device, default: 0] += 1 }
        }
        return [
            Route(.get, "/__admin/projects/{id}/devices") { request, context in
                var only: String?
                for (name, value) in request.queryItems {
                    guard name == "platform" else { throw AdminError.badRequest("Unknown query parameter `\(name)`; use platform.") }
                    if !value.isEmpty { only = try platform(value) { AdminError.badRequest("Unknown platform `\($0)`.") }.id.rawValue }
                }
                let id = context.parameter("id")
                let counts = try await findingCounts(id)
                let rows = try await journal.devices(project: id, platform: only).map { summary in
                    DeviceRow(
                        platform: summary.platform, device: summary.device, firstSeen: summary.firstSeen, lastSeen: summary.lastSeen,
                        requests: summary.requests, findings: counts[summary.platform + " " + summary.device] ?? 0)
                }
                return .json(["devices": rows])
            },
            Route(.get, "/__admin/projects/{id}/devices/{platform}/{device}") { request, context in
                var limit = defaultTimelinePage
                var after: Int?
                for (name, value) in request.queryItems {
                    switch name {
                    case "limit":
                        // checked: Int(String) is nil outside Int's range, and the range bounds the page
                        guard let number = Int(value), (1...maxTimelinePage).contains(number) else {
                            throw AdminError.badRequest("`limit` must be 1–\(maxTimelinePage).")
                        }
                        limit = number
                    case "after":
                        // checked: Int(String) is nil outside Int's range; the id is only compared with stored ids
                        guard let number = Int(value) else { throw AdminError.badRequest("`after` must be a journal id (a number).") }
                        after = number
                    default: throw AdminError.badRequest("Unknown query parameter `\(name)`; use limit, after.")
                    }
                }
                let (id, device) = (context.parameter("id"), context.parameter("device"))
                let name = try platform(context.parameter("platform")) { AdminError.notFound("Platform `\($0)`") }.id.rawValue
                guard let summary = try await journal.device(project: id, platform: name, device: device) else {
                    throw AdminError.notFound("Device `\(device)` of \(name) in project `\(id)`")
                }
                let timeline = try await journal.timeline(project: id, platform: name, device: device, after: after, limit: limit)
                return .json(
                    DeviceDetail(
                        platform: name, device: device, firstSeen: summary.firstSeen, lastSeen: summary.lastSeen, requests: summary.requests,
                        findings: try await findingCounts(id)[name + " " + device] ?? 0, timeline: timeline))
            },
            Route(.delete, "/__admin/projects/{id}/devices/{platform}/{device}") { _, context in
                let (id, device) = (context.parameter("id"), context.parameter("device"))
                let owner = try platform(context.parameter("platform")) { AdminError.notFound("Platform `\($0)`") }
                let unknown = AdminError.notFound("Device `\(device)` of \(owner.id.rawValue) in project `\(id)`")
                // The journal may have evicted a device's requests while its state remains: either names it.
                let seen = try await journal.device(project: id, platform: owner.id.rawValue, device: device) != nil
                let forgotten: Int
                do {
                    forgotten = try await owner.forgetDevice(device, project: id, services: context.services)
                } catch let error as AdminError where !seen && error.status == 409 {
                    throw unknown
                }
                guard seen || forgotten > 0 else { throw unknown }
                // After the commit, so a request racing the forget cannot re-cache what went.
                checks.forget(project: id, device: device)
                context.services.projectCache.invalidate(project: id)
                await owner.projectStateDidChange(id)
                return .json(JSONValue.object(["platform": .string(owner.id.rawValue), "device": .string(device), "forgotten": .int(Int64(forgotten))]))
            },
        ]
    }
}
