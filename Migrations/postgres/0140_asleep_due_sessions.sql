-- PostgreSQL variant of Migrations/0140_asleep_due_sessions.sql: the same index. The lookups
-- for sessions due to close or complete read one project's open and closed nights by it.
CREATE INDEX asleep_sessions_due ON asleep_sessions (project_id, state);
