-- A game's moves packed (issue #37: the JSON array of 0010 took about 90
-- bytes per ply). `packed_moves.data` keeps every field of every move in a
-- few bytes per ply: a format byte, the payload's length, the payload
-- compressed by zstd (layout in db/src/packed.rs). New games are stored here;
-- rows of `game_moves` written before stay readable as they are, and
-- `arena compact` moves them here in batches (safe to interrupt).
-- SQL cannot read the packed value: `arena moves RUN --csv` prints a row per
-- move, as the view `moves` did; the view is dropped, since it would show
-- only the games stored before.

CREATE TABLE packed_moves (
    game_id INTEGER PRIMARY KEY REFERENCES games (id),
    data    BLOB NOT NULL
);

DROP VIEW moves;

-- Each side's selective depth totals in the game's row, beside its depth
-- totals (0010): reports then read no moves, and a run pruned of its moves
-- (`arena prune`) keeps them. Backfilled from the JSON moves; a game's
-- first engine move is White's when the side to move after the opening is
-- White (the FEN's side, flipped by an odd number of opening moves).
ALTER TABLE games ADD COLUMN white_seldepth_sum INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_seldepth_moves INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_seldepth_sum INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_seldepth_moves INTEGER NOT NULL DEFAULT 0;

CREATE TEMP TABLE seldepths AS
SELECT gm.game_id AS game_id,
       (CAST(j.key AS INTEGER) % 2 = 0) = (
           (instr(g.start_fen, ' b ') = 0)
           = ((CASE WHEN trim(g.opening_moves) = '' THEN 0
                    ELSE length(trim(g.opening_moves)) - length(replace(trim(g.opening_moves), ' ', '')) + 1 END) % 2 = 0)
       ) AS white,
       CAST(j.value ->> 7 AS INTEGER) AS seldepth
FROM game_moves gm JOIN games g ON g.id = gm.game_id, json_each(gm.moves_json) j
WHERE j.value ->> 7 IS NOT NULL;

UPDATE games SET
    white_seldepth_sum = t.sum_w, white_seldepth_moves = t.count_w,
    black_seldepth_sum = t.sum_b, black_seldepth_moves = t.count_b
FROM (
    SELECT game_id,
           SUM(CASE WHEN white THEN seldepth ELSE 0 END) AS sum_w, SUM(white) AS count_w,
           SUM(CASE WHEN white THEN 0 ELSE seldepth END) AS sum_b, SUM(1 - white) AS count_b
    FROM seldepths GROUP BY game_id
) t
WHERE t.game_id = games.id;

DROP TABLE seldepths;
