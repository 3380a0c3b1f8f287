-- The control plane's lists (one user's trips, periods, batches, tokens, attention and manual
-- events, one user's Asleep nights, a night's deliveries, an item's uploads) filtered with
-- `(? IS NULL OR column = ?)`, which no index serves: each call read and sorted every row of the
-- project, so a test suite polling its own rows paid for everyone else's. The stores now run one
-- query per filter. These indexes lead to the filtered rows already in the order listed; where an
-- index led to them but stopped short of the order's last columns, it is rebuilt with them.
-- (PostgreSQL has no implicit rowid at the end of an index: where SQLite's twin relies on it, these
-- name the `rowid` column of migration 0080, or the id.) The click list keeps its single query:
-- any index on clicks would cost every resolve's click a page (PagesPerWriteTests).
DROP INDEX telematics_trips_user;
CREATE INDEX telematics_trips_user ON telematics_trips (project_id, user_id, started_ms, id);
DROP INDEX telematics_manual_events_user;
CREATE INDEX telematics_manual_events_user ON telematics_manual_events (project_id, user_id, ts_ms, id);
CREATE INDEX telematics_token_pairs_user ON telematics_token_pairs (project_id, user_id, created_at, rowid);
CREATE INDEX telematics_batches_user ON telematics_batches (project_id, user_id, received_at, rowid);
DROP INDEX telematics_periods_user;
CREATE INDEX telematics_periods_user ON telematics_periods (project_id, user_id, started_ms, id);
DROP INDEX telematics_attention_events_user;
CREATE INDEX telematics_attention_events_user ON telematics_attention_events (project_id, user_id, start_ms, id);
DROP INDEX asleep_sessions_user;
CREATE INDEX asleep_sessions_user ON asleep_sessions (project_id, user_id, start_time, created_at, session_id);
DROP INDEX asleep_webhooks_project;
CREATE INDEX asleep_webhooks_project ON asleep_webhooks (project_id, session_id, created_at, outbox_id);
-- No query read sensor events by (item, event_at) (the dedupe has its own index): the index now
-- holds an item's events in the order listed.
DROP INDEX wl_sensor_events_item;
CREATE INDEX wl_sensor_events_item ON wl_sensor_events (project_id, item_id, created_at, rowid);
CREATE INDEX wl_readings_item ON wl_readings (project_id, item_id, id);
CREATE INDEX wl_diagnostics_item ON wl_diagnostics (project_id, item_id, created_at, rowid);
CREATE INDEX wl_images_item ON wl_images (project_id, item_id, id);
