-- The request journal in a SQLite file of its own, next to the main database. Every request
-- writes an entry, so in the main file the journal's commits emptied every reader's page cache,
-- its batches queued SDK writes behind them and its bodies made most of the log that
-- checkpoints sync. The tables are the main schema's `journal` and `journal_evictions` as of
-- 0060, column for column (a test compares them); PostgreSQL keeps them in its one database.
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
    stored_bytes INTEGER NOT NULL DEFAULT 0,
    via TEXT,
    proxy_host TEXT
);
CREATE INDEX journal_project ON journal (project_id, id);

CREATE TABLE journal_evictions (
    project_id TEXT PRIMARY KEY,
    evicted INTEGER NOT NULL DEFAULT 0
);
