-- PostgreSQL variant of Migrations/0180_warplink_links_by_slug.sql: the same index, so that a
-- lenient resolve finds a slug on any domain by project and slug.
CREATE INDEX warplink_links_project_slug ON warplink_links (project_id, slug);
