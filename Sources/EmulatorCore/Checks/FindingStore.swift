import Foundation
import Storage

/// One finding as stored: a rule broken on one installation, however often.
public struct Finding: Sendable, Equatable {
    /// The rule's id.
    public var rule: String
    /// The platform the requests went to.
    public var platform: PlatformID
    /// The installation (or user) it concerns.
    public var device: String
    /// When it was first and last seen (project clock).
    public var firstSeen: Date
    /// When it was last seen (project clock).
    public var lastSeen: Date
    /// How many times the rule was broken.
    public var count: Int
    /// Journal ids of the evidence, oldest first (at most `FindingStore.maxRequests`).
    public var requests: [Int]
    /// What the app did, the last time.
    public var whatTheAppDid: String
}

/// The findings and check settings of projects, in the main database: tables `findings` (one row
/// per project, rule and device) and `check_settings` (one document per project), both per-project
/// tables, so reset clears them and snapshots and bundles carry them.
struct FindingStore: Sendable {
    /// Journal ids kept per finding: the first occurrence's and the latest.
    static let maxRequests = 20

    let database: any Database

    /// Adds each finding's occurrences to its row, creating the row the first time, in one
    /// transaction. Batches may arrive out of order, so times take min and max.
    func record(_ batch: [(project: ProjectID, finding: Finding)]) async throws {
        try await database.write { connection in
            for (project, finding) in batch { try Self.record(finding, project: project, connection: connection) }
        }
    }

    private static func record(_ finding: Finding, project: ProjectID, connection: any StoreConnection) throws {
        let existing = try connection.queryOne(
            "SELECT first_seen_at, last_seen_at, count, requests, what_the_app_did FROM findings WHERE project_id = ? AND rule = ? AND device = ?",
            project, finding.rule, finding.device)
        let (first, last) = (finding.firstSeen.timeIntervalSince1970, finding.lastSeen.timeIntervalSince1970)
        guard let existing else {
            try connection.run(
                """
                INSERT INTO findings (project_id, rule, device, platform, first_seen_at, last_seen_at, count, requests, what_the_app_did)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, project, finding.rule, finding.device, finding.platform.rawValue, first, last, Int64(finding.count), text(finding.requests),
                finding.whatTheAppDid)
            return
        }
        let storedFirst: Double = try existing.decode("first_seen_at"), storedLast: Double = try existing.decode("last_seen_at")
        let stored: Int64 = try existing.decode("count")
        let sum = stored.addingReportingOverflow(Int64(finding.count))
        let count = sum.overflow ? Int64.max : sum.partialValue
        let requests = merged(ids(try existing.decode("requests")), finding.requests)
        let what: String = last >= storedLast ? finding.whatTheAppDid : try existing.decode("what_the_app_did")
        try connection.run(
            """
            UPDATE findings SET first_seen_at = ?, last_seen_at = ?, count = ?, requests = ?, what_the_app_did = ?
            WHERE project_id = ? AND rule = ? AND device = ?
            """, min(storedFirst, first), max(storedLast, last), count, text(requests), what,
            project, finding.rule, finding.device)
    }

    /// The project's findings, most recently seen first.
    func list(project: ProjectID) async throws -> [Finding] {
        try await database.read { connection in
            try connection.query(
                """
                SELECT rule, device, platform, first_seen_at, last_seen_at, count, requests, what_the_app_did FROM findings
                WHERE project_id = ? ORDER BY last_seen_at DESC, rule, device
                """, project
            ).map { row in
                Finding(
                    rule: try row.decode("rule"), platform: PlatformID(try row.decode("platform", as: String.self)), device: try row.decode("device"),
                    firstSeen: Self.date(try row.decode("first_seen_at")), lastSeen: Self.date(try row.decode("last_seen_at")),
                    count: Int(clamping: try row.decode("count", as: Int64.self)), requests: Self.ids(try row.decode("requests")),
                    whatTheAppDid: try row.decode("what_the_app_did"))
            }
        }
    }

    /// Deletes the project's findings.
    func clear(project: ProjectID) async throws {
        try await database.write { try $0.run("DELETE FROM findings WHERE project_id = ?", project) }
    }

    /// The project's stored check settings (none stored: the defaults).
    func settings(project: ProjectID) async throws -> CheckSettings {
        let text = try await database.read { connection in
            try connection.scalar("SELECT settings FROM check_settings WHERE project_id = ?", project).string
        }
        guard let text else { return CheckSettings() }
        return try CheckSettings.parse(try JSONValue.parse(Data(text.utf8)), known: nil)
    }

    /// Replaces the project's check settings.
    func save(_ settings: CheckSettings, project: ProjectID) async throws {
        let text = String(decoding: settings.document.encoded(), as: UTF8.self)
        try await database.write { connection in
            try connection.run(
                "INSERT INTO check_settings (project_id, settings) VALUES (?, ?) ON CONFLICT (project_id) DO UPDATE SET settings = excluded.settings",
                project, text)
        }
    }

    /// The first occurrence's ids, then the latest, within `maxRequests`, without repeats.
    static func merged(_ kept: [Int], _ new: [Int]) -> [Int] {
        var all = kept
        for id in new where !all.contains(id) { all.append(id) }
        guard all.count > maxRequests else { return all }
        let head = maxRequests / 2
        return Array(all.prefix(head) + all.suffix(maxRequests - head))
    }

    /// A stored time (a bundle may carry any number), held inside `Timestamp.range`.
    private static func date(_ seconds: Double) -> Date { Date(epochSeconds: seconds) ?? Timestamp.clamped(Date(timeIntervalSince1970: seconds.isNaN ? 0 : seconds)) }

    private static func text(_ ids: [Int]) -> String { String(decoding: JSONValue.array(ids.map { .int(Int64($0)) }).encoded(), as: UTF8.self) }

    private static func ids(_ text: String) -> [Int] {
        guard case .array(let items)? = try? JSONValue.parse(Data(text.utf8)) else { return [] } // an unreadable list shows no evidence, never an error
        return items.compactMap(\.intValue)
    }
}
