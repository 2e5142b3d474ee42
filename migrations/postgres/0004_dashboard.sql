-- Run priority and the workers table; see migrations/sqlite/0007_dashboard.sql.

ALTER TABLE runs ADD COLUMN priority BIGINT NOT NULL DEFAULT 0;

CREATE TABLE workers (
    name         TEXT PRIMARY KEY,
    started_ms   BIGINT NOT NULL,
    last_seen_ms BIGINT NOT NULL,
    run_id       BIGINT,
    doing        TEXT NOT NULL DEFAULT '',
    units        BIGINT NOT NULL DEFAULT 0,
    progress     BIGINT NOT NULL DEFAULT 0,
    faults       BIGINT NOT NULL DEFAULT 0
);
