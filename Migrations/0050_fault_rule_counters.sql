-- Fault rules keep their counters across restarts: a rule with `times: 4` that has fired four
-- times stays spent, and `after: N` keeps counting from where it was.
ALTER TABLE fault_rules ADD COLUMN matched INTEGER NOT NULL DEFAULT 0;
ALTER TABLE fault_rules ADD COLUMN hits INTEGER NOT NULL DEFAULT 0;
