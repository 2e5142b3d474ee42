-- Counts kept as pairs finish (issue #37): the views of a run (`arena show`,
-- `report`, the dashboard) read these instead of every game, so they cost
-- the same at a million games as at a hundred. `db/src/counts.rs` adds a
-- finished pair's two games to them in the transaction that finishes it,
-- and fills them for the runs stored before (`runs.counts_kept = 0`) when
-- the database is next opened, a run per transaction (safe to interrupt).

-- Each finished pair's results in its own row (game 0: engine_a White) and
-- the machine that played it.
ALTER TABLE pairs ADD COLUMN result0 TEXT;
ALTER TABLE pairs ADD COLUMN result1 TEXT;
ALTER TABLE pairs ADD COLUMN machine TEXT;

-- The finished pairs by pairing, machine and results (what the short view,
-- the ratings and the machines' residuals count).
CREATE TABLE run_pairs (
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    engine_a TEXT NOT NULL,
    engine_b TEXT NOT NULL,
    machine  TEXT NOT NULL,
    result0  TEXT NOT NULL,
    result1  TEXT NOT NULL,
    pairs    INTEGER NOT NULL,
    PRIMARY KEY (run_id, engine_a, engine_b, machine, result0, result1)
) WITHOUT ROWID;

-- The games of finished pairs by what a report groups them by.
CREATE TABLE run_games (
    run_id      INTEGER NOT NULL REFERENCES runs (id),
    machine     TEXT NOT NULL,
    white       TEXT NOT NULL,
    black       TEXT NOT NULL,
    result      TEXT NOT NULL,
    termination TEXT NOT NULL,
    plies       INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    PRIMARY KEY (run_id, machine, white, black, result, termination, plies)
) WITHOUT ROWID;

-- Per engine, its moves in the games of finished pairs (the games' totals summed).
CREATE TABLE run_engine_totals (
    run_id         INTEGER NOT NULL REFERENCES runs (id),
    engine         TEXT NOT NULL,
    moves          INTEGER NOT NULL,
    time_ms        INTEGER NOT NULL,
    depth_sum      INTEGER NOT NULL,
    depth_moves    INTEGER NOT NULL,
    nodes_sum      INTEGER NOT NULL,
    nodes_moves    INTEGER NOT NULL,
    nps_sum        INTEGER NOT NULL,
    nps_moves      INTEGER NOT NULL,
    seldepth_sum   INTEGER NOT NULL,
    seldepth_moves INTEGER NOT NULL,
    PRIMARY KEY (run_id, engine)
) WITHOUT ROWID;

-- Per machine and engine, the move overhead histogram (model/src/latency.rs) by bucket.
CREATE TABLE run_overheads (
    run_id  INTEGER NOT NULL REFERENCES runs (id),
    machine TEXT NOT NULL,
    engine  TEXT NOT NULL,
    bucket  INTEGER NOT NULL,
    moves   INTEGER NOT NULL,
    PRIMARY KEY (run_id, machine, engine, bucket)
) WITHOUT ROWID;

ALTER TABLE runs ADD COLUMN counts_kept INTEGER NOT NULL DEFAULT 1;
UPDATE runs SET counts_kept = 0 WHERE id IN (SELECT DISTINCT run_id FROM games);

-- The few games a machine's fault ended, for the machines section.
CREATE INDEX games_by_fault ON games (run_id, id)
    WHERE termination IN ('time-forfeit', 'illegal-move', 'disconnect', 'stalled');
