-- Some lists come back in insertion order (`ORDER BY created_at, rowid`), and copies of a table
-- without a primary key are ordered by rowid. SQLite numbers every row already, so this migration
-- changes nothing here; its PostgreSQL twin adds a `rowid` column to the tables that need one.
SELECT 1;
