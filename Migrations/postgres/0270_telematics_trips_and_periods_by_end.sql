-- A manual event is filed under the trip and the period that contain its time. Looked up by start
-- (`started_ms <= t`), that read every earlier trip and period of the user, and a user replaying a
-- year of driving has thousands: the event's own insert grew with the user's history. Looked up by
-- end (`ended_ms >= t`), an event sent as it happens reads the few that end after it; an open
-- period's NULL end sorts first in the same index.
CREATE INDEX telematics_trips_user_end ON telematics_trips (project_id, user_id, ended_ms);
CREATE INDEX telematics_periods_user_end ON telematics_periods (project_id, user_id, ended_ms);
