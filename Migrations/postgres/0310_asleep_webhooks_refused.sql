-- PostgreSQL variant of Migrations/0310_asleep_webhooks_refused.sql: a webhook the server would
-- not send (its target's address is not allowed while Understudy listens beyond loopback) is
-- `refused`. PostgreSQL changes the constraint in place.
ALTER TABLE asleep_webhooks DROP CONSTRAINT asleep_webhooks_status_check;
ALTER TABLE asleep_webhooks ADD CONSTRAINT asleep_webhooks_status_check
    CHECK (status IN ('pending', 'delivered', 'failed', 'refused'));
