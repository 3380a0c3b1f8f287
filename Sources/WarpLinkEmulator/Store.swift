import EmulatorCore
import Foundation
import SQLiteStore

/// WarpLink's SQL, against its own tables only. Every function takes the connection of the
/// caller's transaction, so one request is one transaction.
public enum WarpLinkStore {
    /// Bucket length cap of [W-M1].
    public static let bucketCapacity = 10

    // MARK: Settings

    /// The project's matching settings (`defaults`, the server-wide ones, when none are stored).
    public static func settings(_ project: ProjectID, defaults: MatchingSettings = MatchingSettings(), _ connection: SQLiteConnection) throws -> MatchingSettings {
        guard let text = try connection.scalar("SELECT settings FROM warplink_settings WHERE project_id = ?", project).string else {
            return defaults
        }
        return (try? JSONDecoder().decode(MatchingSettings.self, from: Data(text.utf8))) ?? defaults
    }

    /// Stores the project's matching settings.
    public static func saveSettings(_ settings: MatchingSettings, project: ProjectID, _ connection: SQLiteConnection) throws {
        let text = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        try connection.run("INSERT INTO warplink_settings (project_id, settings) VALUES (?, ?) ON CONFLICT (project_id) DO UPDATE SET settings = excluded.settings",
                           project, text)
    }

    // MARK: Apps

    /// All apps, oldest first.
    public static func apps(_ project: ProjectID, _ connection: SQLiteConnection) throws -> [AppRecord] {
        try connection.query("SELECT * FROM warplink_apps WHERE project_id = ? ORDER BY created_at, id", project).map(app)
    }

    /// One app.
    public static func app(_ project: ProjectID, id: String, _ connection: SQLiteConnection) throws -> AppRecord? {
        try connection.queryOne("SELECT * FROM warplink_apps WHERE project_id = ? AND id = ?", project, id).map(app)
    }

    /// The project owning handle `handle`.
    public static func project(forHandle handle: String, _ connection: SQLiteConnection) throws -> ProjectID? {
        try connection.scalar("SELECT project_id FROM warplink_apps WHERE handle = ?", handle).string
    }

    /// Inserts an app.
    public static func insert(_ app: AppRecord, project: ProjectID, _ connection: SQLiteConnection) throws {
        try connection.run("INSERT INTO warplink_apps (project_id, id, name, handle, ios_bundle_id, android_package_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                           project, app.id, app.name, app.handle, app.iosBundleID, app.androidPackageName, WarpLinkTime.format(app.createdAt))
    }

    /// Deletes an app; false when there was none.
    public static func deleteApp(_ project: ProjectID, id: String, _ connection: SQLiteConnection) throws -> Bool {
        try connection.run("DELETE FROM warplink_apps WHERE project_id = ? AND id = ?", project, id) > 0
    }

    private static func app(_ row: Row) -> AppRecord {
        AppRecord(id: row.string("id") ?? "", name: row.string("name") ?? "", handle: row.string("handle") ?? "",
                  iosBundleID: row.string("ios_bundle_id"), androidPackageName: row.string("android_package_name"),
                  createdAt: date(row.string("created_at")))
    }

    // MARK: Keys

    /// A key by value, in whichever project holds it.
    public static func key(_ value: String, _ connection: SQLiteConnection) throws -> KeyRecord? {
        try connection.queryOne("SELECT * FROM warplink_keys WHERE value = ?", value).map(key)
    }

    /// The project's keys, oldest first.
    public static func keys(_ project: ProjectID, _ connection: SQLiteConnection) throws -> [KeyRecord] {
        try connection.query("SELECT * FROM warplink_keys WHERE project_id = ? ORDER BY created_at, value", project).map(key)
    }

    /// Inserts a key; `ignoreExisting` keeps the project's own existing row (re-provisioning after
    /// a reset) while a value held by another project still fails the unique index.
    public static func insert(_ key: KeyRecord, ignoreExisting: Bool = false, _ connection: SQLiteConnection) throws {
        let onConflict = ignoreExisting ? " ON CONFLICT (project_id, value) DO NOTHING" : ""
        try connection.run("INSERT INTO warplink_keys (project_id, value, kind, scopes, app_id, state, name, created_at, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)" + onConflict,
                           key.projectID, key.value, key.kind, key.scopes.joined(separator: " "), key.appID, key.state, key.name,
                           WarpLinkTime.format(key.createdAt), key.revokedAt.map { WarpLinkTime.format($0) })
    }

    /// Sets a key's state; false when the project has no such key.
    public static func setKeyState(_ project: ProjectID, value: String, state: String, at now: Date, _ connection: SQLiteConnection) throws -> Bool {
        try connection.run("UPDATE warplink_keys SET state = ?, revoked_at = ? WHERE project_id = ? AND value = ?",
                           state, state == "revoked" ? WarpLinkTime.format(now) : nil, project, value) > 0
    }

    /// Deletes a key; false when there was none.
    public static func deleteKey(_ project: ProjectID, value: String, _ connection: SQLiteConnection) throws -> Bool {
        try connection.run("DELETE FROM warplink_keys WHERE project_id = ? AND value = ?", project, value) > 0
    }

    private static func key(_ row: Row) -> KeyRecord {
        KeyRecord(projectID: row.string("project_id") ?? "", value: row.string("value") ?? "", kind: row.string("kind") ?? "sdk",
                  scopes: (row.string("scopes") ?? "").split(separator: " ").map(String.init), appID: row.string("app_id"),
                  state: row.string("state") ?? "active", name: row.string("name"), createdAt: date(row.string("created_at")),
                  revokedAt: row.string("revoked_at").flatMap(Timestamp.parse))
    }

    // MARK: Domains

    /// The project's custom domains.
    public static func domains(_ project: ProjectID, _ connection: SQLiteConnection) throws -> [DomainRecord] {
        try connection.query("SELECT * FROM warplink_domains WHERE project_id = ? ORDER BY created_at, hostname", project).map(domain)
    }

    /// A custom domain of the project.
    public static func domain(_ project: ProjectID, hostname: String, _ connection: SQLiteConnection) throws -> DomainRecord? {
        try connection.queryOne("SELECT * FROM warplink_domains WHERE project_id = ? AND hostname = ?", project, hostname).map(domain)
    }

    /// Every custom domain on the server with its project (for Host routing).
    public static func allDomainOwners(_ connection: SQLiteConnection) throws -> [String: ProjectID] {
        var owners: [String: ProjectID] = [:]
        for row in try connection.query("SELECT hostname, project_id FROM warplink_domains") {
            owners[row.string("hostname") ?? ""] = row.string("project_id")
        }
        return owners
    }

    /// Inserts a custom domain.
    public static func insert(_ domain: DomainRecord, project: ProjectID, _ connection: SQLiteConnection) throws {
        try connection.run("INSERT INTO warplink_domains (project_id, hostname, state, app_id, created_at) VALUES (?, ?, ?, ?, ?)",
                           project, domain.hostname, domain.state, domain.appID, WarpLinkTime.format(domain.createdAt))
    }

    /// Sets a domain's state; false when there is none.
    public static func setDomainState(_ project: ProjectID, hostname: String, state: String, _ connection: SQLiteConnection) throws -> Bool {
        try connection.run("UPDATE warplink_domains SET state = ? WHERE project_id = ? AND hostname = ?", state, project, hostname) > 0
    }

    /// Deletes a domain; false when there was none.
    public static func deleteDomain(_ project: ProjectID, hostname: String, _ connection: SQLiteConnection) throws -> Bool {
        try connection.run("DELETE FROM warplink_domains WHERE project_id = ? AND hostname = ?", project, hostname) > 0
    }

    private static func domain(_ row: Row) -> DomainRecord {
        DomainRecord(hostname: row.string("hostname") ?? "", state: row.string("state") ?? "verified", appID: row.string("app_id"),
                     createdAt: date(row.string("created_at")))
    }

    // MARK: Links

    /// The link at (domain, slug) in the project.
    public static func link(_ project: ProjectID, domain: String, slug: String, _ connection: SQLiteConnection) throws -> LinkRecord? {
        try connection.queryOne("SELECT * FROM warplink_links WHERE project_id = ? AND domain = ? AND slug = ?", project, domain, slug).map(link)
    }

    /// The project's links with `slug` on any domain.
    public static func links(_ project: ProjectID, slug: String, _ connection: SQLiteConnection) throws -> [LinkRecord] {
        try connection.query("SELECT * FROM warplink_links WHERE project_id = ? AND slug = ?", project, slug).map(link)
    }

    /// A link by id.
    public static func link(_ project: ProjectID, id: String, _ connection: SQLiteConnection) throws -> LinkRecord? {
        try connection.queryOne("SELECT * FROM warplink_links WHERE project_id = ? AND id = ?", project, id).map(link)
    }

    /// All links, oldest first.
    public static func links(_ project: ProjectID, _ connection: SQLiteConnection) throws -> [LinkRecord] {
        try connection.query("SELECT * FROM warplink_links WHERE project_id = ? ORDER BY created_at, id", project).map(link)
    }

    /// One page of links, oldest first.
    public static func links(_ project: ProjectID, limit: Int, offset: Int, _ connection: SQLiteConnection) throws -> [LinkRecord] {
        try connection.query("SELECT * FROM warplink_links WHERE project_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?", project, limit, offset).map(link)
    }

    /// How many links the project has.
    public static func linkCount(_ project: ProjectID, _ connection: SQLiteConnection) throws -> Int {
        try connection.scalar("SELECT count(*) FROM warplink_links WHERE project_id = ?", project).int ?? 0
    }

    /// The project whose link at (domain, slug) was created last (the redirect has no key).
    public static func project(forLinkAt domain: String, slug: String, _ connection: SQLiteConnection) throws -> ProjectID? {
        try connection.scalar("SELECT project_id FROM warplink_links WHERE domain = ? AND slug = ? ORDER BY created_at DESC LIMIT 1", domain, slug).string
    }

    /// Inserts or replaces a link (same project and id).
    public static func save(_ link: LinkRecord, project: ProjectID, _ connection: SQLiteConnection) throws {
        let params = String(decoding: link.customParams.encoded(), as: UTF8.self)
        let tags = String(decoding: JSONValue.array(link.tags.map(JSONValue.string)).encoded(), as: UTF8.self)
        try connection.run("""
            INSERT INTO warplink_links (project_id, id, app_id, slug, domain, destination_url, ios_url, ios_fallback_url, android_url,
                android_fallback_url, custom_params, tags, password, expires_at, is_active, match_window_hours, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (project_id, id) DO UPDATE SET app_id = excluded.app_id, slug = excluded.slug, domain = excluded.domain,
                destination_url = excluded.destination_url, ios_url = excluded.ios_url, ios_fallback_url = excluded.ios_fallback_url,
                android_url = excluded.android_url, android_fallback_url = excluded.android_fallback_url, custom_params = excluded.custom_params,
                tags = excluded.tags, password = excluded.password, expires_at = excluded.expires_at, is_active = excluded.is_active,
                match_window_hours = excluded.match_window_hours, updated_at = excluded.updated_at
            """, bindings: [project, link.id, link.appID, link.slug, link.domain, link.destinationURL, link.iosURL, link.iosFallbackURL,
                            link.androidURL, link.androidFallbackURL, params, tags, link.password, link.expiresAt.map { WarpLinkTime.format($0) },
                            link.isActive, link.matchWindowHours, WarpLinkTime.format(link.createdAt), WarpLinkTime.format(link.updatedAt)])
    }

    /// Deletes a link (clicks and installs keep its id, which is how routeless matches arise).
    public static func deleteLink(_ project: ProjectID, id: String, _ connection: SQLiteConnection) throws -> Bool {
        try connection.run("DELETE FROM warplink_links WHERE project_id = ? AND id = ?", project, id) > 0
    }

    private static func link(_ row: Row) -> LinkRecord {
        let params = row.string("custom_params").flatMap { try? JSONValue.parse(Data($0.utf8)) } ?? [:]
        let tags = row.string("tags").flatMap { try? JSONValue.parse(Data($0.utf8)) }?.arrayValue?.compactMap(\.stringValue) ?? []
        return LinkRecord(id: row.string("id") ?? "", appID: row.string("app_id"), slug: row.string("slug") ?? "", domain: row.string("domain") ?? "",
                          destinationURL: row.string("destination_url") ?? "", iosURL: row.string("ios_url"), iosFallbackURL: row.string("ios_fallback_url"),
                          androidURL: row.string("android_url"), androidFallbackURL: row.string("android_fallback_url"), customParams: params,
                          tags: tags, password: row.string("password"), expiresAt: row.string("expires_at").flatMap(Timestamp.parse),
                          isActive: row.bool("is_active") ?? true, matchWindowHours: row.int("match_window_hours"),
                          createdAt: date(row.string("created_at")), updatedAt: date(row.string("updated_at")))
    }

    // MARK: Clicks

    /// Inserts a click and, unless it is a resolve click, files it under its buckets (trimming
    /// each to its 10 newest). Returns false when a click with the same id exists (tap-id dedupe).
    @discardableResult
    public static func insert(_ click: ClickRecord, project: ProjectID, _ connection: SQLiteConnection) throws -> Bool {
        let params = String(decoding: click.customParams.encoded(), as: UTF8.self)
        let inserted = try connection.run("""
            INSERT OR IGNORE INTO warplink_clicks (project_id, id, link_id, app_id, source, ip, accept_language, language, timezone, timezone_offset,
                device_id, fingerprint, user_agent, tap_id, destination_url, ios_url, android_url, custom_params, clicked_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, bindings: [project, click.id, click.linkID, click.appID, click.source, click.ip, click.acceptLanguage, click.language,
                            click.timezone, click.timezoneOffset, click.deviceID, click.fingerprint, click.userAgent, click.tapID,
                            click.destinationURL, click.iosURL, click.androidURL, params, click.clickedAt.timeIntervalSince1970]) > 0
        guard inserted else { return false }
        for bucket in click.bucketKeys() {
            try connection.run("INSERT INTO warplink_click_buckets (project_id, bucket, click_id, clicked_at) VALUES (?, ?, ?, ?)",
                               project, bucket, click.id, click.clickedAt.timeIntervalSince1970)
            try connection.run("""
                DELETE FROM warplink_click_buckets WHERE project_id = ? AND bucket = ? AND seq NOT IN (
                    SELECT seq FROM warplink_click_buckets WHERE project_id = ? AND bucket = ? ORDER BY clicked_at DESC, seq DESC LIMIT ?)
                """, project, bucket, project, bucket, bucketCapacity)
        }
        return true
    }

    /// The clicks filed under `bucket`, newest first.
    public static func bucket(_ project: ProjectID, _ bucket: String, _ connection: SQLiteConnection) throws -> [ClickRecord] {
        try connection.query("""
            SELECT c.* FROM warplink_click_buckets b JOIN warplink_clicks c ON c.project_id = b.project_id AND c.id = b.click_id
            WHERE b.project_id = ? AND b.bucket = ? AND c.claimed_by IS NULL ORDER BY b.clicked_at DESC, b.seq DESC
            """, project, bucket).map(click)
    }

    /// Unclaimed, non-resolve clicks carrying `deviceID`, newest first.
    public static func clicks(_ project: ProjectID, deviceID: String, _ connection: SQLiteConnection) throws -> [ClickRecord] {
        try connection.query("""
            SELECT * FROM warplink_clicks WHERE project_id = ? AND device_id = ? COLLATE NOCASE AND claimed_by IS NULL AND source != 'resolve'
            ORDER BY clicked_at DESC, seq DESC
            """, project, deviceID).map(click)
    }

    /// Unclaimed clicks carrying `fingerprint`, newest first.
    public static func clicks(_ project: ProjectID, fingerprint: String, _ connection: SQLiteConnection) throws -> [ClickRecord] {
        try connection.query("""
            SELECT * FROM warplink_clicks WHERE project_id = ? AND fingerprint = ? AND claimed_by IS NULL AND source != 'resolve'
            ORDER BY clicked_at DESC, seq DESC
            """, project, fingerprint).map(click)
    }

    /// Marks a click claimed by an install and removes it from every bucket.
    public static func claim(_ project: ProjectID, clickID: String, install: String, at now: Date, _ connection: SQLiteConnection) throws {
        try connection.run("UPDATE warplink_clicks SET claimed_by = ?, claimed_at = ? WHERE project_id = ? AND id = ?",
                           install, now.timeIntervalSince1970, project, clickID)
        try connection.run("DELETE FROM warplink_click_buckets WHERE project_id = ? AND click_id = ?", project, clickID)
    }

    /// Clicks, newest first, optionally of one link or source.
    public static func clicks(_ project: ProjectID, linkID: String?, source: String?, limit: Int, _ connection: SQLiteConnection) throws -> [ClickRecord] {
        try connection.query("""
            SELECT * FROM warplink_clicks WHERE project_id = ? AND (? IS NULL OR link_id = ?) AND (? IS NULL OR source = ?)
            ORDER BY clicked_at DESC, seq DESC LIMIT ?
            """, project, linkID, linkID, source, source, limit).map(click)
    }

    private static func click(_ row: Row) -> ClickRecord {
        ClickRecord(id: row.string("id") ?? "", linkID: row.string("link_id") ?? "", appID: row.string("app_id"), source: row.string("source") ?? "seed",
                    ip: row.string("ip"), acceptLanguage: row.string("accept_language"), language: row.string("language"),
                    timezone: row.string("timezone"), timezoneOffset: row.int("timezone_offset"), deviceID: row.string("device_id"),
                    fingerprint: row.string("fingerprint"), userAgent: row.string("user_agent"), tapID: row.string("tap_id"),
                    destinationURL: row.string("destination_url"), iosURL: row.string("ios_url"), androidURL: row.string("android_url"),
                    customParams: row.string("custom_params").flatMap { try? JSONValue.parse(Data($0.utf8)) } ?? [:],
                    clickedAt: Date(timeIntervalSince1970: row.double("clicked_at") ?? 0), claimedBy: row.string("claimed_by"),
                    claimedAt: row.double("claimed_at").map { Date(timeIntervalSince1970: $0) })
    }

    // MARK: Installs

    /// Inserts an install record.
    public static func insert(_ install: InstallRecord, project: ProjectID, _ connection: SQLiteConnection) throws {
        try connection.run("""
            INSERT INTO warplink_installs (project_id, id, app_id, platform, sdk_version, device_id, is_reinstall, outcome, matched, match_type,
                match_confidence, link_id, click_id, tap_id, ip, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, bindings: [project, install.id, install.appID, install.platform, install.sdkVersion, install.deviceID, install.isReinstall,
                            install.outcome, install.matched, install.matchType, install.matchConfidence, install.linkID, install.clickID,
                            install.tapID, install.ip, install.source, install.createdAt.timeIntervalSince1970])
    }

    /// The newest attributed install of the app carrying `deviceID`.
    public static func latestAttributedInstall(_ project: ProjectID, appID: String?, deviceID: String, _ connection: SQLiteConnection) throws -> InstallRecord? {
        try connection.queryOne("""
            SELECT * FROM warplink_installs WHERE project_id = ? AND device_id = ? COLLATE NOCASE AND link_id IS NOT NULL AND app_id IS ?
            ORDER BY created_at DESC, seq DESC LIMIT 1
            """, project, deviceID, appID).map(install)
    }

    /// Installs, newest first.
    public static func installs(_ project: ProjectID, limit: Int, _ connection: SQLiteConnection) throws -> [InstallRecord] {
        try connection.query("SELECT * FROM warplink_installs WHERE project_id = ? ORDER BY created_at DESC, seq DESC LIMIT ?", project, limit).map(install)
    }

    private static func install(_ row: Row) -> InstallRecord {
        InstallRecord(id: row.string("id") ?? "", appID: row.string("app_id"), platform: row.string("platform"), sdkVersion: row.string("sdk_version"),
                      deviceID: row.string("device_id"), isReinstall: row.bool("is_reinstall"), outcome: row.string("outcome") ?? "no_match",
                      matched: row.bool("matched") ?? false, matchType: row.string("match_type"), matchConfidence: row.double("match_confidence"),
                      linkID: row.string("link_id"), clickID: row.string("click_id"), tapID: row.string("tap_id"), ip: row.string("ip"),
                      source: row.string("source") ?? "sdk", createdAt: Date(timeIntervalSince1970: row.double("created_at") ?? 0))
    }

    private static func date(_ text: String?) -> Date { text.flatMap(Timestamp.parse) ?? Date(timeIntervalSince1970: 0) }
}
