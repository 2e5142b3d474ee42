-- Workers on several processes or machines share a run: a pair is handed out
-- with a lease (pairs.lease_until, renewed by heartbeats) and a claim number
-- (pairs.claims, counted up at each hand-out). A worker may store a game of a
-- pair only while its claim is the newest and the pair is still running, so a
-- late result from a worker presumed dead is discarded, never counted twice.
--
-- tallies: each pairing's W/D/L and pentanomial counts, updated in the
-- transaction that finishes a pair; the SPRT reads them there. Rows for runs
-- stored before this migration are computed from their finished pairs.

ALTER TABLE pairs ADD COLUMN claims INTEGER NOT NULL DEFAULT 0;
ALTER TABLE pairs ADD COLUMN worker TEXT;  -- who holds (or last held) the pair

CREATE TABLE tallies (
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    engine_a TEXT NOT NULL,
    engine_b TEXT NOT NULL,
    wins     INTEGER NOT NULL DEFAULT 0,   -- games engine_a won
    draws    INTEGER NOT NULL DEFAULT 0,
    losses   INTEGER NOT NULL DEFAULT 0,
    p0       INTEGER NOT NULL DEFAULT 0,   -- pairs by engine_a's score in half points
    p1       INTEGER NOT NULL DEFAULT 0,
    p2       INTEGER NOT NULL DEFAULT 0,
    p3       INTEGER NOT NULL DEFAULT 0,
    p4       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (run_id, engine_a, engine_b)
) WITHOUT ROWID;

INSERT INTO tallies (run_id, engine_a, engine_b, wins, draws, losses, p0, p1, p2, p3, p4)
SELECT run_id, engine_a, engine_b,
       SUM((s0 = 2) + (s1 = 2)), SUM((s0 = 1) + (s1 = 1)), SUM((s0 = 0) + (s1 = 0)),
       SUM(s0 + s1 = 0), SUM(s0 + s1 = 1), SUM(s0 + s1 = 2), SUM(s0 + s1 = 3), SUM(s0 + s1 = 4)
FROM (SELECT p.run_id, p.engine_a, p.engine_b,
             (SELECT CASE g.result WHEN '1-0' THEN 2 WHEN '0-1' THEN 0 ELSE 1 END
              FROM games g WHERE g.pair_id = p.id AND g.game_in_pair = 0) AS s0,
             (SELECT CASE g.result WHEN '0-1' THEN 2 WHEN '1-0' THEN 0 ELSE 1 END
              FROM games g WHERE g.pair_id = p.id AND g.game_in_pair = 1) AS s1
      FROM pairs p WHERE p.status = 'done')
WHERE s0 IS NOT NULL AND s1 IS NOT NULL
GROUP BY run_id, engine_a, engine_b;
