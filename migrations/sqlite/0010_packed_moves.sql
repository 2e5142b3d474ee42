-- Two rows per game instead of one per move (issue #16: storing a 200-ply
-- game took 1.0-2.2 ms, one B-tree insert per move plus two rows of totals).
--
-- 1. Each side's move totals (what reports average: moves, time, depth,
--    nodes, nps) in the game's row instead of two rows of `move_totals`
--    (side 0 was White).
-- 2. The moves as one JSON array per game in `game_moves.moves_json`, one
--    array per engine move: [uci, san, time_ms, clock_ms, score_cp,
--    score_mate, depth, seldepth, nodes, nps, pv] (null for what the engine
--    did not say). A table of their own keeps `games` rows small, so
--    summaries and reports scan few pages. The view `moves` shows them as
--    the table of earlier versions did, so SQL written against it still works.

ALTER TABLE games ADD COLUMN white_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_time_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_depth_sum INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_depth_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_nodes_sum INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_nodes_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_nps_sum INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_nps_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_time_ms INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_depth_sum INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_depth_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_nodes_sum INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_nodes_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_nps_sum INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_nps_moves INTEGER NOT NULL DEFAULT 0;

UPDATE games SET
    white_moves = t.moves,
    white_time_ms = t.time_ms,
    white_depth_sum = t.depth_sum,
    white_depth_moves = t.depth_moves,
    white_nodes_sum = t.nodes_sum,
    white_nodes_moves = t.nodes_moves,
    white_nps_sum = t.nps_sum,
    white_nps_moves = t.nps_moves
FROM move_totals t WHERE t.game_id = games.id AND t.side = 0;
UPDATE games SET
    black_moves = t.moves,
    black_time_ms = t.time_ms,
    black_depth_sum = t.depth_sum,
    black_depth_moves = t.depth_moves,
    black_nodes_sum = t.nodes_sum,
    black_nodes_moves = t.nodes_moves,
    black_nps_sum = t.nps_sum,
    black_nps_moves = t.nps_moves
FROM move_totals t WHERE t.game_id = games.id AND t.side = 1;

DROP TABLE move_totals;

CREATE TABLE game_moves (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    moves_json TEXT NOT NULL
);

INSERT INTO game_moves (game_id, moves_json)
SELECT game_id, json_group_array(json_array(uci, san, time_ms, clock_ms, score_cp, score_mate, depth, seldepth,
                                            nodes, nps, pv) ORDER BY ply)
FROM moves GROUP BY game_id;

DROP TABLE moves;

CREATE VIEW moves AS
SELECT gm.game_id AS game_id, CAST(j.key AS INTEGER) AS ply,
       j.value ->> 0 AS uci, j.value ->> 1 AS san, j.value ->> 2 AS time_ms, j.value ->> 3 AS clock_ms,
       j.value ->> 4 AS score_cp, j.value ->> 5 AS score_mate, j.value ->> 6 AS depth, j.value ->> 7 AS seldepth,
       j.value ->> 8 AS nodes, j.value ->> 9 AS nps, j.value ->> 10 AS pv
FROM game_moves gm, json_each(gm.moves_json) j;
