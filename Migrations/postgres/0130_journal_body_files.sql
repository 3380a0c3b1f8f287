-- PostgreSQL variant of Migrations/0130_journal_body_files.sql: the same column and index in
-- PostgreSQL types (INTEGER → BIGINT). PostgreSQL keeps every body in `body`, so it stays NULL.
ALTER TABLE journal_bodies ADD COLUMN file_position BIGINT;
CREATE INDEX journal_bodies_file_position ON journal_bodies (file_position) WHERE file_position IS NOT NULL;
