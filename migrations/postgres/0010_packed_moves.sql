-- A game's moves packed (see migrations/sqlite/0013_packed_moves.sql).

CREATE TABLE packed_moves (
    game_id BIGINT PRIMARY KEY REFERENCES games (id),
    data    BYTEA NOT NULL
);

DROP VIEW moves;

-- Each side's selective depth totals in the game's row (see the SQLite migration).
ALTER TABLE games ADD COLUMN white_seldepth_sum BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_seldepth_moves BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_seldepth_sum BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN black_seldepth_moves BIGINT NOT NULL DEFAULT 0;

UPDATE games SET
    white_seldepth_sum = t.sum_w, white_seldepth_moves = t.count_w,
    black_seldepth_sum = t.sum_b, black_seldepth_moves = t.count_b
FROM (
    SELECT s.game_id,
           SUM(CASE WHEN s.white THEN s.seldepth ELSE 0 END) AS sum_w, SUM(CASE WHEN s.white THEN 1 ELSE 0 END) AS count_w,
           SUM(CASE WHEN s.white THEN 0 ELSE s.seldepth END) AS sum_b, SUM(CASE WHEN s.white THEN 0 ELSE 1 END) AS count_b
    FROM (
        SELECT gm.game_id,
               ((j.ordinality - 1) % 2 = 0) = (
                   (split_part(g.start_fen, ' ', 2) <> 'b')
                   = (COALESCE(array_length(regexp_split_to_array(NULLIF(btrim(g.opening_moves), ''), '\s+'), 1), 0) % 2 = 0)
               ) AS white,
               (j.value ->> 7)::BIGINT AS seldepth
        FROM game_moves gm JOIN games g ON g.id = gm.game_id
        CROSS JOIN LATERAL jsonb_array_elements(gm.moves_json::JSONB) WITH ORDINALITY AS j(value, ordinality)
        WHERE j.value ->> 7 IS NOT NULL
    ) s
    GROUP BY s.game_id
) t
WHERE t.game_id = games.id;
