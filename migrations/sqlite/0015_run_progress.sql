-- The finished pairs by block of finishing order (issue #37): a large run's
-- Elo and LLR curves are drawn from these instead of from every pair, so
-- its full report costs what its short view does. Block b holds the pairs
-- whose finished_seq is b × 256 + 1 to (b + 1) × 256 (model::PROGRESS_BLOCK);
-- `last_seq` is the finishing place of the row's latest pair and `llr` the
-- run's SPRT LLR after it. `db/src/counts.rs` keeps them with the other counts.
CREATE TABLE run_progress (
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    block    INTEGER NOT NULL,
    engine_a TEXT NOT NULL,
    engine_b TEXT NOT NULL,
    machine  TEXT NOT NULL,
    result0  TEXT NOT NULL,
    result1  TEXT NOT NULL,
    pairs    INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    llr      REAL,
    PRIMARY KEY (run_id, block, engine_a, engine_b, machine, result0, result1)
) WITHOUT ROWID;

-- Every run with finished pairs is counted again at the next open.
UPDATE runs SET counts_kept = 0 WHERE id IN (SELECT DISTINCT run_id FROM pairs WHERE status = 'done');
