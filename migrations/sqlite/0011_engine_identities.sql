-- What played (issue #34): per run, engine and machine, the executable's
-- sha256, the engine's `id name`, its bench signature and speed, the first
-- time that machine played it. A later row for the same machine is a
-- change accepted with --accept-change (accepted = 1), so a report can say
-- that the binary changed during the run.
CREATE TABLE engine_identities (
    id        INTEGER PRIMARY KEY,
    run_id    INTEGER NOT NULL REFERENCES runs(id),
    engine    TEXT NOT NULL,
    host      TEXT NOT NULL,
    sha256    TEXT NOT NULL,
    id_name   TEXT NOT NULL DEFAULT '',
    bench     INTEGER,
    nps       INTEGER,
    accepted  INTEGER NOT NULL DEFAULT 0,
    seen_ms   INTEGER NOT NULL
);
CREATE INDEX engine_identities_run ON engine_identities (run_id, engine, host);

-- Why a worker will not serve a run (its engines cannot be built or proven
-- there), for the dashboard's workers page.
ALTER TABLE workers ADD COLUMN refused TEXT NOT NULL DEFAULT '';
