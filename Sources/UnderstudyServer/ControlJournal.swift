import Foundation
import UnderstudyClient

/// `understudy journal`: one page of entries, or every new one as it arrives (`--follow`).
struct ControlJournal {
    let admin: AdminClient
    let project: String?
    let query: JournalQuery
    let json: Bool
    let output: ControlOutput

    /// How long one long poll waits before asking again; well under the server's 60 s limit.
    static let pollMilliseconds = 25_000
    /// The largest page the server gives.
    static let pageSize = 1000

    private func page(_ query: JournalQuery, waitMs: Int? = nil) async throws(UnderstudyClientError) -> JournalPage {
        if let project { return try await admin.project(project).requests(query, waitMs: waitMs) }
        return try await admin.requests(query, waitMs: waitMs)
    }

    /// The newest matching entries (`--limit`, server default 100): oldest first for people, as the server sends them with `--json`.
    func list() async throws {
        let page = try await page(query)
        if json { return try output.json(page) }
        for entry in page.requests.reversed() { output.line(ControlText.journalLine(entry)) }
        if page.evicted > 0 { output.error("(\(page.evicted) older entries were evicted by the journal's bounds)\n") }
    }

    /// Prints the last `--limit` entries (none without it), then each new matching entry as it is
    /// journalled, until the process is stopped or the task cancelled.
    func follow(server: URL) async throws {
        // The cursor is the newest entry of all, not of the filtered ones: anything journalled
        // after this point is newer, so nothing sent after the header line below can be missed.
        var cursor = try await page(JournalQuery(limit: 1)).requests.first?.id ?? 0
        if let limit = query.limit {
            var recent = query
            recent.before = cursor + 1
            recent.limit = limit
            try emit(try await page(recent).requests)
        }
        output.error("following the journal of \(project.map { "project \($0)" } ?? "every project") at \(server.absoluteString) (Ctrl-C to stop)\n")
        while !Task.isCancelled {
            var next = query
            next.since = cursor
            next.limit = Self.pageSize
            var entries = try await page(next, waitMs: Self.pollMilliseconds).requests
            // A full page means more are waiting between the cursor and its oldest entry: fetch them too.
            var batch = entries
            while batch.count == Self.pageSize, let oldest = batch.last?.id {
                var older = next
                older.before = oldest
                batch = try await page(older).requests
                entries += batch
            }
            try emit(entries)
            cursor = max(cursor, entries.first?.id ?? cursor)
        }
    }

    /// Entries oldest first, one line (or one compact JSON object) each.
    private func emit(_ newestFirst: [JournalEntry]) throws {
        for entry in newestFirst.sorted(by: { $0.id < $1.id }) {
            if json { try output.json(entry, pretty: false) } else { output.line(ControlText.journalLine(entry)) }
        }
    }
}

/// A local failure of a control command (a file it cannot read or write): exit 1.
struct ControlLocalError: Error, CustomStringConvertible {
    let description: String
}
