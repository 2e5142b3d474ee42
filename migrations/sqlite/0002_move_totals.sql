-- Per game and side: how many moves, time used, and the sums of what the
-- engine reported (depth, nodes, nps), with how many moves reported each.
-- Reports read averages per engine from here instead of scanning `moves`
-- (a 100,000-game run has about 15 million move rows). Written with each
-- game by `save_game`; rows of games stored before this migration are
-- computed here from `moves`.

CREATE TABLE move_totals (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    side        INTEGER NOT NULL,        -- 0: White, 1: Black
    moves       INTEGER NOT NULL,
    time_ms     INTEGER NOT NULL,
    depth_sum   INTEGER NOT NULL,
    depth_moves INTEGER NOT NULL,
    nodes_sum   INTEGER NOT NULL,
    nodes_moves INTEGER NOT NULL,
    nps_sum     INTEGER NOT NULL,
    nps_moves   INTEGER NOT NULL,
    PRIMARY KEY (game_id, side)
) WITHOUT ROWID;

-- The side that played engine ply p: White moves first when the start FEN
-- says `w`; every opening move passes the turn.
INSERT INTO move_totals (game_id, side, moves, time_ms, depth_sum, depth_moves, nodes_sum, nodes_moves, nps_sum, nps_moves)
SELECT m.game_id,
       (m.ply
        + (substr(g.start_fen, instr(g.start_fen, ' ') + 1, 1) = 'b')
        + CASE WHEN g.opening_moves = '' THEN 0
               ELSE length(g.opening_moves) - length(replace(g.opening_moves, ' ', '')) + 1 END) % 2 AS side,
       COUNT(*), SUM(m.time_ms),
       IFNULL(SUM(m.depth), 0), COUNT(m.depth),
       IFNULL(SUM(m.nodes), 0), COUNT(m.nodes),
       IFNULL(SUM(m.nps), 0), COUNT(m.nps)
FROM moves m JOIN games g ON g.id = m.game_id
GROUP BY m.game_id, side;
