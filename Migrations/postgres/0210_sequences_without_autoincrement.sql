-- PostgreSQL variant of Migrations/0210_sequences_without_autoincrement.sql: nothing to change. There
-- the rebuilt tables drop SQLite's AUTOINCREMENT, whose counter row was rewritten by every write
-- transaction; here these columns are identity columns, whose sequence logs a change only once
-- every 32 values.
SELECT 1;
