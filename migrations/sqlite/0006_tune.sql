-- SPSA tuning runs (`arena tune`): one row per finished iteration (one pair of
-- games between θ+ and θ−), written in the transaction that finishes the pair,
-- so θ and the pair's games are committed together. The current θ is the
-- newest row's; a run without rows is at its spec's start. Vectors are JSON
-- arrays in the order of the spec's parameters.

CREATE TABLE tune_iterations (
    id          INTEGER PRIMARY KEY,
    run_id      INTEGER NOT NULL REFERENCES runs (id),
    pair_id     INTEGER NOT NULL REFERENCES pairs (id),
    k           INTEGER NOT NULL,      -- iteration, 1-based (pair index + 1)
    flips       TEXT NOT NULL,         -- Δ, each +1 or -1
    plus        TEXT NOT NULL,         -- θ + c_k·Δ as sent
    minus       TEXT NOT NULL,         -- θ − c_k·Δ as sent
    score       INTEGER NOT NULL,      -- wins − losses of θ+ over the pair
    theta       TEXT NOT NULL,         -- θ after the update
    finished_ms INTEGER NOT NULL,
    UNIQUE (pair_id)
);
CREATE INDEX tune_iterations_by_run ON tune_iterations (run_id, id);
