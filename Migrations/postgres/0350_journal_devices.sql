-- PostgreSQL variant of Migrations/0350_journal_devices.sql: the same column and index.
-- The app installation (or user) a platform's checks said an SDK request concerns; NULL for
-- requests that name none and for entries journalled before this migration.
ALTER TABLE journal ADD COLUMN device TEXT;
-- Partial: a device's timeline and the device list read only the rows that name a device.
CREATE INDEX journal_device ON journal (project_id, device, id) WHERE device IS NOT NULL;
