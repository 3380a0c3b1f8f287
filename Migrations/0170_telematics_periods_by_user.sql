-- Each telemetry batch looks up its user's open period (newest first), and processing lists the
-- user's unprocessed periods in order. Both asked for the order of the project's period ids, so
-- SQLite walked the primary key through every other user's periods until it reached this
-- user's: with many devices driving at once, a batch read them all. By user and id they read this
-- user's periods alone.
CREATE INDEX telematics_periods_user_id ON telematics_periods (project_id, user_id, id);
