-- PostgreSQL variant of Migrations/0110_journal_body_bytes.sql: the same column in PostgreSQL types
-- (INTEGER → BIGINT). What a shared journal body counts against the journal's byte bound, once.
ALTER TABLE journal_bodies ADD COLUMN stored_bytes BIGINT NOT NULL DEFAULT 0;
