-- Every Asleep upload, report fetch and session call first closes the project's sessions past
-- their maximum length and completes the closed ones past their delay. Those two lookups had only
-- the index on state: they read every open or closed night of every project. By project and state
-- they read this project's nights in progress alone, however many other projects and finished
-- nights the database holds.
CREATE INDEX asleep_sessions_due ON asleep_sessions (project_id, state);
