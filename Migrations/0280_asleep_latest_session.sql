-- Fetching an Asleep user answers with their latest night: the last one created. The user's index
-- is in start order (the order their nights are listed in), so that lookup read every night the
-- user ever had and sorted them, and a device replaying months of nights has hundreds: the fetch
-- grew with the user's history. In creation order, it reads one row from the index's end.
CREATE INDEX asleep_sessions_user_created ON asleep_sessions (project_id, user_id, created_at, start_time, session_id);
