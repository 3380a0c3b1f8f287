-- The journal file's copy of the main schema's 0320_journal_unmatched (a test compares them): why
-- a request meant for an emulated service matched no project, as JSON; NULL for the rest.
ALTER TABLE journal ADD COLUMN unmatched TEXT;
-- Partial: `GET /__admin/requests?unmatched=true` reads these few rows, newest first, without
-- walking every other entry; other entries cost no index write.
CREATE INDEX journal_unmatched ON journal (id) WHERE unmatched IS NOT NULL;
