-- Mate-PV checks: one row per engine move whose mate score its PV does not
-- back (an illegal PV move, or a PV that does not mate in the announced
-- distance), stored in the game's own transaction. `ply` is the move's ply
-- in the game, from 1, opening moves included; `engine` is the engine that
-- made it.

CREATE TABLE pv_issues (
    id       INTEGER PRIMARY KEY,
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    game_id  INTEGER NOT NULL REFERENCES games (id),
    ply      INTEGER NOT NULL,
    engine   TEXT NOT NULL,
    kind     TEXT NOT NULL,              -- false-mate | illegal-pv-move
    detail   TEXT NOT NULL
);
CREATE INDEX pv_issues_by_run ON pv_issues (run_id, engine, kind);
