-- Mate-PV checks; see migrations/sqlite/0008_pv_issues.sql.

CREATE TABLE pv_issues (
    id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id   BIGINT NOT NULL REFERENCES runs (id),
    game_id  BIGINT NOT NULL REFERENCES games (id),
    ply      BIGINT NOT NULL,
    engine   TEXT NOT NULL,
    kind     TEXT NOT NULL,
    detail   TEXT NOT NULL
);
CREATE INDEX pv_issues_by_run ON pv_issues (run_id, engine, kind);
