-- Each candidate of a family of SPRTs (`arena sprt --base M --dev A --dev B`)
-- as it is decided: its verdict (H1 or H0), its LLR and pairs at the
-- decision, and the decision's place in the family's order (`step`, from 1):
-- the sequential Holm procedure reads each decided candidate at the level it
-- was decided at (reports/src/stats/family.rs). Written once, in the
-- transaction that finished the pair that decided it; a candidate without a
-- row is undecided.
CREATE TABLE run_verdicts (
    run_id   INTEGER NOT NULL REFERENCES runs (id),
    engine_a TEXT NOT NULL,
    engine_b TEXT NOT NULL,
    verdict  TEXT NOT NULL,
    llr      REAL NOT NULL,
    pairs    INTEGER NOT NULL,
    step     INTEGER NOT NULL,
    PRIMARY KEY (run_id, engine_a, engine_b)
) WITHOUT ROWID;
