-- The journal says which requests came through the intercepting proxy, and for which host.
ALTER TABLE journal ADD COLUMN via TEXT;
ALTER TABLE journal ADD COLUMN proxy_host TEXT;
