-- Row numbers that only order rows (WarpLink's click, install and bucket `seq`, WarrantyLife's voucher
-- lookup `id`) no longer use AUTOINCREMENT: its counter row in `sqlite_sequence` put one more page in
-- the log with every write transaction. A plain INTEGER PRIMARY KEY still numbers a new row past every
-- row there is; only the number of a deleted last row can come back (a voucher lookup's id, shown in
-- the control plane, after its project was reset), and no route looks a row up by it.

CREATE TABLE warplink_clicks_rebuilt (
    seq INTEGER PRIMARY KEY,
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
INSERT INTO warplink_clicks_rebuilt SELECT seq, project_id, id, link_id, app_id, source, ip, accept_language, language, timezone,
    timezone_offset, device_id, fingerprint, user_agent, tap_id, destination_url, ios_url, android_url, custom_params, clicked_at,
    claimed_by, claimed_at FROM warplink_clicks;
DROP TABLE warplink_clicks;
ALTER TABLE warplink_clicks_rebuilt RENAME TO warplink_clicks;
CREATE UNIQUE INDEX warplink_clicks_id ON warplink_clicks (project_id, id);
CREATE INDEX warplink_clicks_device ON warplink_clicks (project_id, device_id) WHERE device_id IS NOT NULL;
CREATE INDEX warplink_clicks_fingerprint ON warplink_clicks (project_id, fingerprint) WHERE fingerprint IS NOT NULL;
CREATE INDEX warplink_clicks_device_candidates ON warplink_clicks (project_id, device_id COLLATE NOCASE, clicked_at, seq)
    WHERE claimed_by IS NULL AND source != 'resolve';
CREATE INDEX warplink_clicks_fingerprint_candidates ON warplink_clicks (project_id, fingerprint, clicked_at, seq)
    WHERE claimed_by IS NULL AND source != 'resolve';

CREATE TABLE warplink_installs_rebuilt (
    seq INTEGER PRIMARY KEY,
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
INSERT INTO warplink_installs_rebuilt SELECT seq, project_id, id, app_id, platform, sdk_version, device_id, is_reinstall, outcome,
    matched, match_type, match_confidence, link_id, click_id, tap_id, ip, source, created_at FROM warplink_installs;
DROP TABLE warplink_installs;
ALTER TABLE warplink_installs_rebuilt RENAME TO warplink_installs;
CREATE UNIQUE INDEX warplink_installs_id ON warplink_installs (project_id, id);
CREATE INDEX warplink_installs_device ON warplink_installs (project_id, device_id) WHERE device_id IS NOT NULL;
CREATE INDEX warplink_installs_device_linked ON warplink_installs (project_id, device_id COLLATE NOCASE, created_at, seq)
    WHERE link_id IS NOT NULL;

CREATE TABLE warplink_click_buckets_rebuilt (
    seq INTEGER PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    bucket TEXT NOT NULL,
    click_id TEXT NOT NULL,
    clicked_at REAL NOT NULL
);
INSERT INTO warplink_click_buckets_rebuilt SELECT seq, project_id, bucket, click_id, clicked_at FROM warplink_click_buckets;
DROP TABLE warplink_click_buckets;
ALTER TABLE warplink_click_buckets_rebuilt RENAME TO warplink_click_buckets;
CREATE INDEX warplink_click_buckets_key ON warplink_click_buckets (project_id, bucket, clicked_at);
CREATE INDEX warplink_click_buckets_click ON warplink_click_buckets (project_id, click_id);

CREATE TABLE wl_voucher_lookups_rebuilt (
    id INTEGER PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    device_id TEXT,
    user_id TEXT,
    action TEXT NOT NULL,
    registration_type TEXT NOT NULL,
    created_at TEXT NOT NULL
);
INSERT INTO wl_voucher_lookups_rebuilt SELECT id, project_id, code, device_id, user_id, action, registration_type, created_at
    FROM wl_voucher_lookups;
DROP TABLE wl_voucher_lookups;
ALTER TABLE wl_voucher_lookups_rebuilt RENAME TO wl_voucher_lookups;
CREATE INDEX wl_voucher_lookups_project ON wl_voucher_lookups (project_id, id);
CREATE INDEX wl_voucher_lookups_user ON wl_voucher_lookups (project_id, user_id, id) WHERE user_id IS NOT NULL;
CREATE INDEX wl_voucher_lookups_device ON wl_voucher_lookups (project_id, device_id, id) WHERE device_id IS NOT NULL;
