-- The journal file's copy of the main schema's 0110_journal_body_bytes (a test compares them):
-- what a shared body counts against the journal's byte bound, counted once for all the entries
-- that name it.
ALTER TABLE journal_bodies ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
