-- PostgreSQL variant of Migrations/0320_journal_unmatched.sql: the same tables, columns, keys, indexes and defaults in
-- PostgreSQL types (INTEGER → BIGINT, REAL → DOUBLE PRECISION, BLOB → BYTEA, AUTOINCREMENT → identity).
-- Why a request meant for an emulated service matched no project (a missing or unknown
-- credential, a path no platform serves, a host nobody emulates), as JSON; NULL for the rest.
-- Recorded as the request is answered: what it presented, and whether that named a project, is
-- known only then. Entries journalled before this migration have none.
ALTER TABLE journal ADD COLUMN unmatched TEXT;
-- Partial: `GET /__admin/requests?unmatched=true` reads these few rows, newest first, without
-- walking every other entry; other entries cost no index write.
CREATE INDEX journal_unmatched ON journal (id) WHERE unmatched IS NOT NULL;
