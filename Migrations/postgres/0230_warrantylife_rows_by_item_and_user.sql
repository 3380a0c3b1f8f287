-- A voucher lookup and an item's coverage read the warranties of one item, the SDK's warranty list
-- those of one user, and a registration without an item or device the user's newest item; each in
-- (created_at, id) order. The item index led only to (project, item), and nothing led to a user's
-- rows: the queries read every warranty (or item) of the project, then sorted what they kept.
-- These indexes lead to the rows, already in order.
DROP INDEX wl_warranties_item;
CREATE INDEX wl_warranties_item ON wl_warranties (project_id, item_id, created_at, id);
CREATE INDEX wl_warranties_user ON wl_warranties (project_id, user_id, created_at, id);
CREATE INDEX wl_items_user ON wl_items (project_id, user_id, created_at, id);
