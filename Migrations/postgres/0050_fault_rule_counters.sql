-- PostgreSQL variant of Migrations/0050_fault_rule_counters.sql: the same tables, columns, keys, indexes and defaults in
-- PostgreSQL types (INTEGER → BIGINT, REAL → DOUBLE PRECISION, BLOB → BYTEA, AUTOINCREMENT → identity).
-- Fault rules keep their counters across restarts: a rule with `times: 4` that has fired four
-- times stays spent, and `after: N` keeps counting from where it was.
ALTER TABLE fault_rules ADD COLUMN matched BIGINT NOT NULL DEFAULT 0;
ALTER TABLE fault_rules ADD COLUMN hits BIGINT NOT NULL DEFAULT 0;
