import Foundation
import Storage

/// The journal by app installation: the devices a project's requests named and one device's
/// requests in order, read through the `journal_device` index.
extension Journal {
    /// One app installation as the journal saw it.
    public struct DeviceSummary: Sendable, Equatable {
        /// The platform whose requests named it.
        public var platform: String
        /// The device, as the platform's `observe` step names it.
        public var device: String
        /// When its first and last journalled requests arrived (real time, ISO 8601).
        public var firstSeen: String
        /// See `firstSeen`.
        public var lastSeen: String
        /// How many journalled requests named it.
        public var requests: Int
    }

    /// The devices `project`'s journalled requests named, most recently seen first; of one platform when given.
    public func devices(project: ProjectID, platform: String? = nil) async throws -> [DeviceSummary] {
        try await summaries(project: project, platform: platform, device: nil)
    }

    /// One device of `platform`, nil when no journalled request of the project names it.
    public func device(project: ProjectID, platform: String, device: String) async throws -> DeviceSummary? {
        try await summaries(project: project, platform: platform, device: device).first
    }

    private func summaries(project: ProjectID, platform: String?, device: String?) async throws -> [DeviceSummary] {
        try await flush()
        return try await database.readOnPool { connection in
            // Whole statements, so each prepares as written on both backends.
            let rows: [Row]
            if let device, let platform {
                rows = try connection.query(
                    """
                    SELECT platform, device, min(time) AS first_seen, max(time) AS last_seen, count(*) AS requests
                    FROM journal WHERE project_id = ? AND device = ? AND platform = ? GROUP BY platform, device
                    """, project, device, platform)
            } else {
                rows = try connection.query(
                    """
                    SELECT platform, device, min(time) AS first_seen, max(time) AS last_seen, count(*) AS requests
                    FROM journal WHERE project_id = ? AND device IS NOT NULL AND (? IS NULL OR platform = ?)
                    GROUP BY platform, device ORDER BY max(id) DESC
                    """, project, platform, platform)
            }
            return try rows.map { row in
                DeviceSummary(
                    platform: try row.decode("platform"), device: try row.decode("device"), firstSeen: try row.decode("first_seen"),
                    lastSeen: try row.decode("last_seen"), requests: try row.decode("requests"))
            }
        }
    }

    /// The journalled requests of one device, oldest first: at most `limit`, after the journal id
    /// `after` when given.
    public func timeline(project: ProjectID, platform: String, device: String, after: Int?, limit: Int) async throws -> [JournalEntry] {
        try await flush()
        return try await database.readOnPool { connection in
            try connection.query(
                "SELECT " + Self.entryColumns
                    + " FROM journal WHERE project_id = ? AND device = ? AND platform = ? AND id > ? ORDER BY id LIMIT ?",
                bindings: [project, device, platform, after ?? 0, limit]
            ).map { try self.entry($0) }
        }
    }
}
