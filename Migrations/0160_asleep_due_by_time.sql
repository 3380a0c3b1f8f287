-- The checks for sessions due to close or complete ran on every Asleep upload, report fetch and
-- session call, and read every night of the project still in progress: a load test with 2,000
-- devices tracking at once made each upload cost three times the CPU. With the time in the index
-- they read the nights that are due and no others. A user's open nights (which starting a session
-- closes) get an index of their own: given the one on (project, state), SQLite read every open
-- night of the project for them too.
DROP INDEX asleep_sessions_due;
CREATE INDEX asleep_sessions_open_since ON asleep_sessions (project_id, state, start_time);
CREATE INDEX asleep_sessions_closed_since ON asleep_sessions (project_id, state, hold, closed_at);
CREATE INDEX asleep_sessions_user_state ON asleep_sessions (project_id, user_id, state);
