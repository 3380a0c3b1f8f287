-- PostgreSQL variant of Migrations/0160_asleep_due_by_time.sql: the same indexes, so that the
-- checks for sessions due to close or complete read only the nights that are due, and a user's
-- open nights are found by user.
DROP INDEX asleep_sessions_due;
CREATE INDEX asleep_sessions_open_since ON asleep_sessions (project_id, state, start_time);
CREATE INDEX asleep_sessions_closed_since ON asleep_sessions (project_id, state, hold, closed_at);
CREATE INDEX asleep_sessions_user_state ON asleep_sessions (project_id, user_id, state);
