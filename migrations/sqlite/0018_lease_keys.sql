-- The columns PostgreSQL's 0015_worker_guards adds, so that both backends
-- read and write the same statements. On SQLite (one machine, guarded by
-- the file's permissions) they stay empty: no key is stored.
ALTER TABLE pairs ADD COLUMN lease_hash TEXT;
ALTER TABLE pairs ADD COLUMN lease_key TEXT;
ALTER TABLE games ADD COLUMN lease_key TEXT;
ALTER TABLE suite_chunks ADD COLUMN lease_hash TEXT;
ALTER TABLE suite_chunks ADD COLUMN lease_key TEXT;
