-- PostgreSQL variant of Migrations/0170_telematics_periods_by_user.sql: the same index, so that a
-- user's open and unprocessed periods are found by user and id.
CREATE INDEX telematics_periods_user_id ON telematics_periods (project_id, user_id, id);
