-- Core control-plane state: projects (tenants), their credentials, the request journal,
-- fault rules, snapshots and the outbox of side effects (mails, pushes, webhooks).

CREATE TABLE projects (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    seed INTEGER,
    created_at TEXT NOT NULL,
    clock_mode TEXT NOT NULL DEFAULT 'real' CHECK (clock_mode IN ('real', 'frozen', 'offset')),
    clock_frozen_at REAL,
    clock_offset_seconds REAL NOT NULL DEFAULT 0,
    is_demo INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE project_credentials (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    name TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (project_id, platform, name)
);
CREATE UNIQUE INDEX project_credentials_value ON project_credentials (platform, value);

-- Not tied to projects by a foreign key: entries outlive nothing, but deleting a project deletes
-- its entries explicitly, and requests with no project (unknown credentials) are kept too.
CREATE TABLE journal (
    id INTEGER PRIMARY KEY,
    project_id TEXT,
    time TEXT NOT NULL,
    platform TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    route TEXT,
    query TEXT NOT NULL DEFAULT '',
    status INTEGER NOT NULL,
    duration_ms REAL NOT NULL,
    request_headers TEXT NOT NULL,
    request_body BLOB,
    request_body_size INTEGER NOT NULL DEFAULT 0,
    response_headers TEXT NOT NULL,
    response_body BLOB,
    response_body_size INTEGER NOT NULL DEFAULT 0,
    fault TEXT,
    stored_bytes INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX journal_project ON journal (project_id, id);

CREATE TABLE journal_evictions (
    project_id TEXT PRIMARY KEY,
    evicted INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE fault_rules (
    id TEXT PRIMARY KEY,
    project_id TEXT REFERENCES projects(id) ON DELETE CASCADE,
    rule TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at REAL
);

CREATE TABLE snapshots (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (project_id, name)
);

CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    platform TEXT NOT NULL,
    kind TEXT NOT NULL,
    recipient TEXT,
    subject TEXT,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX outbox_project ON outbox (project_id, platform, kind, id);
