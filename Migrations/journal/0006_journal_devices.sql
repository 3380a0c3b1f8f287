-- The journal file's copy of the main schema's 0350_journal_devices (a test compares them): the
-- device a platform's checks said an SDK request concerns; NULL when it names none.
ALTER TABLE journal ADD COLUMN device TEXT;
-- Partial: a device's timeline and the device list read only the rows that name a device.
CREATE INDEX journal_device ON journal (project_id, device, id) WHERE device IS NOT NULL;
