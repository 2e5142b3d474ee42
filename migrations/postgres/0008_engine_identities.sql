-- What played; see migrations/sqlite/0011_engine_identities.sql.
CREATE TABLE engine_identities (
    id        BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id    BIGINT NOT NULL REFERENCES runs(id),
    engine    TEXT NOT NULL,
    host      TEXT NOT NULL,
    sha256    TEXT NOT NULL,
    id_name   TEXT NOT NULL DEFAULT '',
    bench     BIGINT,
    nps       BIGINT,
    accepted  BIGINT NOT NULL DEFAULT 0,
    seen_ms   BIGINT NOT NULL
);
CREATE INDEX engine_identities_run ON engine_identities (run_id, engine, host);

-- Why a worker will not serve a run (its engines cannot be built or proven
-- there), for the dashboard's workers page.
ALTER TABLE workers ADD COLUMN refused TEXT NOT NULL DEFAULT '';
