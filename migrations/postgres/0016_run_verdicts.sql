-- Each candidate of a family of SPRTs (`arena sprt --base M --dev A --dev B`)
-- as it is decided: its verdict (H1 or H0), its LLR and pairs at the
-- decision, and the decision's place in the family's order (`step`, from 1):
-- the sequential Holm procedure reads each decided candidate at the level it
-- was decided at (reports/src/stats/family.rs). Written once, in the
-- transaction that finished the pair that decided it (a worker's role may
-- insert, for a running run: db/src/roles.rs); a candidate without a row is
-- undecided.
CREATE TABLE run_verdicts (
    run_id   BIGINT NOT NULL REFERENCES runs (id),
    engine_a TEXT NOT NULL,
    engine_b TEXT NOT NULL,
    verdict  TEXT NOT NULL,
    llr      DOUBLE PRECISION NOT NULL,
    pairs    BIGINT NOT NULL,
    step     BIGINT NOT NULL,
    PRIMARY KEY (run_id, engine_a, engine_b)
);

-- 0015's guard, with one more case a worker may skip a pair in: its
-- candidate of a family is decided while the run still runs.
CREATE OR REPLACE FUNCTION arena_pairs_guard() RETURNS TRIGGER LANGUAGE plpgsql AS $$
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
            (SELECT 1 FROM runs r WHERE r.id = OLD.run_id AND r.status = 'running') AND NOT EXISTS
            (SELECT 1 FROM run_verdicts v WHERE v.run_id = OLD.run_id AND v.engine_a = OLD.engine_a
                AND v.engine_b = OLD.engine_b) THEN
            RAISE EXCEPTION 'a worker skips pair % of run % only once its run no longer runs or its candidate is decided',
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
