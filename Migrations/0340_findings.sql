-- Integration checks: a project's findings (one row per rule and device, however often the rule
-- was broken, with the journal ids that show it) and its rule settings (a small JSON document).
-- Times are on the project's clock, as epoch seconds. Both are per-project tables: reset clears
-- them, snapshots and bundles carry them.
CREATE TABLE findings (
    project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
    rule TEXT NOT NULL,
    device TEXT NOT NULL,
    platform TEXT NOT NULL,
    first_seen_at REAL NOT NULL,
    last_seen_at REAL NOT NULL,
    count INTEGER NOT NULL,
    requests TEXT NOT NULL,
    what_the_app_did TEXT NOT NULL,
    PRIMARY KEY (project_id, rule, device)
);

CREATE TABLE check_settings (
    project_id TEXT PRIMARY KEY REFERENCES projects(id) ON DELETE CASCADE,
    settings TEXT NOT NULL
);
