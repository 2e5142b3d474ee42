-- Engine I/O logs: where each game's log of every line to and from its
-- engines was written, as `host:path` (NULL when none was kept).

ALTER TABLE games ADD COLUMN io_log TEXT;
