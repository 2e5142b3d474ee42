-- For the dashboard (`arena serve`) and run control: a run's priority
-- (workers and slots take the highest first, then the oldest), and one row
-- per arena process that plays work (a local run's process or an `arena
-- worker`), kept by the work loop: when it was last seen (at each claim,
-- heartbeat and store), its latest unit, what it stored and its faults.

ALTER TABLE runs ADD COLUMN priority INTEGER NOT NULL DEFAULT 0;

CREATE TABLE workers (
    name         TEXT PRIMARY KEY,           -- host:pid
    started_ms   INTEGER NOT NULL,
    last_seen_ms INTEGER NOT NULL,
    run_id       INTEGER,                    -- the run of its latest unit
    doing        TEXT NOT NULL DEFAULT '',   -- its latest unit, e.g. "run 3 pair 12"
    units        INTEGER NOT NULL DEFAULT 0, -- units stored (pairs, suite chunks)
    progress     INTEGER NOT NULL DEFAULT 0, -- games or answers stored
    faults       INTEGER NOT NULL DEFAULT 0  -- units that failed and went back
);
