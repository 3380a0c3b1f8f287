-- With the lenient lookup setting on, a resolve whose domain has no such link looks the slug up on
-- any of the project's domains. The only index with the slug in it leads with the domain, so that
-- lookup read every link of the project (and so did every unknown slug an app resolved).
CREATE INDEX warplink_links_project_slug ON warplink_links (project_id, slug);
