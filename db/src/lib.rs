//! Storage for arena: runs, pairs, games and moves (SQLite by default).
