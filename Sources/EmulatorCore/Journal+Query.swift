import Foundation
import HTTPServer
import Storage

/// Reading entries back: the filtered listing and the row-to-entry conversion.
extension Journal {
    /// Entries of a project (or of requests with no project when `project` is nil… use "" for those), newest first.
    public func query(project: ProjectID?, filter: JournalFilter) async throws -> (entries: [JournalEntry], evicted: Int) {
        try await flush()
        let limit = min(max(filter.limit ?? 100, 1), 1000)
        // A page can hold a thousand entries with 64 KiB bodies: read it off the event loop.
        return try await database.readOnPool { connection in
            var sql = " FROM journal WHERE 1 = 1"
            var bindings: [any SQLBindable] = []
            if let project { sql += " AND project_id = ?"; bindings.append(project) }
            if let platform = filter.platform { sql += " AND platform = ?"; bindings.append(platform) }
            if let method = filter.method { sql += " AND method = ?"; bindings.append(method.uppercased()) }
            if let status = filter.status { sql += " AND status = ?"; bindings.append(status) }
            if let via = filter.via { sql += via == "direct" ? " AND via IS NULL" : " AND via = ?"; if via != "direct" { bindings.append(via) } }
            if let proxyHost = filter.proxyHost { sql += " AND proxy_host = ?"; bindings.append(proxyHost.lowercased()) }
            if let unmatched = filter.unmatched { sql += unmatched ? " AND unmatched IS NOT NULL" : " AND unmatched IS NULL" }
            if let device = filter.device { sql += " AND device = ?"; bindings.append(device) }
            if let excluded = filter.excludedPlatform { sql += " AND platform <> ?"; bindings.append(excluded) }
            if let since = filter.since { sql += " AND id > ?"; bindings.append(since) }
            if let before = filter.before { sql += " AND id < ?"; bindings.append(before) }
            if let statusClass = filter.statusClass {
                // Class 0 is "no response sent" (status 0), the others are the hundreds.
                sql += statusClass == 0 ? " AND status = 0" : " AND status >= ? AND status < ?"
                if statusClass != 0 { bindings.append(statusClass * 100); bindings.append(statusClass * 100 + 100) }
            }
            if let pattern = filter.path {
                // SQLite's GLOB (whose `*` also crosses `/`) keeps a superset of the matches, so
                // Swift's segment-aware glob below only looks at likely rows.
                let globs = [Self.sqliteGlob(pattern), "/*" + Self.sqliteGlob(pattern)]
                if connection.dialect == .postgres {
                    sql += " AND (path ~ ? OR path ~ ?)" // the same superset, as regular expressions
                    bindings += globs.map(SQLDialect.postgresRegex(fromGlob:))
                } else {
                    sql += " AND (path GLOB ? OR path GLOB ?)"
                    bindings += globs
                }
            }
            sql += " ORDER BY id DESC"
            guard let pattern = filter.path else {
                let entries = try connection.query("SELECT " + Self.entryColumns + sql + " LIMIT ?", bindings: bindings + [limit]).map { try self.entry($0) }
                return (entries, try Self.evicted(project, connection))
            }
            // Globs run in Swift, over the narrow columns: bodies are read only for the page itself.
            var ids: [Int] = []
            for row in try connection.query("SELECT id, platform, path" + sql, bindings: bindings) {
                let path: String = try row.decode("path"), platform: String = try row.decode("platform")
                guard path == pattern || Glob.matches(pattern, path) || Glob.matches(pattern, Self.relativePath(path, platform: platform)) else { continue }
                ids.append(try row.decode("id"))
                if ids.count >= limit { break }
            }
            let placeholders = Array(repeating: "?", count: ids.count).joined(separator: ", ")
            let entries =
                ids.isEmpty
                ? [] : try connection.query("SELECT \(Self.entryColumns) FROM journal WHERE id IN (\(placeholders)) ORDER BY id DESC", bindings: ids).map { try self.entry($0) }
            return (entries, try Self.evicted(project, connection))
        }
    }

    /// An entry's columns, with the shared bodies it names in `*_shared`, or where in the body
    /// file they are (`*_position`, `*_length`).
    static let entryColumns = ["request", "response"].map { side in
        """
        (SELECT body FROM journal_bodies WHERE journal_bodies.id = journal.\(side)_body_ref) AS \(side)_body_shared,
        (SELECT file_position FROM journal_bodies WHERE journal_bodies.id = journal.\(side)_body_ref) AS \(side)_body_position,
        (SELECT stored_bytes FROM journal_bodies WHERE journal_bodies.id = journal.\(side)_body_ref) AS \(side)_body_length
        """
    }.reduce("*") { $0 + ", " + $1 }

    /// Our glob as a looser SQLite GLOB: `**` → `*`, and SQLite's own `?` and `[` taken literally.
    static func sqliteGlob(_ pattern: String) -> String {
        pattern.replacingOccurrences(of: "[", with: "[[]").replacingOccurrences(of: "?", with: "[?]").replacingOccurrences(of: "**", with: "*")
    }

    static func evicted(_ project: ProjectID?, _ connection: any StoreConnection) throws -> Int {
        try project.map { try connection.scalar("SELECT evicted FROM journal_evictions WHERE project_id = ?", $0).int ?? 0 }
            ?? (try connection.scalar("SELECT coalesce(sum(evicted), 0) FROM journal_evictions").int ?? 0)
    }

    static func relativePath(_ path: String, platform: String) -> String {
        let prefix = "/" + platform
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// A body column as journal text (`journalText(stored:)`), NULL when not captured.
    static func text(_ row: Row, _ column: String) throws -> String? {
        try row.decodeIfPresent(column, as: Data.self).map(journalText(stored:))
    }

    func entry(_ row: Row) throws -> JournalEntry {
        func headers(_ name: String) throws -> [String: String] {
            try JSONDecoder().decode([String: String].self, from: try row.decode(name, as: Data.self))
        }
        // The entry's own column, else the body file's bytes, else the shared body's column (empty
        // for a body kept in the file).
        func body(_ side: String) throws -> String? {
            if let text = try Self.text(row, side + "_body") { return text }
            if let position = try row.decodeIfPresent(side + "_body_position", as: Int.self) {
                return bodies?.file?.read(position: position, count: try row.decode(side + "_body_length")).map(Self.journalText(stored:))
            }
            return try Self.text(row, side + "_body_shared")
        }
        return JournalEntry(
            id: try row.decode("id"), time: try row.decode("time"), projectID: try row.decodeIfPresent("project_id"),
            platform: try row.decode("platform"), method: try row.decode("method"), path: try row.decode("path"),
            route: try row.decodeIfPresent("route"), query: try row.decode("query"), status: try row.decode("status"),
            durationMs: try row.decode("duration_ms"), requestHeaders: try headers("request_headers"),
            requestBody: try body("request"), requestBodySize: try row.decode("request_body_size"),
            responseHeaders: try headers("response_headers"), responseBody: try body("response"),
            responseBodySize: try row.decode("response_body_size"), fault: try row.decodeIfPresent("fault"),
            via: try row.decodeIfPresent("via"), proxyHost: try row.decodeIfPresent("proxy_host"),
            unmatched: UnmatchedRequest.stored(try row.decodeIfPresent("unmatched")), device: try row.decodeIfPresent("device"))
    }
}
