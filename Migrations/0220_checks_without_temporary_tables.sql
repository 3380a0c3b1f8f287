-- CHECK constraints that list allowed values are written as equalities joined by OR, not as IN lists.
-- SQLite 3.40 (Debian's) evaluates an IN list of three or more constants by building a temporary
-- B-tree of the values, on every INSERT and on every UPDATE of the column: opening, filling and
-- closing it more than doubled the cost of a plain insert (5.0 against 2.2 µs), and a WarpLink resolve
-- paid it for every click it records. An OR of equalities means the same (NULL still passes) and
-- compares in place. The tables are rebuilt, as SQLite cannot change a constraint; their rows keep
-- their rowids. `projects` keeps its IN list: every other table references it, so rebuilding it
-- inside this migration's transaction would cascade the drop into their rows, and a project is
-- created once.

CREATE TABLE warplink_clicks_rebuilt (
    seq INTEGER PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    link_id TEXT NOT NULL,
    app_id TEXT,
    source TEXT NOT NULL CHECK (source = 'redirect' OR source = 'resolve' OR source = 'seed'),
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
INSERT INTO warplink_clicks_rebuilt (seq, project_id, id, link_id, app_id, source, ip, accept_language,
    language, timezone, timezone_offset, device_id, fingerprint, user_agent, tap_id, destination_url,
    ios_url, android_url, custom_params, clicked_at, claimed_by, claimed_at)
    SELECT seq, project_id, id, link_id, app_id, source, ip, accept_language, language, timezone,
    timezone_offset, device_id, fingerprint, user_agent, tap_id, destination_url, ios_url, android_url,
    custom_params, clicked_at, claimed_by, claimed_at FROM warplink_clicks;
DROP TABLE warplink_clicks;
ALTER TABLE warplink_clicks_rebuilt RENAME TO warplink_clicks;
CREATE UNIQUE INDEX warplink_clicks_id ON warplink_clicks (project_id, id);
CREATE INDEX warplink_clicks_device ON warplink_clicks (project_id, device_id) WHERE device_id IS NOT NULL;
CREATE INDEX warplink_clicks_fingerprint ON warplink_clicks (project_id, fingerprint) WHERE fingerprint IS NOT NULL;
CREATE INDEX warplink_clicks_device_candidates ON warplink_clicks (project_id, device_id COLLATE NOCASE, clicked_at, seq)
    WHERE claimed_by IS NULL AND source != 'resolve';
CREATE INDEX warplink_clicks_fingerprint_candidates ON warplink_clicks (project_id, fingerprint, clicked_at, seq)
    WHERE claimed_by IS NULL AND source != 'resolve';

CREATE TABLE asleep_api_keys_rebuilt (
    api_key TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    customer TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'active'
        CHECK (state = 'active' OR state = 'plan_expired' OR state = 'rate_limited' OR state = 'quota_exceeded' OR state = 'revoked'),
    product_billing INTEGER NOT NULL DEFAULT 1,
    created_at REAL NOT NULL
);
INSERT INTO asleep_api_keys_rebuilt (rowid, api_key, project_id, customer, state, product_billing, created_at)
    SELECT rowid, api_key, project_id, customer, state, product_billing, created_at FROM asleep_api_keys;
DROP TABLE asleep_api_keys;
ALTER TABLE asleep_api_keys_rebuilt RENAME TO asleep_api_keys;
CREATE INDEX asleep_api_keys_project ON asleep_api_keys (project_id);

CREATE TABLE asleep_sessions_rebuilt (
    session_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    customer TEXT NOT NULL,
    user_id TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state = 'OPEN' OR state = 'CLOSED' OR state = 'COMPLETE'),
    start_time REAL NOT NULL,
    end_time REAL,
    unexpected_end_time REAL,
    closed_at REAL,
    complete_time REAL,
    hold INTEGER NOT NULL DEFAULT 0,
    created_timezone TEXT NOT NULL DEFAULT 'UTC',
    inference_type TEXT NOT NULL DEFAULT 'MELSPECTROGRAM',
    service TEXT NOT NULL DEFAULT 'NOSERVICE',
    callback_url TEXT,
    api_key TEXT,
    product_id TEXT,
    last_seq_num INTEGER,
    -- Control-plane overrides: explicit stage arrays, detections, forced peculiarities, stat overrides.
    overrides TEXT NOT NULL DEFAULT '{}',
    created_at REAL NOT NULL
);
INSERT INTO asleep_sessions_rebuilt (rowid, session_id, project_id, customer, user_id, state, start_time,
    end_time, unexpected_end_time, closed_at, complete_time, hold, created_timezone, inference_type, service,
    callback_url, api_key, product_id, last_seq_num, overrides, created_at)
    SELECT rowid, session_id, project_id, customer, user_id, state, start_time, end_time,
    unexpected_end_time, closed_at, complete_time, hold, created_timezone, inference_type, service,
    callback_url, api_key, product_id, last_seq_num, overrides, created_at FROM asleep_sessions;
DROP TABLE asleep_sessions;
ALTER TABLE asleep_sessions_rebuilt RENAME TO asleep_sessions;
CREATE INDEX asleep_sessions_user ON asleep_sessions (project_id, user_id, start_time);
CREATE INDEX asleep_sessions_state ON asleep_sessions (state);
CREATE INDEX asleep_sessions_open_since ON asleep_sessions (project_id, state, start_time);
CREATE INDEX asleep_sessions_closed_since ON asleep_sessions (project_id, state, hold, closed_at);
CREATE INDEX asleep_sessions_user_state ON asleep_sessions (project_id, user_id, state);

CREATE TABLE asleep_webhooks_rebuilt (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    outbox_id INTEGER NOT NULL,
    session_id TEXT NOT NULL,
    event TEXT NOT NULL,
    url TEXT NOT NULL,
    api_key TEXT,
    user_id TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status = 'pending' OR status = 'delivered' OR status = 'failed'),
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL DEFAULT 3,
    next_attempt_at REAL NOT NULL,
    last_status INTEGER,
    last_error TEXT,
    created_at REAL NOT NULL
);
INSERT INTO asleep_webhooks_rebuilt (rowid, id, project_id, outbox_id, session_id, event, url, api_key,
    user_id, body, status, attempts, max_attempts, next_attempt_at, last_status, last_error, created_at)
    SELECT rowid, id, project_id, outbox_id, session_id, event, url, api_key, user_id, body, status,
    attempts, max_attempts, next_attempt_at, last_status, last_error, created_at FROM asleep_webhooks;
DROP TABLE asleep_webhooks;
ALTER TABLE asleep_webhooks_rebuilt RENAME TO asleep_webhooks;
CREATE INDEX asleep_webhooks_pending ON asleep_webhooks (status, next_attempt_at);
CREATE INDEX asleep_webhooks_project ON asleep_webhooks (project_id, session_id, created_at);

CREATE TABLE wl_developer_keys_rebuilt (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    key TEXT NOT NULL PRIMARY KEY,
    name TEXT NOT NULL,
    environment TEXT NOT NULL DEFAULT 'sandbox',
    state TEXT NOT NULL DEFAULT 'valid' CHECK (state = 'valid' OR state = 'revoked' OR state = 'unavailable'),
    unavailable_mode TEXT NOT NULL DEFAULT 'status' CHECK (unavailable_mode = 'status' OR unavailable_mode = 'hang'),
    created_at TEXT NOT NULL
);
INSERT INTO wl_developer_keys_rebuilt (rowid, project_id, key, name, environment, state, unavailable_mode,
    created_at)
    SELECT rowid, project_id, key, name, environment, state, unavailable_mode, created_at FROM wl_developer_keys;
DROP TABLE wl_developer_keys;
ALTER TABLE wl_developer_keys_rebuilt RENAME TO wl_developer_keys;
CREATE INDEX wl_developer_keys_project ON wl_developer_keys (project_id);

CREATE TABLE wl_vouchers_rebuilt (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    code TEXT NOT NULL COLLATE NOCASE,
    status TEXT NOT NULL DEFAULT 'unredeemed' CHECK (status = 'unredeemed' OR status = 'claimed' OR status = 'redeemed'),
    claimed_by_user_id TEXT,
    original_device_id TEXT,
    warranty_id TEXT NOT NULL,
    attributes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (project_id, code)
);
INSERT INTO wl_vouchers_rebuilt (rowid, project_id, code, status, claimed_by_user_id, original_device_id,
    warranty_id, attributes, created_at, updated_at)
    SELECT rowid, project_id, code, status, claimed_by_user_id, original_device_id, warranty_id, attributes,
    created_at, updated_at FROM wl_vouchers;
DROP TABLE wl_vouchers;
ALTER TABLE wl_vouchers_rebuilt RENAME TO wl_vouchers;

CREATE TABLE telematics_users_rebuilt (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    user_name TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'ACTIVE' CHECK (state = 'ACTIVE' OR state = 'INACTIVE' OR state = 'DENIED'),
    current_vehicle_id INTEGER,
    -- Comma-separated features switched off for this user (TRIPS, KILOMETERS, ATTENTION) → 403 ACCESS_DENIED.
    disabled_features TEXT NOT NULL DEFAULT '',
    access_ttl_seconds REAL,
    refresh_ttl_seconds REAL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, user_id)
);
INSERT INTO telematics_users_rebuilt (rowid, project_id, user_id, user_name, state, current_vehicle_id,
    disabled_features, access_ttl_seconds, refresh_ttl_seconds, created_at)
    SELECT rowid, project_id, user_id, user_name, state, current_vehicle_id, disabled_features,
    access_ttl_seconds, refresh_ttl_seconds, created_at FROM telematics_users;
DROP TABLE telematics_users;
ALTER TABLE telematics_users_rebuilt RENAME TO telematics_users;
