import EmulatorCore
import Foundation
import Storage

/// Links, clicks (with their deferred-match buckets) and installs.
extension WarpLinkStore {
    // MARK: Links

    /// The link at (domain, slug) in the project.
    public func link(_ project: ProjectID, domain: String, slug: String) throws -> LinkRecord? {
        try connection.fetchOne(LinkRecord.self, "SELECT * FROM warplink_links WHERE project_id = ? AND domain = ? AND slug = ?", project, domain, slug)
    }

    /// The project's links with `slug` on any domain.
    public func links(_ project: ProjectID, slug: String) throws -> [LinkRecord] {
        try connection.fetchAll(LinkRecord.self, "SELECT * FROM warplink_links WHERE project_id = ? AND slug = ?", project, slug)
    }

    /// A link by id.
    public func link(_ project: ProjectID, id: String) throws -> LinkRecord? {
        try connection.fetchOne(LinkRecord.self, "SELECT * FROM warplink_links WHERE project_id = ? AND id = ?", project, id)
    }

    /// All links, oldest first.
    public func links(_ project: ProjectID) throws -> [LinkRecord] {
        try connection.fetchAll(LinkRecord.self, "SELECT * FROM warplink_links WHERE project_id = ? ORDER BY created_at, id", project)
    }

    /// One page of links, oldest first.
    public func links(_ project: ProjectID, limit: Int, offset: Int) throws -> [LinkRecord] {
        try connection.fetchAll(LinkRecord.self, "SELECT * FROM warplink_links WHERE project_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?", project, limit, offset)
    }

    /// How many links the project has.
    public func linkCount(_ project: ProjectID) throws -> Int {
        try connection.scalar("SELECT count(*) FROM warplink_links WHERE project_id = ?", project).int ?? 0
    }

    /// The project whose link at (domain, slug) was created last (the redirect has no key).
    public func project(forLinkAt domain: String, slug: String) throws -> ProjectID? {
        try connection.scalar("SELECT project_id FROM warplink_links WHERE domain = ? AND slug = ? ORDER BY created_at DESC LIMIT 1", domain, slug).string
    }

    /// Inserts or replaces a link (same project and id).
    public func save(_ link: LinkRecord, project: ProjectID) throws {
        let params = String(decoding: link.customParams.encoded(), as: UTF8.self)
        let tags = String(decoding: JSONValue.array(link.tags.map(JSONValue.string)).encoded(), as: UTF8.self)
        try connection.run(
            """
            INSERT INTO warplink_links (project_id, id, app_id, slug, domain, destination_url, ios_url, ios_fallback_url, android_url,
                android_fallback_url, custom_params, tags, password, expires_at, is_active, match_window_hours, created_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (project_id, id) DO UPDATE SET app_id = excluded.app_id, slug = excluded.slug, domain = excluded.domain,
                destination_url = excluded.destination_url, ios_url = excluded.ios_url, ios_fallback_url = excluded.ios_fallback_url,
                android_url = excluded.android_url, android_fallback_url = excluded.android_fallback_url, custom_params = excluded.custom_params,
                tags = excluded.tags, password = excluded.password, expires_at = excluded.expires_at, is_active = excluded.is_active,
                match_window_hours = excluded.match_window_hours, updated_at = excluded.updated_at
            """,
            bindings: [
                project, link.id, link.appID, link.slug, link.domain, link.destinationURL, link.iosURL, link.iosFallbackURL,
                link.androidURL, link.androidFallbackURL, params, tags, link.password, link.expiresAt.map { WarpLinkTime.format($0) },
                link.isActive, link.matchWindowHours, WarpLinkTime.format(link.createdAt), WarpLinkTime.format(link.updatedAt),
            ])
    }

    /// Deletes a link (clicks and installs keep its id, which is how routeless matches arise).
    public func deleteLink(_ project: ProjectID, id: String) throws -> Bool {
        try connection.run("DELETE FROM warplink_links WHERE project_id = ? AND id = ?", project, id) > 0
    }

    // MARK: Clicks

    /// Inserts a click and, unless it is a resolve click, files it under its buckets (trimming
    /// each to its 10 newest). Returns false when a click with the same id exists (tap-id dedupe).
    @discardableResult
    public func insert(_ click: ClickRecord, project: ProjectID) throws -> Bool {
        let params = String(decoding: click.customParams.encoded(), as: UTF8.self)
        let inserted =
            try connection.run(
                """
                INSERT OR IGNORE INTO warplink_clicks (project_id, id, link_id, app_id, source, ip, accept_language, language, timezone, timezone_offset,
                    device_id, fingerprint, user_agent, tap_id, destination_url, ios_url, android_url, custom_params, clicked_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                bindings: [
                    project, click.id, click.linkID, click.appID, click.source.rawValue, click.ip, click.acceptLanguage, click.language,
                    click.timezone, click.timezoneOffset, click.deviceID, click.fingerprint, click.userAgent, click.tapID,
                    click.destinationURL, click.iosURL, click.androidURL, params, click.clickedAt.timeIntervalSince1970,
                ]) > 0
        guard inserted else { return false }
        for bucket in click.bucketKeys() {
            try connection.run(
                "INSERT INTO warplink_click_buckets (project_id, bucket, click_id, clicked_at) VALUES (?, ?, ?, ?)",
                project, bucket, click.id, click.clickedAt.timeIntervalSince1970)
            try connection.run(
                """
                DELETE FROM warplink_click_buckets WHERE project_id = ? AND bucket = ? AND seq NOT IN (
                    SELECT seq FROM warplink_click_buckets WHERE project_id = ? AND bucket = ? ORDER BY clicked_at DESC, seq DESC LIMIT ?)
                """, project, bucket, project, bucket, Self.bucketCapacity)
        }
        return true
    }

    /// The unclaimed clicks filed under `bucket`, newest first.
    public func bucket(_ project: ProjectID, _ bucket: String) throws -> [ClickRecord] {
        try connection.fetchAll(
            ClickRecord.self,
            """
            SELECT c.* FROM warplink_click_buckets b JOIN warplink_clicks c ON c.project_id = b.project_id AND c.id = b.click_id
            WHERE b.project_id = ? AND b.bucket = ? AND c.claimed_by IS NULL ORDER BY b.clicked_at DESC, b.seq DESC
            """, project, bucket)
    }

    /// Unclaimed, non-resolve clicks carrying `deviceID`, newest first.
    public func clicks(_ project: ProjectID, deviceID: String) throws -> [ClickRecord] {
        try connection.fetchAll(
            ClickRecord.self,
            """
            SELECT * FROM warplink_clicks WHERE project_id = ? AND device_id = ? COLLATE NOCASE AND claimed_by IS NULL AND source != 'resolve'
            ORDER BY clicked_at DESC, seq DESC
            """, project, deviceID)
    }

    /// Unclaimed, non-resolve clicks carrying `fingerprint`, newest first.
    public func clicks(_ project: ProjectID, fingerprint: String) throws -> [ClickRecord] {
        try connection.fetchAll(
            ClickRecord.self,
            """
            SELECT * FROM warplink_clicks WHERE project_id = ? AND fingerprint = ? AND claimed_by IS NULL AND source != 'resolve'
            ORDER BY clicked_at DESC, seq DESC
            """, project, fingerprint)
    }

    /// Marks a click claimed by an install and removes it from every bucket.
    public func claim(_ project: ProjectID, clickID: String, install: String, at now: Date) throws {
        try connection.run(
            "UPDATE warplink_clicks SET claimed_by = ?, claimed_at = ? WHERE project_id = ? AND id = ?",
            install, now.timeIntervalSince1970, project, clickID)
        try connection.run("DELETE FROM warplink_click_buckets WHERE project_id = ? AND click_id = ?", project, clickID)
    }

    /// Clicks, newest first, optionally of one link or source.
    public func clicks(_ project: ProjectID, linkID: String?, source: ClickSource?, limit: Int) throws -> [ClickRecord] {
        // Reads and sorts all the project's clicks, whatever the filter. Unlike the other lists this
        // one stays a single query: only a new index on clicks would serve a filter, and each such
        // index costs every resolve's click another page (PagesPerWriteTests).
        let source = source?.rawValue
        return try connection.fetchAll(
            ClickRecord.self,
            """
            SELECT * FROM warplink_clicks WHERE project_id = ? AND (? IS NULL OR link_id = ?) AND (? IS NULL OR source = ?)
            ORDER BY clicked_at DESC, seq DESC LIMIT ?
            """, project, linkID, linkID, source, source, limit)
    }

    // MARK: Installs

    /// Inserts an install record.
    public func insert(_ install: InstallRecord, project: ProjectID) throws {
        try connection.run(
            """
            INSERT INTO warplink_installs (project_id, id, app_id, platform, sdk_version, device_id, is_reinstall, outcome, matched, match_type,
                match_confidence, link_id, click_id, tap_id, ip, source, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            bindings: [
                project, install.id, install.appID, install.platform, install.sdkVersion, install.deviceID, install.isReinstall,
                install.outcome, install.matched, install.matchType, install.matchConfidence, install.linkID, install.clickID,
                install.tapID, install.ip, install.source, install.createdAt.timeIntervalSince1970,
            ])
    }

    /// An install by id.
    public func install(_ project: ProjectID, id: String) throws -> InstallRecord? {
        try connection.fetchOne(InstallRecord.self, "SELECT * FROM warplink_installs WHERE project_id = ? AND id = ?", project, id)
    }

    /// The newest attributed install of the app carrying `deviceID`.
    public func latestAttributedInstall(_ project: ProjectID, appID: String?, deviceID: String) throws -> InstallRecord? {
        try connection.fetchOne(
            InstallRecord.self,
            """
            SELECT * FROM warplink_installs WHERE project_id = ? AND device_id = ? COLLATE NOCASE AND link_id IS NOT NULL AND app_id IS ?
            ORDER BY created_at DESC, seq DESC LIMIT 1
            """, project, deviceID, appID)
    }

    /// Installs, newest first.
    public func installs(_ project: ProjectID, limit: Int) throws -> [InstallRecord] {
        try connection.fetchAll(
            InstallRecord.self, "SELECT * FROM warplink_installs WHERE project_id = ? ORDER BY created_at DESC, seq DESC LIMIT ?",
            project, limit)
    }
}
