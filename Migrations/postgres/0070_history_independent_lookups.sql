-- PostgreSQL variant of Migrations/0070_history_independent_lookups.sql: the same indexes; the
-- NOCASE ones use the `nocase` collation that 0001_core creates.
-- Lookups on the SDK paths that grew with history: each of these scanned every earlier row of a
-- project (or of the whole table) because no index led to the rows the query wants.

-- The first unmarked sensor event with the same item, eventAt and type (the dedupe of every PUT).
CREATE INDEX wl_sensor_events_original ON wl_sensor_events (project_id, item_id, event_at, sensor_event_type, created_at)
    WHERE duplicate_of IS NULL;
-- The first unmarked diagnostic report with the same fingerprint.
CREATE INDEX wl_diagnostics_original ON wl_diagnostics (project_id, item_id, request_hash, created_at)
    WHERE same_hash_as IS NULL;
-- The latest opt-in of an item's program; also what a project reset deletes by.
CREATE INDEX wl_opt_ins_item ON wl_opt_ins (project_id, item_id, program, id);
CREATE INDEX wl_fcm_tokens_item ON wl_fcm_tokens (project_id, item_id);
CREATE INDEX wl_audio_clips_item ON wl_audio_clips (project_id, item_id);

-- Attribution matches compare device ids case-insensitively: only an index with the same collation
-- serves them. Resolve clicks are never candidates, so they stay out of these indexes (and cost
-- nothing to insert).
CREATE INDEX warplink_clicks_device_candidates ON warplink_clicks (project_id, device_id COLLATE NOCASE, clicked_at, seq)
    WHERE claimed_by IS NULL AND source != 'resolve';
CREATE INDEX warplink_clicks_fingerprint_candidates ON warplink_clicks (project_id, fingerprint, clicked_at, seq)
    WHERE claimed_by IS NULL AND source != 'resolve';
CREATE INDEX warplink_installs_device_linked ON warplink_installs (project_id, device_id COLLATE NOCASE, created_at, seq)
    WHERE link_id IS NOT NULL;

CREATE INDEX asleep_webhooks_project ON asleep_webhooks (project_id, session_id, created_at);
