-- Counts a worker cannot forge. A worker's role (db/src/roles.rs) writes no
-- count table: a pair is finished by arena_finish_pair, which runs as the
-- tables' owner, checks that the caller holds the pair, and derives every
-- count from the pair's two stored games in the caller's transaction. A
-- pair is held by whoever knows the key it was claimed with: a claim
-- writes the key into lease_key and the trigger below keeps only its
-- SHA-256 in lease_hash (lease_key is never stored), so reading the tables
-- (which every worker may) does not tell another worker the key. The
-- owner's own writes (local runs, resume, readmit) are trusted.

ALTER TABLE pairs ADD COLUMN lease_hash TEXT;
ALTER TABLE pairs ADD COLUMN lease_key TEXT;
ALTER TABLE games ADD COLUMN lease_key TEXT;
ALTER TABLE suite_chunks ADD COLUMN lease_hash TEXT;
ALTER TABLE suite_chunks ADD COLUMN lease_key TEXT;

CREATE FUNCTION arena_key_hash(key TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE
    AS $$ SELECT encode(sha256(convert_to(key, 'UTF8')), 'hex') $$;

-- Whether the current role is (or acts as) the owner of table `tab`.
CREATE FUNCTION arena_trusted(tab OID) RETURNS BOOLEAN LANGUAGE sql STABLE
    AS $$ SELECT pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = tab), 'USAGE') $$;

-- A's half points in a game of a pair: game 0 has A as White, game 1 as Black.
CREATE FUNCTION arena_half_points(result TEXT, a_white BOOLEAN) RETURNS INTEGER LANGUAGE sql IMMUTABLE
    AS $$ SELECT CASE WHEN result = '1/2-1/2' THEN 1
                      WHEN (result = '1-0') = a_white THEN 2 ELSE 0 END $$;

-- What a role other than the owner may change in a pair or a suite chunk
-- (the same columns): claim it when it is pending or its lease ran out (the
-- claim's key then holds it); renew or give back one it holds (its key);
-- give back one whose lease ran out or that a machine set aside holds; skip
-- the pairs of a run no longer running. It never marks a pair done:
-- arena_finish_pair does, as the owner.
CREATE FUNCTION arena_pairs_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
    now_ms BIGINT := CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT);
BEGIN
    IF NEW.claims IS DISTINCT FROM OLD.claims THEN
        IF NOT (OLD.status = 'pending' OR (OLD.status = 'running' AND OLD.lease_until < now_ms))
            AND NOT arena_trusted(TG_RELID) THEN
            RAISE EXCEPTION 'pair % of run % is held by another worker', OLD.idx, OLD.run_id USING ERRCODE = '42501';
        END IF;
        NEW.lease_hash := arena_key_hash(NEW.lease_key);
    ELSIF NOT arena_trusted(TG_RELID) THEN
        IF NEW.status = 'skipped' AND EXISTS
            (SELECT 1 FROM runs r WHERE r.id = OLD.run_id AND r.status = 'running') THEN
            RAISE EXCEPTION 'a worker skips pair % of run % only once its run no longer runs',
                OLD.idx, OLD.run_id USING ERRCODE = '42501';
        ELSIF NEW.status = 'pending' AND OLD.status = 'running' AND (OLD.lease_until < now_ms OR EXISTS
            (SELECT 1 FROM run_machines m WHERE m.run_id = OLD.run_id AND m.set_aside <> ''
                AND substr(OLD.worker, 1, length(m.machine) + 1) = m.machine || ':')) THEN
            NULL;
        ELSIF NEW.status <> 'skipped'
            AND (OLD.lease_hash IS NULL OR arena_key_hash(NEW.lease_key) IS DISTINCT FROM OLD.lease_hash) THEN
            RAISE EXCEPTION 'pair % of run % is held by another worker', OLD.idx, OLD.run_id USING ERRCODE = '42501';
        END IF;
    END IF;
    IF NEW.status <> 'running' THEN
        NEW.lease_hash := NULL;
    END IF;
    NEW.lease_key := NULL;
    RETURN NEW;
END $$;
-- A pair marked done is none of the trigger's business: only the owner
-- may (row-level security lets a worker's role write no 'done'), which
-- arena_finish_pair is.
CREATE TRIGGER arena_pairs_guard BEFORE UPDATE ON pairs FOR EACH ROW WHEN (NEW.status <> 'done')
    EXECUTE FUNCTION arena_pairs_guard();
CREATE TRIGGER arena_chunks_guard BEFORE UPDATE ON suite_chunks FOR EACH ROW EXECUTE FUNCTION arena_pairs_guard();

-- A role other than the owner stores a game only for a pair it holds.
CREATE FUNCTION arena_games_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    IF NOT arena_trusted(TG_RELID) AND NOT EXISTS (SELECT 1 FROM pairs p WHERE p.id = NEW.pair_id
        AND p.status = 'running' AND p.lease_hash = arena_key_hash(NEW.lease_key)) THEN
        RAISE EXCEPTION 'a game of pair id % that this worker does not hold', NEW.pair_id USING ERRCODE = '42501';
    END IF;
    NEW.lease_key := NULL;
    RETURN NEW;
END $$;
CREATE TRIGGER arena_games_guard BEFORE INSERT ON games FOR EACH ROW EXECUTE FUNCTION arena_games_guard();

-- Finishes running pair `p_pair`, claimed as `p_claim` with key `p_key`,
-- from its two stored games: the pair's results, machine and finishing
-- order in its row, and the pair and its games added to every count of its
-- run. Returns the pairing's tally as it now stands and whether another
-- pair of the run is left; no row when the claim is not the pair's newest
-- or the pair is not running (the lease was lost). The caller's
-- transaction holds the run's row (db/src/lease.rs): finishing order and
-- counts follow it. db/src/counts.rs counts the same on SQLite.
CREATE FUNCTION arena_finish_pair(p_pair BIGINT, p_claim BIGINT, p_key TEXT)
RETURNS TABLE (wins BIGINT, draws BIGINT, losses BIGINT, p0 BIGINT, p1 BIGINT, p2 BIGINT, p3 BIGINT, p4 BIGINT,
               open_pairs BIGINT)
LANGUAGE plpgsql SECURITY DEFINER AS $$
#variable_conflict use_column
DECLARE
    pr pairs%ROWTYPE;
    r0 TEXT;
    r1 TEXT;
    stored BIGINT;
    a0 INTEGER;
    a1 INTEGER;
BEGIN
    SELECT * INTO pr FROM pairs WHERE id = p_pair FOR UPDATE;
    IF NOT FOUND OR pr.status <> 'running' OR pr.claims <> p_claim THEN
        RETURN;
    END IF;
    IF pr.lease_hash IS NULL OR pr.lease_hash IS DISTINCT FROM arena_key_hash(p_key) THEN
        RAISE EXCEPTION 'pair % of run % is held by another worker', pr.idx, pr.run_id USING ERRCODE = '42501';
    END IF;
    SELECT COUNT(*), MAX(result) FILTER (WHERE game_in_pair = 0), MAX(result) FILTER (WHERE game_in_pair = 1)
        INTO stored, r0, r1 FROM games WHERE pair_id = p_pair;
    IF stored <> 2 OR r0 NOT IN ('1-0', '0-1', '1/2-1/2') OR r1 NOT IN ('1-0', '0-1', '1/2-1/2') THEN
        RAISE EXCEPTION 'pair % of run % is finishing without its two games', pr.idx, pr.run_id USING ERRCODE = '23514';
    END IF;
    UPDATE pairs SET status = 'done', result0 = r0, result1 = r1, lease_hash = NULL,
        machine = (SELECT MAX(g.machine) FROM games g WHERE g.pair_id = p_pair),
        finished_seq = (SELECT COALESCE(MAX(q.finished_seq), 0) + 1 FROM pairs q WHERE q.run_id = pr.run_id)
        WHERE id = p_pair RETURNING * INTO pr;

    INSERT INTO run_pairs AS c (run_id, engine_a, engine_b, machine, result0, result1, pairs)
        VALUES (pr.run_id, pr.engine_a, pr.engine_b, COALESCE(pr.machine, ''), r0, r1, 1)
        ON CONFLICT (run_id, engine_a, engine_b, machine, result0, result1) DO UPDATE SET pairs = c.pairs + 1;
    INSERT INTO run_progress AS c (run_id, block, engine_a, engine_b, machine, result0, result1, pairs, last_seq)
        VALUES (pr.run_id, (pr.finished_seq - 1) / 256, pr.engine_a, pr.engine_b, COALESCE(pr.machine, ''), r0, r1, 1,
                pr.finished_seq)
        ON CONFLICT (run_id, block, engine_a, engine_b, machine, result0, result1)
        DO UPDATE SET pairs = c.pairs + 1, last_seq = excluded.last_seq;
    INSERT INTO run_games AS c (run_id, machine, white, black, result, termination, plies, games)
        SELECT g.run_id, g.machine, g.white, g.black, g.result, g.termination, g.plies, COUNT(*) FROM games g
        WHERE g.pair_id = p_pair GROUP BY g.run_id, g.machine, g.white, g.black, g.result, g.termination, g.plies
        ON CONFLICT (run_id, machine, white, black, result, termination, plies) DO UPDATE SET games = c.games + excluded.games;
    INSERT INTO run_engine_totals AS c (run_id, engine, moves, time_ms, depth_sum, depth_moves, nodes_sum, nodes_moves,
            nps_sum, nps_moves, seldepth_sum, seldepth_moves)
        SELECT s.run_id, s.engine, SUM(s.moves), SUM(s.time_ms), SUM(s.depth_sum), SUM(s.depth_moves), SUM(s.nodes_sum),
            SUM(s.nodes_moves), SUM(s.nps_sum), SUM(s.nps_moves), SUM(s.seldepth_sum), SUM(s.seldepth_moves)
        FROM (SELECT g.run_id, g.white AS engine, g.white_moves AS moves, g.white_time_ms AS time_ms,
                  g.white_depth_sum AS depth_sum, g.white_depth_moves AS depth_moves, g.white_nodes_sum AS nodes_sum,
                  g.white_nodes_moves AS nodes_moves, g.white_nps_sum AS nps_sum, g.white_nps_moves AS nps_moves,
                  g.white_seldepth_sum AS seldepth_sum, g.white_seldepth_moves AS seldepth_moves
              FROM games g WHERE g.pair_id = p_pair AND g.white_moves > 0
              UNION ALL
              SELECT g.run_id, g.black, g.black_moves, g.black_time_ms, g.black_depth_sum, g.black_depth_moves,
                  g.black_nodes_sum, g.black_nodes_moves, g.black_nps_sum, g.black_nps_moves, g.black_seldepth_sum,
                  g.black_seldepth_moves
              FROM games g WHERE g.pair_id = p_pair AND g.black_moves > 0) s
        GROUP BY s.run_id, s.engine
        ON CONFLICT (run_id, engine) DO UPDATE SET moves = c.moves + excluded.moves, time_ms = c.time_ms + excluded.time_ms,
            depth_sum = c.depth_sum + excluded.depth_sum, depth_moves = c.depth_moves + excluded.depth_moves,
            nodes_sum = c.nodes_sum + excluded.nodes_sum, nodes_moves = c.nodes_moves + excluded.nodes_moves,
            nps_sum = c.nps_sum + excluded.nps_sum, nps_moves = c.nps_moves + excluded.nps_moves,
            seldepth_sum = c.seldepth_sum + excluded.seldepth_sum, seldepth_moves = c.seldepth_moves + excluded.seldepth_moves;
    -- Overheads as model::Latencies::decode reads them: "bucket:moves" words,
    -- a bucket below 256; a word that does not read is skipped.
    INSERT INTO run_overheads AS c (run_id, machine, engine, bucket, moves)
        SELECT g.run_id, g.machine, s.engine, CAST(split_part(w.word, ':', 1) AS BIGINT),
            SUM(CAST(split_part(w.word, ':', 2) AS BIGINT))
        FROM games g
        CROSS JOIN LATERAL (VALUES (g.white, g.white_overheads), (g.black, g.black_overheads)) s (engine, histogram)
        CROSS JOIN LATERAL regexp_split_to_table(s.histogram, '\s+') w (word)
        WHERE g.pair_id = p_pair AND w.word ~ '^[0-9]{1,3}:[0-9]{1,18}$'
            AND CAST(split_part(w.word, ':', 1) AS INTEGER) < 256
        GROUP BY g.run_id, g.machine, s.engine, CAST(split_part(w.word, ':', 1) AS BIGINT)
        ON CONFLICT (run_id, machine, engine, bucket) DO UPDATE SET moves = c.moves + excluded.moves;

    a0 := arena_half_points(r0, true);
    a1 := arena_half_points(r1, false);
    RETURN QUERY
    INSERT INTO tallies AS t (run_id, engine_a, engine_b, wins, draws, losses, p0, p1, p2, p3, p4)
        VALUES (pr.run_id, pr.engine_a, pr.engine_b,
            CAST(a0 = 2 AS INTEGER) + CAST(a1 = 2 AS INTEGER), CAST(a0 = 1 AS INTEGER) + CAST(a1 = 1 AS INTEGER),
            CAST(a0 = 0 AS INTEGER) + CAST(a1 = 0 AS INTEGER), CAST(a0 + a1 = 0 AS INTEGER),
            CAST(a0 + a1 = 1 AS INTEGER), CAST(a0 + a1 = 2 AS INTEGER), CAST(a0 + a1 = 3 AS INTEGER),
            CAST(a0 + a1 = 4 AS INTEGER))
        ON CONFLICT (run_id, engine_a, engine_b) DO UPDATE SET wins = t.wins + excluded.wins,
            draws = t.draws + excluded.draws, losses = t.losses + excluded.losses, p0 = t.p0 + excluded.p0,
            p1 = t.p1 + excluded.p1, p2 = t.p2 + excluded.p2, p3 = t.p3 + excluded.p3, p4 = t.p4 + excluded.p4
        RETURNING t.wins, t.draws, t.losses, t.p0, t.p1, t.p2, t.p3, t.p4,
            (SELECT COUNT(*) FROM (SELECT 1 FROM pairs q WHERE q.run_id = pr.run_id
                AND q.status IN ('pending', 'running') LIMIT 1) l);
END $$;

-- Takes the finished pairs of machine `p_machine`, set aside from run
-- `p_run`, out of the run's tallies (which the SPRT reads), and keeps them
-- in its run_machines row to put back if it is readmitted: the counts
-- derived here from the pairs, as db/src/machines.rs does on SQLite.
-- Nothing when the machine is not set aside or its pairs were left out.
CREATE FUNCTION arena_leave_out(p_run BIGINT, p_machine TEXT) RETURNS VOID
LANGUAGE plpgsql SECURITY DEFINER AS $$
#variable_conflict use_column
DECLARE
    kept JSONB := '[]';
    c RECORD;
BEGIN
    PERFORM 1 FROM run_machines WHERE run_id = p_run AND machine = p_machine AND set_aside <> ''
        AND readmitted = 0 AND left_out = '' FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    FOR c IN
        SELECT d.engine_a, d.engine_b, SUM(CAST(d.a0 = 2 AS INTEGER) + CAST(d.a1 = 2 AS INTEGER)) AS wins,
            SUM(CAST(d.a0 = 1 AS INTEGER) + CAST(d.a1 = 1 AS INTEGER)) AS draws,
            SUM(CAST(d.a0 = 0 AS INTEGER) + CAST(d.a1 = 0 AS INTEGER)) AS losses,
            SUM(CAST(d.a0 + d.a1 = 0 AS INTEGER)) AS p0, SUM(CAST(d.a0 + d.a1 = 1 AS INTEGER)) AS p1,
            SUM(CAST(d.a0 + d.a1 = 2 AS INTEGER)) AS p2, SUM(CAST(d.a0 + d.a1 = 3 AS INTEGER)) AS p3,
            SUM(CAST(d.a0 + d.a1 = 4 AS INTEGER)) AS p4
        FROM (SELECT q.engine_a, q.engine_b, arena_half_points(q.result0, true) AS a0,
                  arena_half_points(q.result1, false) AS a1
              FROM pairs q WHERE q.run_id = p_run AND q.status = 'done' AND q.machine = p_machine
                  AND q.result0 IS NOT NULL AND q.result1 IS NOT NULL) d
        GROUP BY d.engine_a, d.engine_b ORDER BY d.engine_a, d.engine_b
    LOOP
        UPDATE tallies t SET wins = t.wins - c.wins, draws = t.draws - c.draws, losses = t.losses - c.losses,
            p0 = t.p0 - c.p0, p1 = t.p1 - c.p1, p2 = t.p2 - c.p2, p3 = t.p3 - c.p3, p4 = t.p4 - c.p4
            WHERE t.run_id = p_run AND t.engine_a = c.engine_a AND t.engine_b = c.engine_b;
        kept := kept || jsonb_build_array(jsonb_build_array(c.engine_a, c.engine_b,
            jsonb_build_array(c.wins, c.draws, c.losses, c.p0, c.p1, c.p2, c.p3, c.p4)));
    END LOOP;
    UPDATE run_machines SET left_out = CAST(kept AS TEXT) WHERE run_id = p_run AND machine = p_machine;
END $$;

-- The functions that read tables read this schema's only, never a
-- caller's (a temporary table named `pairs` included): each runs with this
-- schema and then pg_temp on its path. (The three small ones name only the
-- system catalog's functions and tables, which come first on any path, and
-- are left free to be inlined.) A worker may run the two that count
-- (db/src/roles.rs grants them); nobody else may.
DO $$
DECLARE
    f TEXT;
BEGIN
    FOREACH f IN ARRAY ARRAY['arena_pairs_guard()', 'arena_games_guard()', 'arena_finish_pair(bigint, bigint, text)',
        'arena_leave_out(bigint, text)'] LOOP
        EXECUTE format('ALTER FUNCTION %s SET search_path = %I, pg_temp', f, current_schema());
    END LOOP;
END $$;
REVOKE EXECUTE ON FUNCTION arena_finish_pair(BIGINT, BIGINT, TEXT) FROM PUBLIC;
REVOKE EXECUTE ON FUNCTION arena_leave_out(BIGINT, TEXT) FROM PUBLIC;
