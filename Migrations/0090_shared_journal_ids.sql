-- Journal ids: one SQLite file has one server, which numbers its requests itself; this migration
-- changes nothing here. Its PostgreSQL twin adds the sequence that instances sharing one database
-- draw request ids from, so two instances never number two requests alike.
SELECT 1;
