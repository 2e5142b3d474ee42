-- Machines watched; see migrations/sqlite/0012_machines.sql.
ALTER TABLE games ADD COLUMN machine TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN lost_ms BIGINT;
ALTER TABLE games ADD COLUMN white_overheads TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN black_overheads TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN tc_scale DOUBLE PRECISION;

UPDATE games SET machine = split_part(p.worker, ':', 1)
FROM pairs p WHERE p.id = games.pair_id AND position(':' IN p.worker) > 1;

CREATE TABLE run_machines (
    run_id       BIGINT NOT NULL REFERENCES runs (id),
    machine      TEXT NOT NULL,
    set_aside    TEXT NOT NULL DEFAULT '',
    set_aside_ms BIGINT,
    readmitted   BIGINT NOT NULL DEFAULT 0,
    left_out     TEXT NOT NULL DEFAULT '',
    nps          BIGINT,
    scale        DOUBLE PRECISION,
    PRIMARY KEY (run_id, machine)
);

DROP VIEW moves;
CREATE VIEW moves AS
SELECT gm.game_id AS game_id, j.ordinality - 1 AS ply,
       j.value ->> 0 AS uci, j.value ->> 1 AS san, (j.value ->> 2)::BIGINT AS time_ms,
       (j.value ->> 3)::BIGINT AS clock_ms, (j.value ->> 4)::BIGINT AS score_cp, (j.value ->> 5)::BIGINT AS score_mate,
       (j.value ->> 6)::BIGINT AS depth, (j.value ->> 7)::BIGINT AS seldepth, (j.value ->> 8)::BIGINT AS nodes,
       (j.value ->> 9)::BIGINT AS nps, j.value ->> 10 AS pv,
       (j.value ->> 11)::BIGINT AS latency_ms, (j.value ->> 12)::BIGINT AS engine_ms
FROM game_moves gm CROSS JOIN LATERAL jsonb_array_elements(gm.moves_json::JSONB) WITH ORDINALITY AS j(value, ordinality);
