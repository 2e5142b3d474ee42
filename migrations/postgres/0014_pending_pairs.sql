-- The pending pairs of each run in plan order, for the claim's "first pending
-- pair" (db/src/lease.rs). The (run_id, status, idx) index serves it too, but
-- once statistics say most pairs are pending the planner walks the unique
-- (run_id, idx) index instead, filtering out every pair already done: a claim
-- then costs a read of each finished pair (2 ms at 8,000 of 10,000 here). This
-- index holds only pending pairs, so walking it finds the first at once.
CREATE INDEX pairs_pending ON pairs (run_id, idx) WHERE status = 'pending';
