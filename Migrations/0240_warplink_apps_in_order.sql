-- Every attribution match reads the project's apps in (created_at, id) order to scope its
-- candidates; the primary key leads to them in id order, so SQLite sorted them in a temporary
-- sorter each time. This index holds them in the order read.
CREATE INDEX warplink_apps_order ON warplink_apps (project_id, created_at, id);
