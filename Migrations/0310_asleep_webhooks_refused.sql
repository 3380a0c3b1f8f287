-- A webhook the server would not send is `refused`: while Understudy listens beyond loopback, a
-- callback URL whose address is loopback, private or link-local is delivered only when the
-- project's Asleep setting `webhookAllowedOrigins` lists its origin, and the attempt that was not
-- made is recorded with its reason. SQLite cannot change a CHECK constraint, so the table is
-- rebuilt (rows keep their rowids) with its two indexes as migration 0250 left them.

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
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status = 'pending' OR status = 'delivered' OR status = 'failed' OR status = 'refused'),
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
CREATE INDEX asleep_webhooks_project ON asleep_webhooks (project_id, session_id, created_at, outbox_id);
