-- PostgreSQL variant of Migrations/0150_readings_as_received.sql: the same column, as bytes.
ALTER TABLE wl_readings ADD COLUMN readings_gzip bytea;
