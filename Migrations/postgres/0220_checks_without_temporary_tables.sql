-- PostgreSQL variant of Migrations/0220_checks_without_temporary_tables.sql: nothing to change. There
-- SQLite's CHECK constraints with IN lists are rewritten as ORs of equalities, because SQLite builds a
-- temporary B-tree for an IN list of three or more constants on every insert; PostgreSQL compares
-- the list in place.
SELECT 1;
