-- How many pairs a run planned (see migrations/sqlite/0016_run_pairs_total.sql).
ALTER TABLE runs ADD COLUMN pairs_total BIGINT NOT NULL DEFAULT 0;
UPDATE runs SET pairs_total = (SELECT COUNT(*) FROM pairs WHERE pairs.run_id = runs.id);
