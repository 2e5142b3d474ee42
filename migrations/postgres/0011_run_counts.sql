-- Counts kept as pairs finish (see migrations/sqlite/0014_run_counts.sql).

ALTER TABLE pairs ADD COLUMN result0 TEXT;
ALTER TABLE pairs ADD COLUMN result1 TEXT;
ALTER TABLE pairs ADD COLUMN machine TEXT;

-- The finished pairs by pairing, machine and results (what the short view,
-- the ratings and the machines' residuals count).
CREATE TABLE run_pairs (
    run_id   BIGINT NOT NULL REFERENCES runs (id),
    engine_a TEXT NOT NULL,
    engine_b TEXT NOT NULL,
    machine  TEXT NOT NULL,
    result0  TEXT NOT NULL,
    result1  TEXT NOT NULL,
    pairs    BIGINT NOT NULL,
    PRIMARY KEY (run_id, engine_a, engine_b, machine, result0, result1)
);

CREATE TABLE run_games (
    run_id      BIGINT NOT NULL REFERENCES runs (id),
    machine     TEXT NOT NULL,
    white       TEXT NOT NULL,
    black       TEXT NOT NULL,
    result      TEXT NOT NULL,
    termination TEXT NOT NULL,
    plies       BIGINT NOT NULL,
    games       BIGINT NOT NULL,
    PRIMARY KEY (run_id, machine, white, black, result, termination, plies)
);

CREATE TABLE run_engine_totals (
    run_id         BIGINT NOT NULL REFERENCES runs (id),
    engine         TEXT NOT NULL,
    moves          BIGINT NOT NULL,
    time_ms        BIGINT NOT NULL,
    depth_sum      BIGINT NOT NULL,
    depth_moves    BIGINT NOT NULL,
    nodes_sum      BIGINT NOT NULL,
    nodes_moves    BIGINT NOT NULL,
    nps_sum        BIGINT NOT NULL,
    nps_moves      BIGINT NOT NULL,
    seldepth_sum   BIGINT NOT NULL,
    seldepth_moves BIGINT NOT NULL,
    PRIMARY KEY (run_id, engine)
);

CREATE TABLE run_overheads (
    run_id  BIGINT NOT NULL REFERENCES runs (id),
    machine TEXT NOT NULL,
    engine  TEXT NOT NULL,
    bucket  BIGINT NOT NULL,
    moves   BIGINT NOT NULL,
    PRIMARY KEY (run_id, machine, engine, bucket)
);

ALTER TABLE runs ADD COLUMN counts_kept BIGINT NOT NULL DEFAULT 1;
UPDATE runs SET counts_kept = 0 WHERE id IN (SELECT DISTINCT run_id FROM games);

CREATE INDEX games_by_fault ON games (run_id, id)
    WHERE termination IN ('time-forfeit', 'illegal-move', 'disconnect', 'stalled');
