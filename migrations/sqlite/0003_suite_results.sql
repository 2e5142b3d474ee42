-- Test-suite runs (`arena suite`): one row per engine, limit and position.
-- The run's spec (engines, suite, limits) lives in `runs.spec`; a resumed
-- suite run skips the rows already here.

CREATE TABLE suite_results (
    run_id      INTEGER NOT NULL REFERENCES runs (id),
    engine      TEXT NOT NULL,
    limit_index INTEGER NOT NULL,        -- position of the limit in the spec
    limit_label TEXT NOT NULL,           -- e.g. "depth 8", "nodes 5400", "movetime 100"
    position    INTEGER NOT NULL,        -- index in the suite
    position_id TEXT NOT NULL,           -- the EPD id
    best_move   TEXT,                    -- UCI; NULL when the engine gave none
    solved      INTEGER NOT NULL,        -- 0 or 1
    nodes       INTEGER,
    depth       INTEGER,
    time_ms     INTEGER NOT NULL,
    score_cp    INTEGER,
    score_mate  INTEGER,
    fault       TEXT NOT NULL DEFAULT '',  -- timeout or crash, else empty
    PRIMARY KEY (run_id, engine, limit_index, position)
) WITHOUT ROWID;
