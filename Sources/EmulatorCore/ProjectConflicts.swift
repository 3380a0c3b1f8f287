import Foundation
import Storage

/// What a new project's id or credentials collide with, found by query inside the transaction
/// that writes the project and told in the control plane's words: which project, which
/// credential. The database's unique indexes stay the guard against a concurrent writer (another
/// instance on a shared PostgreSQL database); these checks only make the common case readable,
/// where SQLite's and PostgreSQL's own texts name tables and columns.
enum ProjectConflicts {
    /// The stored project whose id equals `id` ignoring case (itself when stored exactly so), or nil.
    /// Ids are ASCII, so SQL's `lower` and Swift's agree.
    static func project(matching id: ProjectID, connection: any StoreConnection) throws -> ProjectID? {
        try connection.scalar("SELECT id FROM projects WHERE lower(id) = lower(?)", id).string
    }

    /// 409 when `id` is taken, exactly or ignoring case. `remedy` ends the message (how the caller
    /// can get past it: replace the project, choose another id).
    static func checkID(_ id: ProjectID, remedy: (ProjectID) -> String?, connection: any StoreConnection) throws {
        guard let existing = try project(matching: id, connection: connection) else { return }
        throw idTaken(id, by: existing, remedy: remedy(existing))
    }

    /// The 409 for `id` when `existing` holds it (the same id, or one differing only in case).
    static func idTaken(_ id: ProjectID, by existing: ProjectID, remedy: String?) -> AdminError {
        let what =
            existing == id
            ? "Project `\(id)` already exists"
            : "Project id `\(id)` differs only in case from project `\(existing)`, which exists; project ids are unique ignoring case"
        return AdminError(
            status: 409, code: "conflict", message: what + (remedy.map { "; \($0)." } ?? "."),
            details: ["project": .string(existing)])
    }

    /// 409 `credential_conflict` when a project other than `owner` already uses one of `credentials`.
    static func checkCredentials(
        _ credentials: [PlatformID: [String: String]], platforms: [any Platform], owner: ProjectID,
        remedy: (ProjectID) -> String?, connection: any StoreConnection
    ) throws {
        for platform in platforms {
            for (name, value) in (credentials[platform.id] ?? [:]).sorted(by: { $0.key < $1.key }) {
                let holder = try connection.scalar(
                    "SELECT project_id FROM project_credentials WHERE platform = ? AND value = ?",
                    platform.id.rawValue, value
                ).string
                guard let holder, holder != owner else { continue }
                throw credentialTaken(platform: platform.id, name: name, value: value, by: holder, remedy: remedy(holder))
            }
        }
    }

    /// The 409 for credential `platform.name` of value `value`, which project `holder` uses.
    static func credentialTaken(platform: PlatformID, name: String, value: String, by holder: ProjectID, remedy: String?) -> AdminError {
        AdminError(
            status: 409, code: "credential_conflict",
            message: "Credential `\(platform.rawValue).\(name)` (`\(shortened(value))`) is already used by project `\(holder)`"
                + (remedy.map { "; \($0)." } ?? "."),
            details: ["platform": .string(platform.rawValue), "name": .string(name), "project": .string(holder)])
    }

    /// Enough of a credential to tell which it is, without copying a whole key into CI logs.
    static func shortened(_ value: String) -> String {
        value.count > 12 ? String(value.prefix(8)) + "…" : value
    }

    /// Projects whose ids differ only in case, each set sorted and the sets by their first id:
    /// only a database written before ids were unique ignoring case (migration 0300) holds any.
    static func idsDifferingOnlyInCase(_ ids: [ProjectID]) -> [[ProjectID]] {
        Dictionary(grouping: ids) { $0.lowercased() }.values.filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }
}
