//! Keeping a database small: moves stored as JSON before moves were packed,
//! or packed in an older format, converted a batch at a time (`arena
//! compact`), and finished runs made to
//! shed their moves and I/O log places (`arena prune`) while their games,
//! tallies and reports stay.

use model::RunStatus;

use crate::conn::Cells;
use crate::{Db, DbError};

/// What one batch of [`Db::compact_batch`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compacted {
    /// Games whose moves were converted.
    pub games: u64,
    /// Bytes of their moves before (JSON, or packed in an older format).
    pub old_bytes: u64,
    /// Bytes of their packed values.
    pub packed_bytes: u64,
    /// The last game converted (where the next batch of [`Db::repack_batch`] starts).
    pub last_game: i64,
}

/// What pruning a run frees, or freed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Shed {
    /// Games whose moves are stored.
    pub games_with_moves: u64,
    /// Bytes of those moves (packed and JSON).
    pub move_bytes: u64,
    /// The I/O log places the games name (`HOST:FILE@OFFSET+LENGTH`).
    pub io_logs: Vec<String>,
}

impl Db {
    /// Games whose moves are stored as JSON (see [`Db::compact_batch`]) and
    /// games whose moves are packed in an older format (see [`Db::repack_batch`]).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn old_move_games(&self) -> Result<(u64, u64), DbError> {
        let row = self
            .fetch_one(
                sqlx::query(self.backend.sql(
                    "SELECT (SELECT COUNT(*) FROM game_moves) AS json_games, \
             (SELECT COUNT(*) FROM packed_moves WHERE substr(data, 1, 1) <> ?) AS old_packed",
                ))
                .bind(vec![crate::packed::FORMAT]),
            )
            .await?;
        let count = |column: &str| row.cell::<i64>(column).map(|n| u64::try_from(n).unwrap_or(0));
        Ok((count("json_games")?, count("old_packed")?))
    }

    /// Packs anew, in this release's format, the moves of up to `limit`
    /// games after game `after` whose values are of an older format, in one
    /// transaction (each value is replaced whole, so stopping anywhere loses
    /// nothing). A value that cannot be read is left as it is and named.
    ///
    /// # Errors
    ///
    /// A database failure, or a stored value that cannot be read (with its game).
    pub async fn repack_batch(&self, after: i64, limit: i64) -> Result<Compacted, DbError> {
        let mut tx = self.write().await?;
        let rows = tx
            .fetch_all(
                sqlx::query(self.backend.sql(
                    "SELECT pm.game_id, g.run_id, pm.data, g.start_fen, g.opening_moves FROM packed_moves pm \
             JOIN games g ON g.id = pm.game_id WHERE pm.game_id > ? AND substr(pm.data, 1, 1) <> ? \
             ORDER BY pm.game_id LIMIT ?",
                ))
                .bind(after)
                .bind(vec![crate::packed::FORMAT])
                .bind(limit),
            )
            .await?;
        let mut done = Compacted { last_game: after, ..Compacted::default() };
        let mut moves = Vec::new();
        for row in &rows {
            let (game, run): (i64, i64) = (row.cell("game_id")?, row.cell("run_id")?);
            let old: Vec<u8> = row.cell("data")?;
            let (fen, opening) = stored_start(row)?;
            let start = crate::lines::Start { fen: &fen, opening: &opening };
            crate::packed::unpack_into(&old, &mut moves, crate::packed::Fields::All, start)
                .map_err(|e| DbError::Moves { run, game, source: e.into() })?;
            let packed = crate::packed::pack(&moves, start).map_err(DbError::Compress)?;
            done.games += 1;
            done.old_bytes += old.len() as u64;
            done.packed_bytes += packed.len() as u64;
            done.last_game = game;
            tx.execute(
                sqlx::query(self.backend.sql("UPDATE packed_moves SET data = ? WHERE game_id = ?"))
                    .bind(packed)
                    .bind(game),
            )
            .await?;
        }
        tx.commit().await?;
        Ok(done)
    }

    /// Converts the moves of up to `limit` games stored as JSON to packed
    /// values, in one transaction: each game's moves are in exactly one of
    /// the two tables before, during and after, so stopping at any point
    /// loses nothing. A value that cannot be read is left as it is and named.
    ///
    /// # Errors
    ///
    /// A database failure, or a stored value that cannot be read (with its game).
    pub async fn compact_batch(&self, limit: i64) -> Result<Compacted, DbError> {
        let mut tx = self.write().await?;
        let rows = tx
            .fetch_all(
                sqlx::query(self.backend.sql(
                    "SELECT m.game_id, g.run_id, m.moves_json, g.start_fen, g.opening_moves FROM game_moves m \
             JOIN games g ON g.id = m.game_id ORDER BY m.game_id LIMIT ?",
                ))
                .bind(limit),
            )
            .await?;
        let mut done = Compacted::default();
        for row in &rows {
            let (game, run): (i64, i64) = (row.cell("game_id")?, row.cell("run_id")?);
            let json: String = row.cell("moves_json")?;
            let moves = crate::moves::decode(&json).map_err(|e| DbError::Moves { run, game, source: e.into() })?;
            done.games += 1;
            done.old_bytes += json.len() as u64;
            done.last_game = game;
            let (fen, opening) = stored_start(row)?;
            let start = crate::lines::Start { fen: &fen, opening: &opening };
            let packed = crate::packed::pack(&moves, start).map_err(DbError::Compress)?;
            done.packed_bytes += self.insert_packed_moves(&mut tx, game, packed).await? as u64;
            tx.execute(sqlx::query(self.backend.sql("DELETE FROM game_moves WHERE game_id = ?")).bind(game)).await?;
        }
        tx.commit().await?;
        Ok(done)
    }

    /// Gives the space of deleted rows back to the file system, and gives
    /// the file the page size of new files (SQLite's `VACUUM`, which can
    /// change the page size only outside write-ahead logging; PostgreSQL
    /// reuses the space by itself, so nothing is done there).
    ///
    /// # Errors
    ///
    /// A database failure (the disk needs room for a copy of the file).
    pub async fn vacuum(&self) -> Result<(), DbError> {
        if self.is_shared() {
            return Ok(());
        }
        let mut connection = self.alone().await?;
        for statement in [
            "PRAGMA journal_mode = DELETE".to_string(),
            format!("PRAGMA page_size = {}", crate::connect::SQLITE_PAGE_SIZE),
            "VACUUM".to_string(),
            "PRAGMA journal_mode = WAL".to_string(),
        ] {
            connection.execute(sqlx::query(sqlx::AssertSqlSafe(statement))).await?;
        }
        Ok(())
    }

    /// What [`Db::prune`] would shed from run `run`.
    ///
    /// # Errors
    ///
    /// A database failure, or no such run.
    pub async fn prunable(&self, run: i64) -> Result<Shed, DbError> {
        self.run(run).await?;
        let sizes = self
            .fetch_one(
                sqlx::query(self.backend.sql(
                    "SELECT COUNT(pm.game_id) + COUNT(m.game_id) AS games, \
             COALESCE(SUM(LENGTH(pm.data)), 0) + COALESCE(SUM(LENGTH(m.moves_json)), 0) AS bytes \
             FROM games g LEFT JOIN packed_moves pm ON pm.game_id = g.id LEFT JOIN game_moves m ON m.game_id = g.id \
             WHERE g.run_id = ?",
                ))
                .bind(run),
            )
            .await?;
        let io_logs = self
            .fetch_all(
                sqlx::query(
                    self.backend.sql("SELECT io_log FROM games WHERE run_id = ? AND io_log IS NOT NULL ORDER BY id"),
                )
                .bind(run),
            )
            .await?;
        let count = |column: &str| sizes.cell::<i64>(column).map(|n| u64::try_from(n).unwrap_or(0));
        Ok(Shed {
            games_with_moves: count("games")?,
            move_bytes: count("bytes")?,
            io_logs: io_logs.iter().map(|r| r.cell::<String>("io_log")).collect::<Result<_, _>>()?,
        })
    }

    /// Deletes the moves of run `run`'s games and forgets the places of
    /// their I/O logs on machine `machine` (whose files the caller deletes;
    /// other machines' places stay until pruned there); games, tallies and
    /// everything reports read from the games' rows stay. Only a finished
    /// run: a run that may still play is refused.
    ///
    /// # Errors
    ///
    /// [`DbError::Unexpected`] naming the run's status when it is not finished; a
    /// database failure (nothing is deleted then).
    pub async fn prune(&self, run: i64, machine: &str) -> Result<Shed, DbError> {
        let info = self.run(run).await?;
        if info.status != RunStatus::Finished {
            return Err(DbError::Unexpected(format!(
                "run {run} is {}, not finished: only a finished run sheds its moves (arena resume {run} plays it to its end)",
                info.status.as_str()
            )));
        }
        let shed = self.prunable(run).await?;
        let mut tx = self.write().await?;
        for statement in [
            "DELETE FROM packed_moves WHERE game_id IN (SELECT id FROM games WHERE run_id = ?)",
            "DELETE FROM game_moves WHERE game_id IN (SELECT id FROM games WHERE run_id = ?)",
        ] {
            tx.execute(sqlx::query(self.backend.sql(statement)).bind(run)).await?;
        }
        // A place is `MACHINE:FILE@OFFSET+LENGTH`; a machine's name has no ':'.
        tx.execute(
            sqlx::query(self.backend.sql(
                "UPDATE games SET io_log = NULL WHERE run_id = ? AND substr(io_log, 1, length(?) + 1) = ? || ':'",
            ))
            .bind(run)
            .bind(machine)
            .bind(machine),
        )
        .await?;
        tx.commit().await?;
        Ok(shed)
    }
}

/// A game's start position and opening moves, read from `row`'s columns
/// `start_fen` and `opening_moves`.
fn stored_start(row: &sqlx::any::AnyRow) -> Result<(String, Vec<String>), DbError> {
    Ok((row.cell("start_fen")?, row.words("opening_moves")?))
}
