-- Journal bodies of 1 KiB and more are stored once, however many entries carry them: a polling
-- SDK gets the same trip list or report back again and again, and writing each copy (into the
-- log, then the checkpoint's copy into the file) was most of what journalling such an answer
-- cost. An entry then names its body by `request_body_ref` / `response_body_ref` and its own
-- body column is NULL; smaller bodies stay in the entry. A body goes once no entry names it
-- (the journal deletes it when it evicts or clears the last of them).
CREATE TABLE journal_bodies (
    id INTEGER PRIMARY KEY,
    body BLOB NOT NULL
);
ALTER TABLE journal ADD COLUMN request_body_ref INTEGER;
ALTER TABLE journal ADD COLUMN response_body_ref INTEGER;
-- Partial: only entries that name a shared body pay for these, and they are what a body's
-- deletion looks up.
CREATE INDEX journal_request_body_ref ON journal (request_body_ref) WHERE request_body_ref IS NOT NULL;
CREATE INDEX journal_response_body_ref ON journal (response_body_ref) WHERE response_body_ref IS NOT NULL;
