//! Counts kept as pairs finish (migrations `0014_run_counts`,
//! `0015_run_progress`): each finished pair's results and machine in its row
//! and counted in `run_pairs` (by pairing, machine and results) and
//! `run_progress` (the same by block of finishing order), its games in `run_games` (by
//! machine, colours, result, termination and length), its engines' move
//! totals in `run_engine_totals` and their move overheads in
//! `run_overheads`. A run's views read these, never every game. A pair is
//! added in the transaction that finishes it ([`Db::count_finished`]), with
//! the same statements that fill the counts of a run stored before them
//! ([`Db::count_stored_runs`], at open).

use std::collections::BTreeMap;

use model::Latencies;

use crate::conn::{Cells, Conn};
use crate::{Db, DbError};

/// Which games a statement counts: those of one pair, or of a run's finished pairs.
#[derive(Clone, Copy)]
enum Games {
    /// The pair with this id.
    Pair(i64),
    /// The finished pairs of the run with this id.
    Run(i64),
}

impl Games {
    /// The condition on `games g`, with one `?` for [`Games::id`].
    fn filter(self) -> &'static str {
        match self {
            Games::Pair(_) => "g.pair_id = ?",
            Games::Run(_) => "g.pair_id IN (SELECT id FROM pairs WHERE run_id = ? AND status = 'done')",
        }
    }

    fn id(self) -> i64 {
        match self {
            Games::Pair(id) | Games::Run(id) => id,
        }
    }
}

/// Overhead rows per multi-row insert (5 parameters each).
const OVERHEADS_PER_INSERT: usize = 500;

impl Db {
    /// Adds the two games of finished pair `pair` of run `run` to the run's
    /// counts, in `tx`, which has just marked the pair done (SQLite: on
    /// PostgreSQL the server's `arena_finish_pair` counts the same);
    /// `overheads`: whether either game measured move overheads (else they
    /// are not read).
    pub(crate) async fn count_finished(
        &self,
        tx: &mut Conn<'_>,
        run: i64,
        pair: i64,
        overheads: bool,
    ) -> Result<(), DbError> {
        self.add_counts(tx, run, Games::Pair(pair), overheads).await
    }

    /// Fills the counts of every run stored before they were kept, a run per
    /// transaction.
    pub(crate) async fn count_stored_runs(&self) -> Result<(), DbError> {
        let rows = self.fetch_all(sqlx::query("SELECT id FROM runs WHERE counts_kept = 0 ORDER BY id")).await?;
        for row in &rows {
            let run: i64 = row.cell("id")?;
            let mut tx = self.write().await?;
            // Locks the run as finishing a pair does, so no pair of it
            // finishes while its counts are made; another process may have
            // counted it meanwhile.
            let kept: Option<i64> = tx
                .fetch_optional(
                    sqlx::query(self.backend.sql("SELECT counts_kept FROM runs WHERE id = ? {for_update}")).bind(run),
                )
                .await?
                .map(|row| row.cell("counts_kept"))
                .transpose()?;
            if kept == Some(0) {
                for table in ["run_pairs", "run_progress", "run_games", "run_engine_totals", "run_overheads"] {
                    tx.execute(
                        sqlx::query(self.backend.sql(&format!("DELETE FROM {table} WHERE run_id = ?"))).bind(run),
                    )
                    .await?;
                }
                tx.execute(
                    sqlx::query(
                        self.backend
                            .sql(&format!("UPDATE pairs SET {} WHERE run_id = ? AND status = 'done'", PAIR_RESULTS)),
                    )
                    .bind(run),
                )
                .await?;
                self.add_counts(&mut tx, run, Games::Run(run), true).await?;
                tx.execute(sqlx::query(self.backend.sql("UPDATE runs SET counts_kept = 1 WHERE id = ?")).bind(run))
                    .await?;
            }
            tx.commit().await?;
        }
        Ok(())
    }

    /// Adds `games` to run `run`'s `run_pairs`, `run_progress`, `run_games`,
    /// `run_engine_totals` and, with `overheads`, `run_overheads`.
    async fn add_counts(&self, tx: &mut Conn<'_>, run: i64, games: Games, overheads: bool) -> Result<(), DbError> {
        for (text, binds) in &count_statements(games) {
            let mut query = sqlx::query(self.backend.sql(text));
            for value in binds {
                query = query.bind(*value);
            }
            tx.execute(query).await?;
        }
        match overheads {
            true => self.add_overheads(tx, run, games).await,
            false => Ok(()),
        }
    }

    /// Adds the move overheads of `games` to `run_overheads`: the
    /// histograms are text in the games' rows, so they are summed here.
    async fn add_overheads(&self, tx: &mut Conn<'_>, run: i64, games: Games) -> Result<(), DbError> {
        let rows = tx
            .fetch_all(
                sqlx::query(self.backend.sql(&format!(
                    "SELECT g.machine, g.white, g.black, g.white_overheads, g.black_overheads FROM games g \
             WHERE {} AND (g.white_overheads <> '' OR g.black_overheads <> '')",
                    games.filter()
                )))
                .bind(games.id()),
            )
            .await?;
        let mut sums: BTreeMap<(String, String), Latencies> = BTreeMap::new();
        for row in &rows {
            let machine: String = row.cell("machine")?;
            let white = (row.cell::<String>("white")?, row.cell::<String>("white_overheads")?);
            for (engine, text) in [white, (row.cell("black")?, row.cell("black_overheads")?)] {
                sums.entry((machine.clone(), engine)).or_default().merge(&Latencies::decode(&text));
            }
        }
        let buckets: Vec<(&str, &str, u32, u64)> = sums
            .iter()
            .flat_map(|((machine, engine), latencies)| {
                latencies.buckets().map(move |(bucket, moves)| (machine.as_str(), engine.as_str(), bucket, moves))
            })
            .collect();
        for chunk in buckets.chunks(OVERHEADS_PER_INSERT) {
            let values = vec!["(?, ?, ?, ?, ?)"; chunk.len()].join(", ");
            let mut query = sqlx::query(self.backend.sql(&format!(
                "INSERT INTO run_overheads (run_id, machine, engine, bucket, moves) VALUES {values} \
                 ON CONFLICT (run_id, machine, engine, bucket) DO UPDATE SET moves = run_overheads.moves + excluded.moves"
            )));
            for &(machine, engine, bucket, moves) in chunk {
                query = query
                    .bind(run)
                    .bind(machine)
                    .bind(engine)
                    .bind(i64::from(bucket))
                    .bind(i64::try_from(moves).unwrap_or(i64::MAX));
            }
            tx.execute(query).await?;
        }
        Ok(())
    }
}

/// The statements that add `games` of run `run` to the run's counts but its
/// overheads, each with its parameters.
fn count_statements(games: Games) -> Vec<(String, Vec<i64>)> {
    let mut statements = pair_statements(games);
    statements.extend(game_statements(games));
    statements
}

/// The statements of [`count_statements`] that count pairs: the run's pair
/// results by machine, and by block of finishing order. (The LLR after each
/// block is not stored: the report computes it from these counts.)
fn pair_statements(games: Games) -> Vec<(String, Vec<i64>)> {
    let id = games.id();
    let pairs = match games {
        Games::Pair(_) => "p.id = ?",
        Games::Run(_) => "p.run_id = ? AND p.status = 'done'",
    };
    let block = model::PROGRESS_BLOCK;
    vec![
        (
            format!(
                "INSERT INTO run_pairs (run_id, engine_a, engine_b, machine, result0, result1, pairs) \
                 SELECT p.run_id, p.engine_a, p.engine_b, COALESCE(p.machine, ''), p.result0, p.result1, COUNT(*) \
                 FROM pairs p WHERE {pairs} AND p.result0 IS NOT NULL AND p.result1 IS NOT NULL \
                 GROUP BY p.run_id, p.engine_a, p.engine_b, COALESCE(p.machine, ''), p.result0, p.result1 \
                 ON CONFLICT (run_id, engine_a, engine_b, machine, result0, result1) \
                 DO UPDATE SET pairs = run_pairs.pairs + excluded.pairs"
            ),
            vec![id],
        ),
        (
            format!(
                "INSERT INTO run_progress (run_id, block, engine_a, engine_b, machine, result0, result1, pairs, last_seq) \
                 SELECT p.run_id, (p.finished_seq - 1) / {block}, p.engine_a, p.engine_b, COALESCE(p.machine, ''), \
                 p.result0, p.result1, COUNT(*), MAX(p.finished_seq) \
                 FROM pairs p WHERE {pairs} AND p.result0 IS NOT NULL AND p.result1 IS NOT NULL \
                 AND p.finished_seq IS NOT NULL \
                 GROUP BY p.run_id, (p.finished_seq - 1) / {block}, p.engine_a, p.engine_b, COALESCE(p.machine, ''), \
                 p.result0, p.result1 \
                 ON CONFLICT (run_id, block, engine_a, engine_b, machine, result0, result1) \
                 DO UPDATE SET pairs = run_progress.pairs + excluded.pairs, \
                 last_seq = excluded.last_seq"
            ),
            vec![id],
        ),
    ]
}

/// The statements of [`count_statements`] that count games: results and
/// terminations by length, and each engine's move totals.
fn game_statements(games: Games) -> Vec<(String, Vec<i64>)> {
    let id = games.id();
    let filter = games.filter();
    let mut statements = Vec::new();
    statements.push((
        format!(
            "INSERT INTO run_games (run_id, machine, white, black, result, termination, plies, games) \
             SELECT g.run_id, g.machine, g.white, g.black, g.result, g.termination, g.plies, COUNT(*) FROM games g \
             WHERE {filter} GROUP BY g.run_id, g.machine, g.white, g.black, g.result, g.termination, g.plies \
             ON CONFLICT (run_id, machine, white, black, result, termination, plies) \
             DO UPDATE SET games = run_games.games + excluded.games"
        ),
        vec![id],
    ));
    const TOTALS: [&str; 10] = [
        "moves",
        "time_ms",
        "depth_sum",
        "depth_moves",
        "nodes_sum",
        "nodes_moves",
        "nps_sum",
        "nps_moves",
        "seldepth_sum",
        "seldepth_moves",
    ];
    // Each game's row holds both sides' totals; a side that made no move counts for nothing.
    let side = |colour: &str| {
        let columns: Vec<String> = TOTALS.iter().map(|t| format!("g.{colour}_{t} AS {t}")).collect();
        format!(
            "SELECT g.run_id, g.{colour} AS engine, {} FROM games g WHERE {filter} AND g.{colour}_moves > 0",
            columns.join(", ")
        )
    };
    let sums: Vec<String> = TOTALS.iter().map(|t| format!("SUM({t})")).collect();
    let added: Vec<String> = TOTALS.iter().map(|t| format!("{t} = run_engine_totals.{t} + excluded.{t}")).collect();
    statements.push((
        format!(
            "INSERT INTO run_engine_totals (run_id, engine, {}) SELECT run_id, engine, {} FROM ({} UNION ALL {}) sides \
             WHERE true GROUP BY run_id, engine ON CONFLICT (run_id, engine) DO UPDATE SET {}",
            TOTALS.join(", "),
            sums.join(", "),
            side("white"),
            side("black"),
            added.join(", ")
        ),
        vec![id, id],
    ));
    statements
}

/// The assignments that keep a finished pair's results and machine in its
/// row (game 0 has `engine_a` as White), read from its stored games.
pub(crate) const PAIR_RESULTS: &str = "result0 = (SELECT result FROM games WHERE pair_id = pairs.id AND game_in_pair = 0), \
     result1 = (SELECT result FROM games WHERE pair_id = pairs.id AND game_in_pair = 1), \
     machine = (SELECT MAX(machine) FROM games WHERE pair_id = pairs.id)";
