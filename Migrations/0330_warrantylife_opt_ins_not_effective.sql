-- A Smart Saver opt-in a sensor event carries is always recorded; one the active warranty does
-- not offer (or with no active warranty) is kept with the reason it took no effect.
ALTER TABLE wl_opt_ins ADD COLUMN not_effective_reason TEXT;
