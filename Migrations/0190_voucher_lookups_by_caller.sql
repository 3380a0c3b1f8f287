-- Registration and warranty calls read the caller's latest voucher lookup: by user, then by
-- device. The only index was (project, id), so SQLite walked every lookup of the project from the
-- newest until it met the caller's, and all of them for a user or device that had never looked
-- one up: each registration grew with every other device's lookups. The price is two index
-- entries per lookup, about 5% of a voucher lookup's CPU.
CREATE INDEX wl_voucher_lookups_user ON wl_voucher_lookups (project_id, user_id, id) WHERE user_id IS NOT NULL;
CREATE INDEX wl_voucher_lookups_device ON wl_voucher_lookups (project_id, device_id, id) WHERE device_id IS NOT NULL;
