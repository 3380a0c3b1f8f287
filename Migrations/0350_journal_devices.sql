-- The app installation (or user) a platform's checks said an SDK request concerns
-- (`Observation.device`: an Asleep product's `SERIAL:…`, a WarrantyLife `deviceId` or
-- `item:<id>`), recorded as the request is answered; NULL for requests that name none and for
-- entries journalled before this migration. The device list and a device's timeline read it.
ALTER TABLE journal ADD COLUMN device TEXT;
-- Partial: a device's timeline and the device list read only the rows that name a device, in
-- journal order, and requests that name none cost no index write.
CREATE INDEX journal_device ON journal (project_id, device, id) WHERE device IS NOT NULL;
