-- The pending pairs of each run in plan order, for the claim's "first pending
-- pair" (see migrations/postgres/0014_pending_pairs.sql; SQLite's planner
-- already takes the (run_id, status, idx) index, the index keeps both alike).
CREATE INDEX pairs_pending ON pairs (run_id, idx) WHERE status = 'pending';
