-- Two rows per game instead of one per move, as
-- migrations/sqlite/0010_packed_moves.sql explains: each side's move totals in
-- the game's row instead of `move_totals`, and the moves as one JSON array per
-- game in `game_moves.moves_json`, one array per engine move,
--   [uci, san, time_ms, clock_ms, score_cp, score_mate, depth, seldepth, nodes, nps, pv];
-- the view `moves` shows them as the table of earlier versions did.

ALTER TABLE games ADD COLUMN white_moves BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_time_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_depth_sum BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_depth_moves BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_nodes_sum BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_nodes_moves BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_nps_sum BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_nps_moves BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_moves BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_time_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_depth_sum BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_depth_moves BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_nodes_sum BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_nodes_moves BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_nps_sum BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_nps_moves BIGINT NOT NULL DEFAULT 0;

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
    game_id    BIGINT PRIMARY KEY REFERENCES games (id),
    moves_json TEXT NOT NULL
);

INSERT INTO game_moves (game_id, moves_json)
SELECT game_id, json_agg(json_build_array(uci, san, time_ms, clock_ms, score_cp, score_mate, depth, seldepth,
                                          nodes, nps, pv) ORDER BY ply)::TEXT
FROM moves GROUP BY game_id;

DROP TABLE moves;

CREATE VIEW moves AS
SELECT gm.game_id AS game_id, j.ordinality - 1 AS ply,
       j.value ->> 0 AS uci, j.value ->> 1 AS san, (j.value ->> 2)::BIGINT AS time_ms,
       (j.value ->> 3)::BIGINT AS clock_ms, (j.value ->> 4)::BIGINT AS score_cp, (j.value ->> 5)::BIGINT AS score_mate,
       (j.value ->> 6)::BIGINT AS depth, (j.value ->> 7)::BIGINT AS seldepth, (j.value ->> 8)::BIGINT AS nodes,
       (j.value ->> 9)::BIGINT AS nps, j.value ->> 10 AS pv
FROM game_moves gm CROSS JOIN LATERAL jsonb_array_elements(gm.moves_json::JSONB) WITH ORDINALITY AS j(value, ordinality);
