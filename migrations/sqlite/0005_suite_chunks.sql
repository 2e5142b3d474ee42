-- Test-suite runs shared with workers: a suite run's work is cut into chunks
-- (one engine, one limit, a range of positions), handed out with a lease and
-- a claim number like pairs (see 0004_leases.sql). A chunk's answers are
-- stored in the transaction that finishes it, only while its claim is the
-- newest; positions already answered are skipped when a chunk is replayed.

CREATE TABLE suite_chunks (
    id             INTEGER PRIMARY KEY,
    run_id         INTEGER NOT NULL REFERENCES runs (id),
    idx            INTEGER NOT NULL,      -- position in the plan
    engine         TEXT NOT NULL,
    limit_index    INTEGER NOT NULL,
    first_position INTEGER NOT NULL,
    positions      INTEGER NOT NULL,
    status         TEXT NOT NULL DEFAULT 'pending',  -- pending | running | done
    lease_until    INTEGER,
    claims         INTEGER NOT NULL DEFAULT 0,
    worker         TEXT,
    UNIQUE (run_id, idx)
);
CREATE INDEX suite_chunks_by_status ON suite_chunks (run_id, status, idx);
