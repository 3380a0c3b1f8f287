import EmulatorCore
import Foundation
import Storage

/// All of WarpLink's SQL, against its own tables. A store wraps the connection of the caller's
/// transaction, so one request is one transaction; every method takes the project first.
public struct WarpLinkStore {
    /// The connection of the current transaction.
    public let connection: any StoreConnection

    /// A store over `connection`.
    public init(connection: any StoreConnection) { self.connection = connection }

    /// Bucket length cap of [W-M1].
    public static let bucketCapacity = 10

    // MARK: Projects

    /// Whether a project with this id exists (auto-provisioning must not invent one).
    public func projectExists(_ project: ProjectID) throws -> Bool {
        try connection.scalar("SELECT 1 FROM projects WHERE id = ?", project).int != nil
    }

    /// Whether another project was issued `value` as its WarpLink credential (so the key is taken).
    public func isIssuedCredential(_ value: String, toOtherThan project: ProjectID) throws -> Bool {
        try connection.scalar("SELECT 1 FROM project_credentials WHERE platform = 'warplink' AND value = ? AND project_id != ?", value, project).int != nil
    }

    // MARK: Settings

    /// The project's stored settings document, or nil when it has none.
    public func settingsDocument(_ project: ProjectID) throws -> JSONValue? {
        guard let text = try connection.scalar("SELECT settings FROM warplink_settings WHERE project_id = ?", project).string else { return nil }
        return try JSONValue.parse(Data(text.utf8))
    }

    /// Stores the project's settings document.
    public func saveSettingsDocument(_ document: JSONValue, project: ProjectID) throws {
        try connection.run(
            """
            INSERT INTO warplink_settings (project_id, settings) VALUES (?, ?)
            ON CONFLICT (project_id) DO UPDATE SET settings = excluded.settings
            """, project, String(decoding: document.encoded(), as: UTF8.self))
    }

    // MARK: Apps

    /// All apps, oldest first.
    public func apps(_ project: ProjectID) throws -> [AppRecord] {
        try connection.fetchAll(AppRecord.self, "SELECT * FROM warplink_apps WHERE project_id = ? ORDER BY created_at, id", project)
    }

    /// One app.
    public func app(_ project: ProjectID, id: String) throws -> AppRecord? {
        try connection.fetchOne(AppRecord.self, "SELECT * FROM warplink_apps WHERE project_id = ? AND id = ?", project, id)
    }

    /// The project owning handle `handle` (handles are unique server-wide).
    public func project(forHandle handle: String) throws -> ProjectID? {
        try connection.scalar("SELECT project_id FROM warplink_apps WHERE handle = ?", handle).string
    }

    /// Inserts an app.
    public func insert(_ app: AppRecord, project: ProjectID) throws {
        try connection.run(
            """
            INSERT INTO warplink_apps (project_id, id, name, handle, ios_bundle_id, android_package_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, project, app.id, app.name, app.handle, app.iosBundleID, app.androidPackageName, WarpLinkTime.format(app.createdAt))
    }

    /// What still points at app `id` (`keys`, `domains` or `links`), or nil when nothing does.
    public func firstDependent(ofApp id: String, project: ProjectID) throws -> String? {
        for table in ["keys", "domains", "links"] {
            if try connection.scalar("SELECT 1 FROM warplink_\(table) WHERE project_id = ? AND app_id = ? LIMIT 1", project, id).int != nil {
                return table
            }
        }
        return nil
    }

    /// Deletes an app; false when there was none.
    public func deleteApp(_ project: ProjectID, id: String) throws -> Bool {
        try connection.run("DELETE FROM warplink_apps WHERE project_id = ? AND id = ?", project, id) > 0
    }

    // MARK: Keys

    /// A key by value, in whichever project holds it.
    public func key(_ value: String) throws -> KeyRecord? {
        try connection.fetchOne(KeyRecord.self, "SELECT * FROM warplink_keys WHERE value = ?", value)
    }

    /// The project's keys, oldest first.
    public func keys(_ project: ProjectID) throws -> [KeyRecord] {
        try connection.fetchAll(KeyRecord.self, "SELECT * FROM warplink_keys WHERE project_id = ? ORDER BY created_at, value", project)
    }

    /// Inserts a key; `ignoreExisting` keeps the project's own existing row (re-provisioning after
    /// a reset) while a value held by another project still fails the unique index.
    public func insert(_ key: KeyRecord, ignoreExisting: Bool = false) throws {
        let onConflict = ignoreExisting ? " ON CONFLICT (project_id, value) DO NOTHING" : ""
        try connection.run(
            """
            INSERT INTO warplink_keys (project_id, value, kind, scopes, app_id, state, name, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """ + onConflict,
            key.projectID, key.value, key.kind.rawValue, key.scopes.joined(separator: " "), key.appID, key.state.rawValue, key.name,
            WarpLinkTime.format(key.createdAt), key.revokedAt.map { WarpLinkTime.format($0) })
    }

    /// Sets a key's state (stamping `revoked_at` on revocation); false when the project has no such key.
    public func setKeyState(_ project: ProjectID, value: String, state: KeyState, at now: Date) throws -> Bool {
        try connection.run(
            "UPDATE warplink_keys SET state = ?, revoked_at = ? WHERE project_id = ? AND value = ?",
            state.rawValue, state == .revoked ? WarpLinkTime.format(now) : nil, project, value) > 0
    }

    /// Deletes a key; false when there was none.
    public func deleteKey(_ project: ProjectID, value: String) throws -> Bool {
        try connection.run("DELETE FROM warplink_keys WHERE project_id = ? AND value = ?", project, value) > 0
    }

    // MARK: Domains

    /// The project's custom domains.
    public func domains(_ project: ProjectID) throws -> [DomainRecord] {
        try connection.fetchAll(DomainRecord.self, "SELECT * FROM warplink_domains WHERE project_id = ? ORDER BY created_at, hostname", project)
    }

    /// A custom domain of the project.
    public func domain(_ project: ProjectID, hostname: String) throws -> DomainRecord? {
        try connection.fetchOne(DomainRecord.self, "SELECT * FROM warplink_domains WHERE project_id = ? AND hostname = ?", project, hostname)
    }

    /// Whether any project has configured `hostname` (custom domains are unique server-wide).
    public func isDomainConfigured(_ hostname: String) throws -> Bool {
        try connection.scalar("SELECT 1 FROM warplink_domains WHERE hostname = ?", hostname).int != nil
    }

    /// Every custom domain on the server with its project (for Host routing).
    public func allDomainOwners() throws -> [String: ProjectID] {
        var owners: [String: ProjectID] = [:]
        for row in try connection.query("SELECT hostname, project_id FROM warplink_domains") {
            owners[try row.decode("hostname")] = try row.decode("project_id", as: String.self)
        }
        return owners
    }

    /// Inserts a custom domain.
    public func insert(_ domain: DomainRecord, project: ProjectID) throws {
        try connection.run(
            "INSERT INTO warplink_domains (project_id, hostname, state, app_id, created_at) VALUES (?, ?, ?, ?, ?)",
            project, domain.hostname, domain.state.rawValue, domain.appID, WarpLinkTime.format(domain.createdAt))
    }

    /// Sets a domain's state; false when there is none.
    public func setDomainState(_ project: ProjectID, hostname: String, state: DomainState) throws -> Bool {
        try connection.run("UPDATE warplink_domains SET state = ? WHERE project_id = ? AND hostname = ?", state.rawValue, project, hostname) > 0
    }

    /// Deletes a domain; false when there was none.
    public func deleteDomain(_ project: ProjectID, hostname: String) throws -> Bool {
        try connection.run("DELETE FROM warplink_domains WHERE project_id = ? AND hostname = ?", project, hostname) > 0
    }
}
