-- arena schema, PostgreSQL: the same tables as migrations/sqlite after all of
-- its steps (see there for what each column means), with BIGINT integers and
-- identity keys. Runs own pairs (one opening, both colours); pairs own games;
-- games own moves. Pairs are handed to workers with a lease (lease_until,
-- renewed by heartbeats) and a claim number (claims): only the newest claim
-- of a running pair may store games.

CREATE TABLE engines (
    id   BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name TEXT NOT NULL,
    spec TEXT NOT NULL,
    UNIQUE (name, spec)
);

CREATE TABLE runs (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind        TEXT NOT NULL,
    spec        TEXT NOT NULL,
    status      TEXT NOT NULL,
    verdict     TEXT,
    created_ms  BIGINT NOT NULL,
    finished_ms BIGINT,
    machine     TEXT NOT NULL
);

CREATE TABLE run_engines (
    run_id    BIGINT NOT NULL REFERENCES runs (id),
    engine_id BIGINT NOT NULL REFERENCES engines (id),
    PRIMARY KEY (run_id, engine_id)
);

CREATE TABLE pairs (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id        BIGINT NOT NULL REFERENCES runs (id),
    idx           BIGINT NOT NULL,
    engine_a      TEXT NOT NULL,
    engine_b      TEXT NOT NULL,
    opening_index BIGINT NOT NULL,
    opening_name  TEXT NOT NULL,
    fen           TEXT NOT NULL,
    opening_moves TEXT NOT NULL,
    opening_san   TEXT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'pending',
    finished_seq  BIGINT,
    llr           DOUBLE PRECISION,
    lease_until   BIGINT,
    claims        BIGINT NOT NULL DEFAULT 0,
    worker        TEXT,
    UNIQUE (run_id, idx)
);
CREATE INDEX pairs_by_status ON pairs (run_id, status, idx);
CREATE INDEX pairs_by_finish ON pairs (run_id, finished_seq);

CREATE TABLE games (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id        BIGINT NOT NULL REFERENCES runs (id),
    pair_id       BIGINT NOT NULL REFERENCES pairs (id),
    game_in_pair  BIGINT NOT NULL,
    white         TEXT NOT NULL,
    black         TEXT NOT NULL,
    result        TEXT NOT NULL,
    termination   TEXT NOT NULL,
    detail        TEXT NOT NULL,
    plies         BIGINT NOT NULL,
    start_fen     TEXT NOT NULL,
    opening       TEXT NOT NULL,
    opening_moves TEXT NOT NULL,
    opening_san   TEXT NOT NULL,
    started_ms    BIGINT NOT NULL,
    finished_ms   BIGINT NOT NULL,
    UNIQUE (pair_id, game_in_pair)
);
CREATE INDEX games_by_run ON games (run_id, id);

CREATE TABLE moves (
    game_id    BIGINT NOT NULL REFERENCES games (id),
    ply        BIGINT NOT NULL,
    uci        TEXT NOT NULL,
    san        TEXT NOT NULL,
    time_ms    BIGINT NOT NULL,
    clock_ms   BIGINT NOT NULL,
    score_cp   BIGINT,
    score_mate BIGINT,
    depth      BIGINT,
    seldepth   BIGINT,
    nodes      BIGINT,
    nps        BIGINT,
    pv         TEXT NOT NULL,
    PRIMARY KEY (game_id, ply)
);

CREATE TABLE move_totals (
    game_id     BIGINT NOT NULL REFERENCES games (id),
    side        BIGINT NOT NULL,
    moves       BIGINT NOT NULL,
    time_ms     BIGINT NOT NULL,
    depth_sum   BIGINT NOT NULL,
    depth_moves BIGINT NOT NULL,
    nodes_sum   BIGINT NOT NULL,
    nodes_moves BIGINT NOT NULL,
    nps_sum     BIGINT NOT NULL,
    nps_moves   BIGINT NOT NULL,
    PRIMARY KEY (game_id, side)
);

CREATE TABLE suite_results (
    run_id      BIGINT NOT NULL REFERENCES runs (id),
    engine      TEXT NOT NULL,
    limit_index BIGINT NOT NULL,
    limit_label TEXT NOT NULL,
    position    BIGINT NOT NULL,
    position_id TEXT NOT NULL,
    best_move   TEXT,
    solved      BIGINT NOT NULL,
    nodes       BIGINT,
    depth       BIGINT,
    time_ms     BIGINT NOT NULL,
    score_cp    BIGINT,
    score_mate  BIGINT,
    fault       TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (run_id, engine, limit_index, position)
);

CREATE TABLE tallies (
    run_id   BIGINT NOT NULL REFERENCES runs (id),
    engine_a TEXT NOT NULL,
    engine_b TEXT NOT NULL,
    wins     BIGINT NOT NULL DEFAULT 0,
    draws    BIGINT NOT NULL DEFAULT 0,
    losses   BIGINT NOT NULL DEFAULT 0,
    p0       BIGINT NOT NULL DEFAULT 0,
    p1       BIGINT NOT NULL DEFAULT 0,
    p2       BIGINT NOT NULL DEFAULT 0,
    p3       BIGINT NOT NULL DEFAULT 0,
    p4       BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, engine_a, engine_b)
);
