-- PostgreSQL variant of Migrations/0020_asleep.sql: the same tables, columns, keys, indexes and defaults in
-- PostgreSQL types (INTEGER → BIGINT, REAL → DOUBLE PRECISION, BLOB → BYTEA, AUTOINCREMENT → identity).
-- Asleep (sleep tracking): API keys and app credentials grouped into customers, users, registered
-- products, sessions with their received chunks, access tokens and webhook deliveries.
-- Times are DOUBLE PRECISION Unix seconds on the project's clock; text ids follow the real service's formats.

-- Per-project knobs set through the control plane (JSON object, camelCase keys; absent = defaults).
CREATE TABLE asleep_settings (
    project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    settings TEXT NOT NULL DEFAULT '{}'
);

-- Each API key is its own customer unless the control plane groups keys under one customer.
CREATE TABLE asleep_api_keys (
    api_key TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    customer TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'plan_expired', 'rate_limited', 'quota_exceeded', 'revoked')),
    product_billing BIGINT NOT NULL DEFAULT 1,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX asleep_api_keys_project ON asleep_api_keys (project_id);

-- 3.3 appId/appSecret credentials.
CREATE TABLE asleep_apps (
    app_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    app_secret TEXT NOT NULL,
    customer TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'active',
    product_billing BIGINT NOT NULL DEFAULT 1,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX asleep_apps_project ON asleep_apps (project_id);

CREATE TABLE asleep_tokens (
    token TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
    app_id TEXT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX asleep_tokens_project ON asleep_tokens (project_id);

CREATE TABLE asleep_users (
    user_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    customer TEXT NOT NULL,
    metadata TEXT,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX asleep_users_project ON asleep_users (project_id, customer);

CREATE TABLE asleep_products (
    product_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    customer TEXT NOT NULL,
    product_key TEXT NOT NULL UNIQUE,
    model TEXT NOT NULL,
    identifier_type TEXT NOT NULL,
    identifier_value TEXT NOT NULL,
    revoked BIGINT NOT NULL DEFAULT 0,
    created_at DOUBLE PRECISION NOT NULL,
    UNIQUE (project_id, customer, model, identifier_type, identifier_value)
);

CREATE TABLE asleep_sessions (
    session_id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    customer TEXT NOT NULL,
    user_id TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('OPEN', 'CLOSED', 'COMPLETE')),
    start_time DOUBLE PRECISION NOT NULL,
    end_time DOUBLE PRECISION,
    unexpected_end_time DOUBLE PRECISION,
    closed_at DOUBLE PRECISION,
    complete_time DOUBLE PRECISION,
    hold BIGINT NOT NULL DEFAULT 0,
    created_timezone TEXT NOT NULL DEFAULT 'UTC',
    inference_type TEXT NOT NULL DEFAULT 'MELSPECTROGRAM',
    service TEXT NOT NULL DEFAULT 'NOSERVICE',
    callback_url TEXT,
    api_key TEXT,
    product_id TEXT,
    last_seq_num BIGINT,
    -- Control-plane overrides: explicit stage arrays, detections, forced peculiarities, stat overrides.
    overrides TEXT NOT NULL DEFAULT '{}',
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX asleep_sessions_user ON asleep_sessions (project_id, user_id, start_time);
CREATE INDEX asleep_sessions_state ON asleep_sessions (state);

CREATE TABLE asleep_chunks (
    session_id TEXT NOT NULL,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    seq_num BIGINT NOT NULL,
    size BIGINT NOT NULL,
    sha256 TEXT NOT NULL,
    received_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (session_id, seq_num)
);
CREATE INDEX asleep_chunks_project ON asleep_chunks (project_id);

-- Outbound webhooks: the queue the delivery worker drains; each also has an outbox row.
CREATE TABLE asleep_webhooks (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    outbox_id BIGINT NOT NULL,
    session_id TEXT NOT NULL,
    event TEXT NOT NULL,
    url TEXT NOT NULL,
    api_key TEXT,
    user_id TEXT NOT NULL,
    body TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts BIGINT NOT NULL DEFAULT 0,
    max_attempts BIGINT NOT NULL DEFAULT 3,
    next_attempt_at DOUBLE PRECISION NOT NULL,
    last_status BIGINT,
    last_error TEXT,
    created_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX asleep_webhooks_pending ON asleep_webhooks (status, next_attempt_at);
