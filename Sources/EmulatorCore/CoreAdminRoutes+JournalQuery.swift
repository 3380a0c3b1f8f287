import Foundation
import HTTPServer

/// The journal routes' page shape and query parameters.
extension CoreAdminRoutes {
    struct JournalPage: Codable {
        var requests: [JournalEntry]
        var evicted: Int
    }

    /// Most entries one journal page holds, and the longest a journal long poll waits.
    static let maxJournalPage = 1000, maxJournalWaitMs = 60_000

    /// The journal's platform names: each platform's, `admin` (control-plane calls) and `proxy`.
    static func journalPlatformNames(_ platforms: [any Platform]) -> [String] {
        platforms.map(\.id.rawValue) + [Journal.controlPlanePlatform, Journal.proxyPlatform]
    }

    /// `name` as a journal platform filter; a name no entry can carry (a misspelling) is a 400
    /// rather than an empty answer, which a test would read as "no traffic".
    static func journalPlatform(_ name: String, known: [String]) throws -> String {
        guard name.isEmpty || known.contains(name) else {
            throw AdminError.badRequest("Unknown platform `\(name)`; the journal's platforms are \(known.joined(separator: ", ")).")
        }
        return name
    }

    /// The listing's filters and long-poll wait. `serverWide`: the listing across projects, the only
    /// one `unmatched` means anything on (a request that matched no project is in no project's journal).
    static func journalFilter(_ request: Request, platforms known: [String], serverWide: Bool = false) throws -> (filter: JournalFilter, waitMs: Int) {
        var filter = JournalFilter()
        var waitMs = 0
        for (name, value) in request.queryItems {
            switch name {
            case "platform": filter.platform = try journalPlatform(value, known: known)
            case "method": filter.method = value
            case "path": filter.path = value
            case "status":
                if value.count == 3, value.lowercased().hasSuffix("xx"), let hundreds = Int(value.prefix(1)), (0...5).contains(hundreds) {
                    filter.statusClass = hundreds
                } else {
                    guard let status = Int(value) else { throw AdminError.badRequest("`status` must be a number or a class such as `4xx`.") }
                    filter.status = status
                }
            case "since", "after":
                guard let since = Int(value) else { throw AdminError.badRequest("`\(name)` must be a journal id (a number).") }
                guard filter.since == nil else { throw AdminError.badRequest("`since` and `after` are the same cursor; give one.") }
                filter.since = since
            case "before":
                guard let before = Int(value) else { throw AdminError.badRequest("`before` must be a journal id (a number).") }
                filter.before = before
            case "limit":
                guard let limit = Int(value), (1...maxJournalPage).contains(limit) else {
                    throw AdminError.badRequest("`limit` must be 1–\(maxJournalPage).")
                }
                filter.limit = limit
            case "via":
                guard value == "proxy" || value == "direct" else { throw AdminError.badRequest("`via` must be `proxy` or `direct`.") }
                filter.via = value
            case "proxyHost":
                filter.proxyHost = value.lowercased()
            case "device":
                filter.device = value
            case "unmatched":
                guard serverWide else {
                    throw AdminError.badRequest("Requests that matched no project are in no project's journal; ask GET /__admin/requests?unmatched=true.")
                }
                guard value == "true" || value == "false" else { throw AdminError.badRequest("`unmatched` must be `true` or `false`.") }
                filter.unmatched = value == "true"
            case "waitMs":
                guard let wait = Int(value), (0...maxJournalWaitMs).contains(wait) else {
                    throw AdminError.badRequest("`waitMs` must be 0–\(maxJournalWaitMs).")
                }
                waitMs = wait
            default:
                throw AdminError.badRequest(
                    "Unknown query parameter `\(name)`; use platform, method, path, status, via, proxyHost, device, \(serverWide ? "unmatched, " : "")after (or since), before, limit, waitMs."
                )
            }
        }
        if waitMs > 0, filter.since == nil { throw AdminError.badRequest("`waitMs` needs `after`: the newest journal id the caller has seen.") }
        return (filter, waitMs)
    }
}
