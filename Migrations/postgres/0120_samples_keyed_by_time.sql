-- PostgreSQL variant of Migrations/0120_samples_keyed_by_time.sql. SQLite rebuilds the table
-- without a rowid, keyed by (project_id, user_id, ts_ms); here the UNIQUE constraint on those
-- columns gives way to a primary key on them, so bundles and snapshots list samples in key order
-- on both backends. The insertion-order column of 0080 stays and is no longer read.
ALTER TABLE telematics_samples
    DROP CONSTRAINT telematics_samples_project_id_user_id_ts_ms_key,
    ADD CONSTRAINT telematics_samples_pkey PRIMARY KEY (project_id, user_id, ts_ms);
