-- PostgreSQL variant of Migrations/0100_journal_bodies.sql: the same tables, columns, keys, indexes and defaults in
-- PostgreSQL types (INTEGER → BIGINT, BLOB → BYTEA).
-- Journal bodies of 1 KiB and more are stored once, however many entries carry them; an entry then
-- names its body by `request_body_ref` / `response_body_ref` and its own body column is NULL.
CREATE TABLE journal_bodies (
    id BIGINT PRIMARY KEY,
    body BYTEA NOT NULL
);
ALTER TABLE journal ADD COLUMN request_body_ref BIGINT;
ALTER TABLE journal ADD COLUMN response_body_ref BIGINT;
-- Partial: only entries that name a shared body pay for these, and they are what a body's
-- deletion looks up.
CREATE INDEX journal_request_body_ref ON journal (request_body_ref) WHERE request_body_ref IS NOT NULL;
CREATE INDEX journal_response_body_ref ON journal (response_body_ref) WHERE response_body_ref IS NOT NULL;
