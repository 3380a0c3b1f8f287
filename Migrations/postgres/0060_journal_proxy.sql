-- PostgreSQL variant of Migrations/0060_journal_proxy.sql: the same tables, columns, keys, indexes and defaults in
-- PostgreSQL types (INTEGER → BIGINT, REAL → DOUBLE PRECISION, BLOB → BYTEA, AUTOINCREMENT → identity).
-- The journal says which requests came through the intercepting proxy, and for which host.
ALTER TABLE journal ADD COLUMN via TEXT;
ALTER TABLE journal ADD COLUMN proxy_host TEXT;
