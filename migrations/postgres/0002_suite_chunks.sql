-- Test-suite runs shared with workers: chunks (one engine, one limit, a range
-- of positions) handed out under a lease like pairs; see
-- migrations/sqlite/0005_suite_chunks.sql.

CREATE TABLE suite_chunks (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id         BIGINT NOT NULL REFERENCES runs (id),
    idx            BIGINT NOT NULL,
    engine         TEXT NOT NULL,
    limit_index    BIGINT NOT NULL,
    first_position BIGINT NOT NULL,
    positions      BIGINT NOT NULL,
    status         TEXT NOT NULL DEFAULT 'pending',
    lease_until    BIGINT,
    claims         BIGINT NOT NULL DEFAULT 0,
    worker         TEXT,
    UNIQUE (run_id, idx)
);
CREATE INDEX suite_chunks_by_status ON suite_chunks (run_id, status, idx);
