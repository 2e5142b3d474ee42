-- Machines watched (issue #35). Each game names the machine that played it
-- (`arena worker --name`, else the host name; older games get the host part
-- of the slot that held their pair), and, for a game lost on time or by a
-- stall, the wall time arena measured for the move that lost it (`lost_ms`).
-- Each side's move overheads (wall time beyond the engine's own `info time`)
-- as a histogram, `bucket:count` pairs (see model/src/latency.rs), so that a
-- report adds one short text per game instead of reading every move.
-- `tc_scale`: the factor the game's clock was multiplied by (`--scale-nps`).
-- The moves keep two more fields, [.., pv, latency_ms, engine_ms].
--
-- run_machines: a machine's standing in a run: set aside (no more pairs of
-- the run, and why), readmitted by a token holder; its measured speed and
-- clock factor when the run scales clocks.
ALTER TABLE games ADD COLUMN machine TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN lost_ms INTEGER;
ALTER TABLE games ADD COLUMN white_overheads TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN black_overheads TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN tc_scale REAL;

UPDATE games SET machine = COALESCE(
    (SELECT substr(p.worker, 1, instr(p.worker, ':') - 1) FROM pairs p
     WHERE p.id = games.pair_id AND instr(p.worker, ':') > 1), '');

CREATE TABLE run_machines (
    run_id       INTEGER NOT NULL REFERENCES runs (id),
    machine      TEXT NOT NULL,
    set_aside    TEXT NOT NULL DEFAULT '',   -- why it gets no more pairs ('' : it does)
    set_aside_ms INTEGER,
    readmitted   INTEGER NOT NULL DEFAULT 0, -- by a token holder: not set aside again
    left_out     TEXT NOT NULL DEFAULT '',   -- JSON: the counts taken out of `tallies` when set aside
    nps          INTEGER,                    -- its measured speed (--scale-nps)
    scale        REAL,                       -- its clock factor (--scale-nps)
    PRIMARY KEY (run_id, machine)
) WITHOUT ROWID;

DROP VIEW moves;
CREATE VIEW moves AS
SELECT gm.game_id AS game_id, CAST(j.key AS INTEGER) AS ply,
       j.value ->> 0 AS uci, j.value ->> 1 AS san, j.value ->> 2 AS time_ms, j.value ->> 3 AS clock_ms,
       j.value ->> 4 AS score_cp, j.value ->> 5 AS score_mate, j.value ->> 6 AS depth, j.value ->> 7 AS seldepth,
       j.value ->> 8 AS nodes, j.value ->> 9 AS nps, j.value ->> 10 AS pv,
       j.value ->> 11 AS latency_ms, j.value ->> 12 AS engine_ms
FROM game_moves gm, json_each(gm.moves_json) j;
