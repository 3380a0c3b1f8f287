-- Instances sharing this database draw request (journal) ids from one sequence, so two of them
-- never number two requests alike; it starts past whatever the journal already holds.
CREATE SEQUENCE journal_ids;
SELECT setval('journal_ids', greatest((SELECT max(id) FROM journal), 0) + 1, false);
