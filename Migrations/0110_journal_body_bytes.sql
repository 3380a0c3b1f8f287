-- What a shared journal body counts against the journal's byte bound, kept with the body: the
-- bound counts a body stored once once, so the entries that name it count only their own bytes,
-- and evicting the last of them gives back what this column says. Bodies stored before count 0
-- here; the entries that named them counted them in full when they were written.
ALTER TABLE journal_bodies ADD COLUMN stored_bytes INTEGER NOT NULL DEFAULT 0;
