-- WarrantyLife emulation: developer keys, accounts, vouchers, items, warranties, registration
-- uploads (sensor events, readings, audio, diagnostics, images), insights, content catalogues
-- and what the SDK posts (surveys, feedback, FCM tokens, Smart Saver opt-ins).
-- Ids handed to the SDK are numeric strings (the 2022 client types them as strings).

CREATE TABLE wl_developer_keys (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    key TEXT NOT NULL PRIMARY KEY,
    name TEXT NOT NULL,
    environment TEXT NOT NULL DEFAULT 'sandbox',
    state TEXT NOT NULL DEFAULT 'valid' CHECK (state IN ('valid', 'revoked', 'unavailable')),
    unavailable_mode TEXT NOT NULL DEFAULT 'status' CHECK (unavailable_mode IN ('status', 'hang')),
    created_at TEXT NOT NULL
);
CREATE INDEX wl_developer_keys_project ON wl_developer_keys (project_id);

CREATE TABLE wl_users (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    email TEXT NOT NULL COLLATE NOCASE,
    password TEXT,
    token TEXT NOT NULL,
    activated INTEGER NOT NULL DEFAULT 1,
    profile TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id),
    UNIQUE (project_id, email)
);
CREATE INDEX wl_users_token ON wl_users (project_id, token);

CREATE TABLE wl_vouchers (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    code TEXT NOT NULL COLLATE NOCASE,
    status TEXT NOT NULL DEFAULT 'unredeemed' CHECK (status IN ('unredeemed', 'claimed', 'redeemed')),
    claimed_by_user_id TEXT,
    original_device_id TEXT,
    warranty_id TEXT NOT NULL,
    attributes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (project_id, code)
);

CREATE TABLE wl_voucher_lookups (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    code TEXT NOT NULL,
    device_id TEXT,
    user_id TEXT,
    action TEXT NOT NULL,
    registration_type TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX wl_voucher_lookups_project ON wl_voucher_lookups (project_id, id);

CREATE TABLE wl_items (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    device_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    category_id TEXT,
    manufacturer_name TEXT,
    model TEXT,
    mpn TEXT,
    imei TEXT,
    notification_token TEXT,
    ssr INTEGER NOT NULL DEFAULT 0,
    ssd INTEGER NOT NULL DEFAULT 0,
    trade_in INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id),
    UNIQUE (project_id, device_id)
);

CREATE TABLE wl_warranties (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    item_id TEXT,
    user_id TEXT,
    voucher_code TEXT,
    document TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX wl_warranties_item ON wl_warranties (project_id, item_id);

CREATE TABLE wl_sensor_events (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    event_at TEXT,
    sensor_event_type INTEGER,
    body TEXT NOT NULL,
    duplicate_of TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id)
);
CREATE INDEX wl_sensor_events_item ON wl_sensor_events (project_id, item_id, event_at);

CREATE TABLE wl_readings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    sensor_event_id TEXT NOT NULL,
    count INTEGER NOT NULL,
    gzipped INTEGER NOT NULL,
    readings TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX wl_readings_event ON wl_readings (project_id, sensor_event_id);

CREATE TABLE wl_audio_clips (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    sensor_event_id TEXT NOT NULL,
    recorded_at TEXT,
    content_type TEXT,
    bytes INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    data BLOB NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE wl_diagnostics (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    item_id TEXT NOT NULL,
    body TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    same_hash_as TEXT,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id)
);

CREATE TABLE wl_images (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    diagnostic_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    filename TEXT,
    content_type TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    duplicate INTEGER NOT NULL DEFAULT 0,
    data BLOB NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX wl_images_diagnostic ON wl_images (project_id, diagnostic_id);

CREATE TABLE wl_fcm_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    token TEXT NOT NULL,
    source TEXT NOT NULL,
    created_at TEXT NOT NULL
);

CREATE TABLE wl_opt_ins (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    program TEXT NOT NULL,
    opted_in INTEGER NOT NULL,
    sensor_event_id TEXT,
    created_at TEXT NOT NULL
);

CREATE TABLE wl_insights (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    item_id TEXT NOT NULL,
    document TEXT NOT NULL,
    PRIMARY KEY (project_id, item_id)
);

-- Replaceable content: app config, offers HTML/JSON, survey, sensor tests, diagnostic config.
CREATE TABLE wl_content (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    document TEXT NOT NULL,
    PRIMARY KEY (project_id, name)
);

-- What the SDK posts without a model the emulator interprets (surveys, feedback).
CREATE TABLE wl_submissions (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    id TEXT NOT NULL,
    kind TEXT NOT NULL,
    user_id TEXT,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (project_id, id)
);
