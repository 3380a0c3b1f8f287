-- Where a shared journal body kept outside the database is: its byte position in the journal's
-- body segment files (NULL for a body in `body`). Only a server whose journal has a SQLite file
-- of its own keeps bodies there; this schema has the column so that the journal tables are the
-- same wherever they live (a test compares them).
ALTER TABLE journal_bodies ADD COLUMN file_position INTEGER;
-- Partial: what a segment's removal asks is whether any body still lies in it.
CREATE INDEX journal_bodies_file_position ON journal_bodies (file_position) WHERE file_position IS NOT NULL;
