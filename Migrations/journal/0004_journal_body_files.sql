-- The journal file's copy of the main schema's 0130_journal_body_files (a test compares them):
-- a shared body of 16 KiB or more is kept in the body segment files next to this file, at
-- `file_position`, and its `body` is empty. Writing it into SQLite put it into the log, copied
-- it into this file at the checkpoint and read it back to free its pages at eviction.
ALTER TABLE journal_bodies ADD COLUMN file_position INTEGER;
-- Partial: what a segment's removal asks is whether any body still lies in it.
CREATE INDEX journal_bodies_file_position ON journal_bodies (file_position) WHERE file_position IS NOT NULL;
