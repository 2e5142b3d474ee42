-- Engine I/O logs; see migrations/sqlite/0009_io_logs.sql.

ALTER TABLE games ADD COLUMN io_log TEXT;
