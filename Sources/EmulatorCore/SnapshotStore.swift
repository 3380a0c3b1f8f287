import Foundation
import Storage

/// A saved copy of one project's state.
public struct SnapshotInfo: Sendable, Codable, Equatable {
    /// The snapshot's name.
    public var name: String
    /// When it was taken (real time).
    public var createdAt: String
    /// Rows saved, all tables together.
    public var rows: Int
}

/// Saves and restores a project's rows in every per-project table, atomically, in the database
/// itself (no export step that a crash could lose).
public final class SnapshotStore: Sendable {
    private let services: EmulatorServices
    private let projects: ProjectStore
    private let platforms: [any Platform]

    init(services: EmulatorServices, projects: ProjectStore, platforms: [any Platform]) {
        self.services = services
        self.projects = projects
        self.platforms = platforms
    }

    private struct TableCopy: Codable {
        var columns: [String]
        var rows: [[JSONValue]]
    }

    private struct Payload: Codable {
        var tables: [String: TableCopy]
        var clock: ClockSettings
        var rowCount: Int
    }

    /// Saves the project's current state under `name`, replacing a snapshot of that name.
    public func save(project: ProjectID, name: String) async throws -> SnapshotInfo {
        let tables = projects.allProjectTables
        return try await services.database.write { connection in
            var payload = Payload(tables: [:], clock: .real, rowCount: 0)
            if let row = try connection.queryOne("SELECT * FROM projects WHERE id = ?", project) {
                payload.clock = try ClockStore.settings(from: row)
            }
            for table in tables {
                let rows = try connection.query("SELECT * FROM \(table) WHERE project_id = ?", project)
                payload.tables[table] = TableCopy(columns: rows.first?.columns ?? [], rows: rows.map { $0.values.map(TableRows.json) })
                payload.rowCount += rows.count
            }
            let created = Timestamp.format(Date())
            try connection.run(
                """
                INSERT INTO snapshots (project_id, name, created_at, data) VALUES (?, ?, ?, ?)
                ON CONFLICT (project_id, name) DO UPDATE SET created_at = excluded.created_at, data = excluded.data
                """, project, name, created, try JSONEncoder().encode(payload))
            return SnapshotInfo(name: name, createdAt: created, rows: payload.rowCount)
        }
    }

    /// The project's snapshots, oldest first.
    public func list(project: ProjectID) async throws -> [SnapshotInfo] {
        try await services.database.read { connection in
            try connection.query("SELECT name, created_at, data FROM snapshots WHERE project_id = ? ORDER BY created_at, name", project).map { row in
                let payload = try JSONDecoder().decode(Payload.self, from: try row.decode("data", as: Data.self))
                return SnapshotInfo(name: try row.decode("name"), createdAt: try row.decode("created_at"), rows: payload.rowCount)
            }
        }
    }

    /// Replaces the project's state with the snapshot, in one transaction. False when there is no such snapshot.
    public func restore(project: ProjectID, name: String) async throws -> Bool {
        let tables = projects.allProjectTables
        let clock = try await services.database.write { connection -> ClockSettings? in
            guard let data = try connection.queryOne("SELECT data FROM snapshots WHERE project_id = ? AND name = ?", project, name)?.data("data") else {
                return nil
            }
            let payload = try JSONDecoder().decode(Payload.self, from: data)
            for table in tables.reversed() { try connection.run("DELETE FROM \(table) WHERE project_id = ?", project) }
            for table in tables {
                guard let copy = payload.tables[table] else { continue }
                try TableRows.insert(into: table, columns: copy.columns, rows: copy.rows, connection: connection)
            }
            try ClockStore.save(payload.clock, project: project, connection: connection)
            return payload.clock
        }
        guard let clock else { return false }
        services.clocks.update(project, clock)
        for platform in platforms { await platform.projectStateDidChange(project) }
        return true
    }

    /// Deletes a snapshot; false when there was none.
    public func delete(project: ProjectID, name: String) async throws -> Bool {
        try await services.database.write { try $0.run("DELETE FROM snapshots WHERE project_id = ? AND name = ?", project, name) > 0 }
    }
}
