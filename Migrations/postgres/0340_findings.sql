-- PostgreSQL variant of Migrations/0320_findings.sql: integration-check findings (one row per
-- project, rule and device) and each project's rule settings.
CREATE TABLE findings (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    rule TEXT NOT NULL,
    device TEXT NOT NULL,
    platform TEXT NOT NULL,
    first_seen_at DOUBLE PRECISION NOT NULL,
    last_seen_at DOUBLE PRECISION NOT NULL,
    count BIGINT NOT NULL,
    requests TEXT NOT NULL,
    what_the_app_did TEXT NOT NULL,
    PRIMARY KEY (project_id, rule, device)
);

CREATE TABLE check_settings (
    project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    settings TEXT NOT NULL
);
