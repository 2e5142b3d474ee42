-- SPSA tuning runs: one row per finished iteration; see
-- migrations/sqlite/0006_tune.sql.

CREATE TABLE tune_iterations (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id      BIGINT NOT NULL REFERENCES runs (id),
    pair_id     BIGINT NOT NULL REFERENCES pairs (id),
    k           BIGINT NOT NULL,
    flips       TEXT NOT NULL,
    plus        TEXT NOT NULL,
    minus       TEXT NOT NULL,
    score       BIGINT NOT NULL,
    theta       TEXT NOT NULL,
    finished_ms BIGINT NOT NULL,
    UNIQUE (pair_id)
);
CREATE INDEX tune_iterations_by_run ON tune_iterations (run_id, id);
