-- PostgreSQL variant of Migrations/0190_voucher_lookups_by_caller.sql: the same partial indexes, so
-- that a caller's latest voucher lookup is found by user or device.
CREATE INDEX wl_voucher_lookups_user ON wl_voucher_lookups (project_id, user_id, id) WHERE user_id IS NOT NULL;
CREATE INDEX wl_voucher_lookups_device ON wl_voucher_lookups (project_id, device_id, id) WHERE device_id IS NOT NULL;
