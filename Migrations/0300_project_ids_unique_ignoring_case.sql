-- Project ids are unique ignoring case: `Demo` and `demo` would export to one file on a
-- case-insensitive file system (macOS's), and read as one project to a person. Lookups stay exact.
--
-- A database may already hold ids that differ only in case, and the migration must not fail on
-- them. Each such set keeps one project (the least id in byte order) at `legacy_case_key = ''`;
-- the others carry their own id there, which keeps them apart in the unique index. Every project
-- made from now on has '' and so collides with any project of the same id ignoring case,
-- including the one kept at '' of a set that was already there. The server warns at start about
-- the sets it finds, and export on exit writes only the first project of each.
ALTER TABLE projects ADD COLUMN legacy_case_key TEXT NOT NULL DEFAULT '';
UPDATE projects SET legacy_case_key = id
WHERE EXISTS (SELECT 1 FROM projects AS other WHERE lower(other.id) = lower(projects.id) AND other.id < projects.id);
CREATE UNIQUE INDEX projects_id_ignoring_case ON projects (lower(id), legacy_case_key);
