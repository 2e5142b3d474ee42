-- The finished pairs by block of finishing order (see migrations/sqlite/0015_run_progress.sql).
CREATE TABLE run_progress (
    run_id   BIGINT NOT NULL REFERENCES runs (id),
    block    BIGINT NOT NULL,
    engine_a TEXT NOT NULL,
    engine_b TEXT NOT NULL,
    machine  TEXT NOT NULL,
    result0  TEXT NOT NULL,
    result1  TEXT NOT NULL,
    pairs    BIGINT NOT NULL,
    last_seq BIGINT NOT NULL,
    llr      DOUBLE PRECISION,
    PRIMARY KEY (run_id, block, engine_a, engine_b, machine, result0, result1)
);

UPDATE runs SET counts_kept = 0 WHERE id IN (SELECT DISTINCT run_id FROM pairs WHERE status = 'done');
