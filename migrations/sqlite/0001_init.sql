-- arena schema, SQLite. Runs own pairs (the unit of work: one opening, both
-- colours); pairs own games; games own moves. Only finished games are stored,
-- each in one transaction with its moves.

CREATE TABLE engines (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL,
    spec     TEXT NOT NULL,             -- JSON: command, args, dir, preset, options, tc
    UNIQUE (name, spec)
);

CREATE TABLE runs (
    id          INTEGER PRIMARY KEY,
    kind        TEXT NOT NULL,           -- elo | match | tournament | sprt
    spec        TEXT NOT NULL,           -- JSON RunSpec, everything needed to resume
    status      TEXT NOT NULL,           -- running | stopped | finished
    verdict     TEXT,                    -- SPRT: H1 | H0 | inconclusive
    created_ms  INTEGER NOT NULL,
    finished_ms INTEGER,
    machine     TEXT NOT NULL
);

CREATE TABLE run_engines (
    run_id    INTEGER NOT NULL REFERENCES runs (id),
    engine_id INTEGER NOT NULL REFERENCES engines (id),
    PRIMARY KEY (run_id, engine_id)
);

CREATE TABLE pairs (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs (id),
    idx           INTEGER NOT NULL,      -- position in the plan
    engine_a      TEXT NOT NULL,         -- White in the pair's first game
    engine_b      TEXT NOT NULL,
    opening_index INTEGER NOT NULL,
    opening_name  TEXT NOT NULL,
    fen           TEXT NOT NULL,
    opening_moves TEXT NOT NULL,         -- UCI, space-separated
    opening_san   TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'pending',  -- pending | running | done | skipped
    finished_seq  INTEGER,               -- order in which pairs finished
    llr           REAL,                  -- SPRT log-likelihood ratio after this pair
    lease_until   INTEGER,               -- for workers on several machines
    UNIQUE (run_id, idx)
);
CREATE INDEX pairs_by_status ON pairs (run_id, status, idx);
CREATE INDEX pairs_by_finish ON pairs (run_id, finished_seq);

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    run_id        INTEGER NOT NULL REFERENCES runs (id),
    pair_id       INTEGER NOT NULL REFERENCES pairs (id),
    game_in_pair  INTEGER NOT NULL,      -- 0: engine_a White, 1: engine_b White
    white         TEXT NOT NULL,
    black         TEXT NOT NULL,
    result        TEXT NOT NULL,         -- 1-0 | 0-1 | 1/2-1/2
    termination   TEXT NOT NULL,
    detail        TEXT NOT NULL,
    plies         INTEGER NOT NULL,
    start_fen     TEXT NOT NULL,
    opening       TEXT NOT NULL,
    opening_moves TEXT NOT NULL,
    opening_san   TEXT NOT NULL,
    started_ms    INTEGER NOT NULL,
    finished_ms   INTEGER NOT NULL,
    UNIQUE (pair_id, game_in_pair)
);
CREATE INDEX games_by_run ON games (run_id, id);

CREATE TABLE moves (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    ply        INTEGER NOT NULL,         -- 0-based, counting engine moves only
    uci        TEXT NOT NULL,
    san        TEXT NOT NULL,
    time_ms    INTEGER NOT NULL,
    clock_ms   INTEGER NOT NULL,
    score_cp   INTEGER,
    score_mate INTEGER,
    depth      INTEGER,
    seldepth   INTEGER,
    nodes      INTEGER,
    nps        INTEGER,
    pv         TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
