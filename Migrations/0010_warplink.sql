-- WarpLink: apps, keys, custom domains, links, clicks (with their deferred-match buckets),
-- installs and per-project matching settings. Every table is per project; ids that the wire
-- exposes (link ids, install ids, click ids) are TEXT, unique within their project.

CREATE TABLE warplink_settings (
    project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    settings TEXT NOT NULL
);

CREATE TABLE warplink_apps (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    handle TEXT NOT NULL,
    ios_bundle_id TEXT,
    android_package_name TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id)
);
-- `<handle>.aplnk.to` routes a short link to its project, so handles are unique server-wide.
CREATE UNIQUE INDEX warplink_apps_handle ON warplink_apps (handle);

CREATE TABLE warplink_keys (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    value TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('sdk', 'api')),
    scopes TEXT NOT NULL,
    app_id TEXT,
    state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'revoked')),
    name TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT,
    PRIMARY KEY (project_id, value)
);
-- The key is how a request finds its project, so a value belongs to one project only.
CREATE UNIQUE INDEX warplink_keys_value ON warplink_keys (value);

CREATE TABLE warplink_domains (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    hostname TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('verified', 'suspended')),
    app_id TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, hostname)
);
CREATE UNIQUE INDEX warplink_domains_hostname ON warplink_domains (hostname);

CREATE TABLE warplink_links (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    app_id TEXT,
    slug TEXT NOT NULL,
    domain TEXT NOT NULL,
    destination_url TEXT NOT NULL,
    ios_url TEXT,
    ios_fallback_url TEXT,
    android_url TEXT,
    android_fallback_url TEXT,
    custom_params TEXT NOT NULL DEFAULT '{}',
    tags TEXT NOT NULL DEFAULT '[]',
    password TEXT,
    expires_at TEXT,
    is_active INTEGER NOT NULL DEFAULT 1,
    match_window_hours INTEGER,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE UNIQUE INDEX warplink_links_slug ON warplink_links (project_id, domain, slug);
-- The unauthenticated redirect finds the project from (domain, slug) alone.
CREATE INDEX warplink_links_domain_slug ON warplink_links (domain, slug);

CREATE TABLE warplink_clicks (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    link_id TEXT NOT NULL,
    app_id TEXT,
    source TEXT NOT NULL CHECK (source IN ('redirect', 'resolve', 'seed')),
    ip TEXT,
    accept_language TEXT,
    language TEXT,
    timezone TEXT,
    timezone_offset INTEGER,
    device_id TEXT,
    fingerprint TEXT,
    user_agent TEXT,
    tap_id TEXT,
    destination_url TEXT,
    ios_url TEXT,
    android_url TEXT,
    custom_params TEXT NOT NULL DEFAULT '{}',
    clicked_at REAL NOT NULL,
    claimed_by TEXT,
    claimed_at REAL
);
CREATE UNIQUE INDEX warplink_clicks_id ON warplink_clicks (project_id, id);
CREATE INDEX warplink_clicks_device ON warplink_clicks (project_id, device_id) WHERE device_id IS NOT NULL;
CREATE INDEX warplink_clicks_fingerprint ON warplink_clicks (project_id, fingerprint) WHERE fingerprint IS NOT NULL;

-- The deferred-match store: each claimable click under up to three fingerprint keys
-- (`tz:ip|lang|zone`, `offset:ip|lang|minutes`, `basic:ip|lang`), newest first, at most 10 per key.
CREATE TABLE warplink_click_buckets (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    bucket TEXT NOT NULL,
    click_id TEXT NOT NULL,
    clicked_at REAL NOT NULL
);
CREATE INDEX warplink_click_buckets_key ON warplink_click_buckets (project_id, bucket, clicked_at);
CREATE INDEX warplink_click_buckets_click ON warplink_click_buckets (project_id, click_id);

CREATE TABLE warplink_installs (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    app_id TEXT,
    platform TEXT,
    sdk_version TEXT,
    device_id TEXT,
    is_reinstall INTEGER,
    outcome TEXT NOT NULL,
    matched INTEGER NOT NULL DEFAULT 0,
    match_type TEXT,
    match_confidence REAL,
    link_id TEXT,
    click_id TEXT,
    tap_id TEXT,
    ip TEXT,
    source TEXT NOT NULL DEFAULT 'sdk' CHECK (source IN ('sdk', 'seed')),
    created_at REAL NOT NULL
);
CREATE UNIQUE INDEX warplink_installs_id ON warplink_installs (project_id, id);
CREATE INDEX warplink_installs_device ON warplink_installs (project_id, device_id) WHERE device_id IS NOT NULL;
