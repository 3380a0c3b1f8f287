-- Project ids are unique ignoring case (see the SQLite migration of the same number). Ids that
-- already differ only in case keep one of each set (the least id in byte order, hence COLLATE "C")
-- at `legacy_case_key = ''` and the others apart under their own id; two instances creating
-- `Demo` and `demo` at once cannot both commit.
ALTER TABLE projects ADD COLUMN legacy_case_key TEXT NOT NULL DEFAULT '';
UPDATE projects SET legacy_case_key = id
WHERE EXISTS (SELECT 1 FROM projects AS other WHERE lower(other.id) = lower(projects.id) AND other.id COLLATE "C" < projects.id COLLATE "C");
CREATE UNIQUE INDEX projects_id_ignoring_case ON projects (lower(id), legacy_case_key);
