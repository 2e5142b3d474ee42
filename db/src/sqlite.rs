//! The SQLite backend.

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteRow, SqliteSynchronous,
};
use sqlx::{AssertSqlSafe, Row, Sqlite, Transaction};

use crate::record::{GameRecord, GameResult, MoveRecord, Termination, now_ms};
use crate::{ClaimedPair, DbError, EngineMoveTotals, GameRow, GameSummary, PairOutcome, PairPlan, RunRow, SuiteResult};

/// Rows per multi-row `INSERT` (13 parameters each, far below SQLite's limit).
const ROWS_PER_INSERT: usize = 500;

/// An open database.
#[derive(Clone, Debug)]
pub struct Db {
    pool: SqlitePool,
    path: String,
}

fn sql_error(path: &str, error: sqlx::Error) -> DbError {
    let text = error.to_string();
    if text.contains("database is locked") || text.contains("database is busy") {
        DbError::Locked { path: path.to_string() }
    } else if text.contains("readonly") || text.contains("read-only") || text.contains("unable to open") {
        DbError::ReadOnly { path: path.to_string() }
    } else {
        DbError::Sql(text)
    }
}

impl Db {
    /// Opens (creating if missing) the database at `path`, in WAL mode with a
    /// busy timeout, runs the migrations, and checks that it can be written.
    ///
    /// # Errors
    ///
    /// [`DbError::Open`], [`DbError::ReadOnly`] or [`DbError::Locked`].
    pub async fn open(path: &Path) -> Result<Db, DbError> {
        let shown = path.display().to_string();
        let options = SqliteConnectOptions::from_str("sqlite:")
            .map_err(|e| DbError::Open { path: shown.clone(), cause: e.to_string() })?
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let pool =
            SqlitePoolOptions::new().max_connections(1).connect_with(options).await.map_err(|e| {
                match sql_error(&shown, e) {
                    DbError::Sql(cause) => DbError::Open { path: shown.clone(), cause },
                    other => other,
                }
            })?;
        sqlx::migrate!("../migrations/sqlite").run(&pool).await.map_err(|e| {
            let text = e.to_string();
            if text.contains("locked") {
                DbError::Locked { path: shown.clone() }
            } else if text.contains("readonly") {
                DbError::ReadOnly { path: shown.clone() }
            } else {
                DbError::Open { path: shown.clone(), cause: text }
            }
        })?;
        let db = Db { pool, path: shown };
        let tx = db.write().await?;
        tx.commit().await.map_err(|e| db.error(e))?;
        Ok(db)
    }

    /// Closes the connection (checkpointing the write-ahead log).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    fn error(&self, error: sqlx::Error) -> DbError {
        sql_error(&self.path, error)
    }

    /// The rows of a query whose only parameter is a run id.
    async fn rows_of_run(&self, sql: &'static str, run: i64) -> Result<Vec<SqliteRow>, DbError> {
        sqlx::query(sql).bind(run).fetch_all(&self.pool).await.map_err(|e| self.error(e))
    }

    /// A write transaction that takes the lock at once (`BEGIN IMMEDIATE`).
    async fn write(&self) -> Result<Transaction<'static, Sqlite>, DbError> {
        self.pool.begin_with("BEGIN IMMEDIATE").await.map_err(|e| self.error(e))
    }

    /// Stores a new run with its engines and planned pairs; returns its id.
    ///
    /// # Errors
    ///
    /// [`DbError`] on any database failure (nothing is stored then).
    pub async fn create_run(
        &self,
        kind: &str,
        spec_json: &str,
        engines: &[(String, String)],
        pairs: &[PairPlan],
    ) -> Result<i64, DbError> {
        let mut tx = self.write().await?;
        let machine = std::env::var("HOSTNAME")
            .ok()
            .or_else(|| std::fs::read_to_string("/etc/hostname").ok().map(|s| s.trim().to_string()))
            .unwrap_or_default();
        let run: i64 = sqlx::query(
            "INSERT INTO runs (kind, spec, status, created_ms, machine) VALUES (?, ?, 'running', ?, ?) RETURNING id",
        )
        .bind(kind)
        .bind(spec_json)
        .bind(now_ms())
        .bind(machine)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| self.error(e))?
        .get(0);
        for (name, spec) in engines {
            sqlx::query("INSERT INTO engines (name, spec) VALUES (?, ?) ON CONFLICT (name, spec) DO NOTHING")
                .bind(name)
                .bind(spec)
                .execute(&mut *tx)
                .await
                .map_err(|e| self.error(e))?;
            sqlx::query(
                "INSERT OR IGNORE INTO run_engines (run_id, engine_id) SELECT ?, id FROM engines WHERE name = ? AND spec = ?",
            )
            .bind(run)
            .bind(name)
            .bind(spec)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        }
        for chunk in pairs.chunks(ROWS_PER_INSERT) {
            let mut sql = String::from(
                "INSERT INTO pairs (run_id, idx, engine_a, engine_b, opening_index, opening_name, fen, opening_moves, opening_san) VALUES ",
            );
            sql.push_str(&vec!["(?, ?, ?, ?, ?, ?, ?, ?, ?)"; chunk.len()].join(", "));
            let mut query = sqlx::query(AssertSqlSafe(sql));
            for pair in chunk {
                query = query
                    .bind(run)
                    .bind(pair.index)
                    .bind(&pair.engine_a)
                    .bind(&pair.engine_b)
                    .bind(pair.opening_index)
                    .bind(&pair.opening_name)
                    .bind(&pair.fen)
                    .bind(pair.opening_moves.join(" "))
                    .bind(pair.opening_san.join(" "));
            }
            query.execute(&mut *tx).await.map_err(|e| self.error(e))?;
        }
        tx.commit().await.map_err(|e| self.error(e))?;
        Ok(run)
    }

    /// One run with its counts.
    ///
    /// # Errors
    ///
    /// [`DbError::NoSuchRun`] or a database failure.
    pub async fn run(&self, id: i64) -> Result<RunRow, DbError> {
        let sql = format!("{RUN_SELECT} WHERE r.id = ?");
        let row =
            sqlx::query(AssertSqlSafe(sql)).bind(id).fetch_optional(&self.pool).await.map_err(|e| self.error(e))?;
        row.map(|r| run_row(&r)).ok_or(DbError::NoSuchRun(id))
    }

    /// All runs, newest first.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn runs(&self) -> Result<Vec<RunRow>, DbError> {
        let sql = format!("{RUN_SELECT} ORDER BY r.id DESC");
        let rows = sqlx::query(AssertSqlSafe(sql)).fetch_all(&self.pool).await.map_err(|e| self.error(e))?;
        Ok(rows.iter().map(run_row).collect())
    }

    /// Sets a run's status (and verdict), stamping the finish time when finished.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn set_status(&self, run: i64, status: &str, verdict: Option<&str>) -> Result<(), DbError> {
        let mut tx = self.write().await?;
        let finished = (status == "finished").then(now_ms);
        sqlx::query("UPDATE runs SET status = ?, verdict = COALESCE(?, verdict), finished_ms = ? WHERE id = ?")
            .bind(status)
            .bind(verdict)
            .bind(finished)
            .bind(run)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        tx.commit().await.map_err(|e| self.error(e))
    }

    /// Makes a run resumable after a crash: games of unfinished pairs are
    /// deleted and those pairs become pending again. Returns how many pairs
    /// were reset.
    ///
    /// # Errors
    ///
    /// A database failure (then nothing changed).
    pub async fn reset_unfinished(&self, run: i64) -> Result<u64, DbError> {
        let mut tx = self.write().await?;
        let unfinished = "SELECT id FROM pairs WHERE run_id = ? AND status = 'running'";
        for table in ["moves", "move_totals"] {
            sqlx::query(AssertSqlSafe(format!(
                "DELETE FROM {table} WHERE game_id IN (SELECT id FROM games WHERE pair_id IN ({unfinished}))"
            )))
            .bind(run)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        }
        sqlx::query(AssertSqlSafe(format!("DELETE FROM games WHERE pair_id IN ({unfinished})")))
            .bind(run)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        let reset = sqlx::query(
            "UPDATE pairs SET status = 'pending', lease_until = NULL WHERE run_id = ? AND status = 'running'",
        )
        .bind(run)
        .execute(&mut *tx)
        .await
        .map_err(|e| self.error(e))?
        .rows_affected();
        tx.commit().await.map_err(|e| self.error(e))?;
        Ok(reset)
    }

    /// Claims the next pending pair of a run (lowest plan index) and marks it running.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn claim_pair(&self, run: i64) -> Result<Option<ClaimedPair>, DbError> {
        let mut tx = self.write().await?;
        let row = sqlx::query(
            "UPDATE pairs SET status = 'running' WHERE id = \
             (SELECT id FROM pairs WHERE run_id = ? AND status = 'pending' ORDER BY idx LIMIT 1) \
             RETURNING id, idx, engine_a, engine_b, opening_index, opening_name, fen, opening_moves, opening_san",
        )
        .bind(run)
        .fetch_optional(&mut *tx)
        .await
        .map_err(|e| self.error(e))?;
        tx.commit().await.map_err(|e| self.error(e))?;
        Ok(row.map(|r| {
            let words = |i: usize| r.get::<String, _>(i).split_whitespace().map(str::to_string).collect::<Vec<_>>();
            ClaimedPair {
                id: r.get(0),
                plan: PairPlan {
                    index: r.get(1),
                    engine_a: r.get(2),
                    engine_b: r.get(3),
                    opening_index: r.get(4),
                    opening_name: r.get(5),
                    fen: r.get(6),
                    opening_moves: words(7),
                    opening_san: words(8),
                },
            }
        }))
    }

    /// Marks the pending pairs of a run as skipped (an SPRT that has decided).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn skip_pending(&self, run: i64) -> Result<(), DbError> {
        let mut tx = self.write().await?;
        sqlx::query("UPDATE pairs SET status = 'skipped' WHERE run_id = ? AND status = 'pending'")
            .bind(run)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        tx.commit().await.map_err(|e| self.error(e))
    }

    /// Stores one finished game with all its moves in one transaction. When
    /// `pair_done` is given, the pair is marked done in the same transaction
    /// (with the SPRT LLR after it, if any).
    ///
    /// # Errors
    ///
    /// A database failure (then nothing of the game is stored).
    pub async fn save_game(
        &self,
        run: i64,
        pair_id: i64,
        game_in_pair: i64,
        game: &GameRecord,
        pair_done: Option<Option<f64>>,
    ) -> Result<i64, DbError> {
        let mut tx = self.write().await?;
        let game_id: i64 = sqlx::query(
            "INSERT INTO games (run_id, pair_id, game_in_pair, white, black, result, termination, detail, plies, start_fen, \
             opening, opening_moves, opening_san, started_ms, finished_ms) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        )
        .bind(run)
        .bind(pair_id)
        .bind(game_in_pair)
        .bind(&game.white)
        .bind(&game.black)
        .bind(game.result.pgn())
        .bind(game.termination.as_str())
        .bind(&game.detail)
        .bind(game.moves.len() as i64)
        .bind(&game.start_fen)
        .bind(&game.opening)
        .bind(game.opening_moves.join(" "))
        .bind(game.opening_san.join(" "))
        .bind(game.started_ms)
        .bind(game.finished_ms)
        .fetch_one(&mut *tx)
        .await
        .map_err(|e| self.error(e))?
        .get(0);
        insert_moves(&mut tx, game_id, &game.moves).await.map_err(|e| self.error(e))?;
        insert_move_totals(&mut tx, game_id, game).await.map_err(|e| self.error(e))?;
        if let Some(llr) = pair_done {
            sqlx::query(
                "UPDATE pairs SET status = 'done', llr = ?, \
                 finished_seq = (SELECT COALESCE(MAX(finished_seq), 0) + 1 FROM pairs WHERE run_id = ?) WHERE id = ?",
            )
            .bind(llr)
            .bind(run)
            .bind(pair_id)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        }
        tx.commit().await.map_err(|e| self.error(e))?;
        Ok(game_id)
    }

    /// Results of the finished pairs of a run, in finishing order.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn pair_outcomes(&self, run: i64) -> Result<Vec<PairOutcome>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT p.idx, p.engine_a, p.engine_b, p.opening_name, p.finished_seq, p.llr, \
             MAX(CASE WHEN g.game_in_pair = 0 THEN g.result END), MAX(CASE WHEN g.game_in_pair = 1 THEN g.result END) \
             FROM pairs p JOIN games g ON g.pair_id = p.id \
             WHERE p.run_id = ? AND p.status = 'done' GROUP BY p.id ORDER BY p.finished_seq",
                run,
            )
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                let first = GameResult::from_pgn(&r.get::<Option<String>, _>(6)?)?;
                let second = GameResult::from_pgn(&r.get::<Option<String>, _>(7)?)?;
                Some(PairOutcome {
                    index: r.get(0),
                    engine_a: r.get(1),
                    engine_b: r.get(2),
                    opening_name: r.get(3),
                    finished_seq: r.get(4),
                    llr: r.get(5),
                    results: [first, second],
                })
            })
            .collect())
    }

    /// How many games of a run ended each way: (termination, count).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn terminations(&self, run: i64) -> Result<Vec<(String, i64)>, DbError> {
        let rows = self.rows_of_run(
            "SELECT termination, COUNT(*) FROM games WHERE run_id = ? GROUP BY termination ORDER BY COUNT(*) DESC, termination",
            run,
        )
        .await?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    /// Every stored game of a run in brief, in the order stored.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn game_summaries(&self, run: i64) -> Result<Vec<GameSummary>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT p.idx, g.game_in_pair, g.white, g.black, g.result, g.termination, g.plies \
             FROM games g JOIN pairs p ON p.id = g.pair_id WHERE g.run_id = ? ORDER BY g.id",
                run,
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| GameSummary {
                pair_index: r.get(0),
                game_in_pair: r.get(1),
                white: r.get(2),
                black: r.get(3),
                result: GameResult::from_pgn(&r.get::<String, _>(4)).unwrap_or(GameResult::Draw),
                termination: Termination::parse(&r.get::<String, _>(5)).unwrap_or(Termination::Disconnect),
                plies: r.get(6),
            })
            .collect())
    }

    /// Per engine of a run: moves, time used and the sums of reported depth, nodes and nps.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn move_totals(&self, run: i64) -> Result<Vec<EngineMoveTotals>, DbError> {
        let rows = self.rows_of_run(
            "SELECT CASE t.side WHEN 0 THEN g.white ELSE g.black END AS engine, SUM(t.moves), SUM(t.time_ms), \
             SUM(t.depth_sum), SUM(t.depth_moves), SUM(t.nodes_sum), SUM(t.nodes_moves), SUM(t.nps_sum), SUM(t.nps_moves) \
             FROM move_totals t JOIN games g ON g.id = t.game_id WHERE g.run_id = ? GROUP BY engine ORDER BY engine",
            run,
        )
        .await?;
        Ok(rows
            .iter()
            .map(|r| EngineMoveTotals {
                engine: r.get(0),
                moves: r.get(1),
                time_ms: r.get(2),
                depth_sum: r.get(3),
                depth_moves: r.get(4),
                nodes_sum: r.get(5),
                nodes_moves: r.get(6),
                nps_sum: r.get(7),
                nps_moves: r.get(8),
            })
            .collect())
    }

    /// Stores answers to test positions, all in one transaction.
    ///
    /// # Errors
    ///
    /// A database failure (then none is stored).
    pub async fn save_suite_results(&self, run: i64, results: &[SuiteResult]) -> Result<(), DbError> {
        let mut tx = self.write().await?;
        let wide = |v: Option<u64>| v.map(|v| i64::try_from(v).unwrap_or(i64::MAX));
        for r in results {
            sqlx::query(
                "INSERT OR REPLACE INTO suite_results (run_id, engine, limit_index, limit_label, position, position_id, \
                 best_move, solved, nodes, depth, time_ms, score_cp, score_mate, fault) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(run)
            .bind(&r.engine)
            .bind(r.limit_index)
            .bind(&r.limit_label)
            .bind(r.position)
            .bind(&r.position_id)
            .bind(&r.best_move)
            .bind(i64::from(r.solved))
            .bind(wide(r.nodes))
            .bind(wide(r.depth))
            .bind(i64::try_from(r.time_ms).unwrap_or(i64::MAX))
            .bind(r.score_cp)
            .bind(r.score_mate)
            .bind(&r.fault)
            .execute(&mut *tx)
            .await
            .map_err(|e| self.error(e))?;
        }
        tx.commit().await.map_err(|e| self.error(e))
    }

    /// The stored answers of a suite run, by engine, limit and position.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn suite_results(&self, run: i64) -> Result<Vec<SuiteResult>, DbError> {
        let rows = self.rows_of_run(
            "SELECT engine, limit_index, limit_label, position, position_id, best_move, solved, nodes, depth, time_ms, \
             score_cp, score_mate, fault FROM suite_results WHERE run_id = ? ORDER BY engine, limit_index, position",
            run,
        )
        .await?;
        let narrow = |v: Option<i64>| v.and_then(|v| u64::try_from(v).ok());
        Ok(rows
            .iter()
            .map(|r| SuiteResult {
                engine: r.get(0),
                limit_index: r.get(1),
                limit_label: r.get(2),
                position: r.get(3),
                position_id: r.get(4),
                best_move: r.get(5),
                solved: r.get::<i64, _>(6) != 0,
                nodes: narrow(r.get(7)),
                depth: narrow(r.get(8)),
                time_ms: narrow(Some(r.get(9))).unwrap_or(0),
                score_cp: r.get(10),
                score_mate: r.get(11),
                fault: r.get(12),
            })
            .collect())
    }

    /// Up to `limit` games of a run with id greater than `after`, in id
    /// order, with their moves when `with_moves` (page through with the last id).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn games_page(
        &self,
        run: i64,
        after: i64,
        limit: i64,
        with_moves: bool,
    ) -> Result<Vec<GameRow>, DbError> {
        let rows = sqlx::query(
            "SELECT g.id, p.idx, g.game_in_pair, g.white, g.black, g.result, g.termination, g.detail, g.start_fen, \
             g.opening, g.opening_moves, g.opening_san, g.started_ms, g.finished_ms \
             FROM games g JOIN pairs p ON p.id = g.pair_id WHERE g.run_id = ? AND g.id > ? ORDER BY g.id LIMIT ?",
        )
        .bind(run)
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| self.error(e))?;
        let mut games: Vec<GameRow> = rows.iter().map(game_row).collect();
        if with_moves && let (Some(first), Some(last)) = (games.first(), games.last()) {
            // One row per game with its moves packed by SQLite (fields split by
            // U+001F, moves by U+001E): far fewer rows through the driver.
            let rows = sqlx::query(
                "SELECT game_id, group_concat(uci || char(31) || san || char(31) || time_ms || char(31) || clock_ms || char(31) || \
                 ifnull(score_cp, '') || char(31) || ifnull(score_mate, '') || char(31) || ifnull(depth, '') || char(31) || \
                 ifnull(seldepth, '') || char(31) || ifnull(nodes, '') || char(31) || ifnull(nps, '') || char(31) || pv, \
                 char(30) ORDER BY ply) FROM moves WHERE game_id BETWEEN ? AND ? GROUP BY game_id ORDER BY game_id",
            )
            .bind(first.id)
            .bind(last.id)
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.error(e))?;
            let mut cursor = 0;
            for row in &rows {
                let game_id: i64 = row.get(0);
                while cursor < games.len() && games[cursor].id < game_id {
                    cursor += 1;
                }
                if let Some(game) = games.get_mut(cursor).filter(|g| g.id == game_id) {
                    let packed: String = row.get(1);
                    game.record.moves = packed.split('\u{1e}').map(unpack_move).collect();
                }
            }
        }
        Ok(games)
    }
}

async fn insert_moves(
    tx: &mut Transaction<'static, Sqlite>,
    game_id: i64,
    moves: &[MoveRecord],
) -> Result<(), sqlx::Error> {
    for (chunk_index, chunk) in moves.chunks(ROWS_PER_INSERT).enumerate() {
        let mut sql = String::from(
            "INSERT INTO moves (game_id, ply, uci, san, time_ms, clock_ms, score_cp, score_mate, depth, seldepth, nodes, nps, pv) VALUES ",
        );
        sql.push_str(&vec!["(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"; chunk.len()].join(", "));
        let mut query = sqlx::query(AssertSqlSafe(sql));
        for (i, m) in chunk.iter().enumerate() {
            let clamp = |v: Option<u64>| v.map(|v| i64::try_from(v).unwrap_or(i64::MAX));
            query = query
                .bind(game_id)
                .bind((chunk_index * ROWS_PER_INSERT + i) as i64)
                .bind(&m.uci)
                .bind(&m.san)
                .bind(i64::try_from(m.time_ms).unwrap_or(i64::MAX))
                .bind(i64::try_from(m.clock_ms).unwrap_or(i64::MAX))
                .bind(m.score_cp)
                .bind(m.score_mate)
                .bind(clamp(m.depth))
                .bind(clamp(m.seldepth))
                .bind(clamp(m.nodes))
                .bind(clamp(m.nps))
                .bind(m.pv.replace(['\u{1e}', '\u{1f}'], " "));
        }
        query.execute(&mut **tx).await?;
    }
    Ok(())
}

/// Stores the per-side totals of a game's moves (see `0002_move_totals.sql`).
async fn insert_move_totals(
    tx: &mut Transaction<'static, Sqlite>,
    game_id: i64,
    game: &GameRecord,
) -> Result<(), sqlx::Error> {
    let black_starts = game.start_fen.split_whitespace().nth(1) == Some("b");
    let first_side = (usize::from(black_starts) + game.opening_moves.len()) % 2;
    let mut totals = [EngineMoveTotals::default(), EngineMoveTotals::default()];
    let wide = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    for (ply, m) in game.moves.iter().enumerate() {
        let t = &mut totals[(first_side + ply) % 2];
        t.moves += 1;
        t.time_ms = t.time_ms.saturating_add(wide(m.time_ms));
        for (value, sum, count) in [
            (m.depth, &mut t.depth_sum, &mut t.depth_moves),
            (m.nodes, &mut t.nodes_sum, &mut t.nodes_moves),
            (m.nps, &mut t.nps_sum, &mut t.nps_moves),
        ] {
            if let Some(v) = value {
                *sum = sum.saturating_add(wide(v));
                *count += 1;
            }
        }
    }
    for (side, t) in totals.iter().enumerate().filter(|(_, t)| t.moves > 0) {
        sqlx::query(
            "INSERT INTO move_totals (game_id, side, moves, time_ms, depth_sum, depth_moves, nodes_sum, nodes_moves, \
             nps_sum, nps_moves) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(game_id)
        .bind(side as i64)
        .bind(t.moves)
        .bind(t.time_ms)
        .bind(t.depth_sum)
        .bind(t.depth_moves)
        .bind(t.nodes_sum)
        .bind(t.nodes_moves)
        .bind(t.nps_sum)
        .bind(t.nps_moves)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

const RUN_SELECT: &str = "SELECT r.id, r.kind, r.spec, r.status, r.verdict, r.created_ms, r.finished_ms, r.machine, \
     (SELECT COUNT(*) FROM pairs p WHERE p.run_id = r.id AND p.status != 'skipped'), \
     (SELECT COUNT(*) FROM pairs p WHERE p.run_id = r.id AND p.status = 'done'), \
     (SELECT COUNT(*) FROM games g WHERE g.run_id = r.id) FROM runs r";

fn run_row(r: &SqliteRow) -> RunRow {
    RunRow {
        id: r.get(0),
        kind: r.get(1),
        spec: r.get(2),
        status: r.get(3),
        verdict: r.get(4),
        created_ms: r.get(5),
        finished_ms: r.get(6),
        machine: r.get(7),
        pairs_planned: r.get(8),
        pairs_done: r.get(9),
        games: r.get(10),
    }
}

fn game_row(r: &SqliteRow) -> GameRow {
    let words = |i: usize| r.get::<String, _>(i).split_whitespace().map(str::to_string).collect::<Vec<_>>();
    GameRow {
        id: r.get(0),
        pair_index: r.get(1),
        game_in_pair: r.get(2),
        record: GameRecord {
            white: r.get(3),
            black: r.get(4),
            result: GameResult::from_pgn(&r.get::<String, _>(5)).unwrap_or(GameResult::Draw),
            termination: Termination::parse(&r.get::<String, _>(6)).unwrap_or(Termination::Disconnect),
            detail: r.get(7),
            start_fen: r.get(8),
            opening: r.get(9),
            opening_moves: words(10),
            opening_san: words(11),
            moves: Vec::new(),
            started_ms: r.get(12),
            finished_ms: r.get(13),
        },
    }
}

fn unpack_move(packed: &str) -> MoveRecord {
    let mut fields = packed.splitn(11, '\u{1f}');
    let mut next = || fields.next().unwrap_or_default();
    let (uci, san, time, clock) = (next().to_string(), next().to_string(), next(), next());
    let (cp, mate, depth, seldepth, nodes, nps) = (next(), next(), next(), next(), next(), next());
    MoveRecord {
        uci,
        san,
        time_ms: time.parse().unwrap_or(0),
        clock_ms: clock.parse().unwrap_or(0),
        score_cp: cp.parse().ok(),
        score_mate: mate.parse().ok(),
        depth: depth.parse().ok(),
        seldepth: seldepth.parse().ok(),
        nodes: nodes.parse().ok(),
        nps: nps.parse().ok(),
        pv: next().to_string(),
    }
}
