-- Attribution matches have looked clicks and installs up by device and fingerprint through the
-- indexes of 0070 (`warplink_clicks_device_candidates`, `warplink_clicks_fingerprint_candidates`,
-- `warplink_installs_device_linked`): they compare device ids case-insensitively and hold only the
-- rows a match can use. The first indexes on (project_id, device_id) and (project_id, fingerprint)
-- have been read by no query since, yet every install and every click carrying a device id or a
-- fingerprint still wrote an entry into them: an attribution match wrote its install into four
-- B-trees where three serve every read.
DROP INDEX IF EXISTS warplink_clicks_device;
DROP INDEX IF EXISTS warplink_clicks_fingerprint;
DROP INDEX IF EXISTS warplink_installs_device;
